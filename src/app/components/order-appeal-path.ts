/**
 * Where an order's appeal screen is, on its own: the router reads it from the first chunk, which
 * the appeal's components (loaded with the order screens) must not join.
 */

/** The appeal screen's route pattern, for the router. */
export const ORDER_APPEAL_ROUTE = '/order/:orderId/appeal';

/** The route of an order's appeal screen. */
export const orderAppealPath = (orderId: string) => `/order/${encodeURIComponent(orderId)}/appeal`;
