/**
 * Where an order's side screens are (its chat, its appeal), on their own: the router, the
 * start-up's deep link and the order screens' buttons name them from the first chunk, which the
 * side screens' components must not join.
 */

/** The chat's route pattern, for the router. */
export const ORDER_CHAT_ROUTE = '/order/:orderId/chat';

/** The route of an order's chat. */
export const orderChatPath = (orderId: string) => `/order/${encodeURIComponent(orderId)}/chat`;

/** The appeal screen's route pattern, for the router. */
export const ORDER_APPEAL_ROUTE = '/order/:orderId/appeal';

/** The route of an order's appeal screen. */
export const orderAppealPath = (orderId: string) => `/order/${encodeURIComponent(orderId)}/appeal`;
