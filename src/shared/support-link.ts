/**
 * The support chat's link for one order, so that help is where it is needed: the configured
 * `SUPPORT_URL` (a `https://t.me/` link to a user or bot) with the customer's first line already
 * typed. t.me takes that line as `?text=`, percent-encoded (not `+` for a space, which some
 * Telegram clients show as it is).
 */

/** How much of an order's id the customer sees as its number ("Order #1a2b3c4d"). */
export const ORDER_NUMBER_LENGTH = 8;

/** The number the customer sees for an order: the first characters of its id. */
export function orderNumber(orderId: string): string {
  return orderId.slice(0, ORDER_NUMBER_LENGTH);
}

/**
 * `supportUrl` with `text` prefilled: `<supportUrl>?text=<encoded text>`, or `&text=` when the
 * link already has a query. An existing `text` parameter is replaced.
 */
export function supportChatLink(supportUrl: string, text: string): string {
  const hashAt = supportUrl.indexOf('#');
  const base = hashAt === -1 ? supportUrl : supportUrl.slice(0, hashAt);
  const [path = '', query] = base.split('?', 2);
  const kept = (query ?? '')
    .split('&')
    .filter((part) => part !== '' && part.split('=')[0] !== 'text');
  return `${path}?${[...kept, `text=${encodeURIComponent(text)}`].join('&')}`;
}

/**
 * The support link for an order: the chat opens with `message` (the customer's language's
 * "Order #<number>: ", given the order's number) already typed.
 */
export function orderSupportLink(
  supportUrl: string,
  orderId: string,
  message: (number: string) => string,
): string {
  return supportChatLink(supportUrl, message(orderNumber(orderId)));
}
