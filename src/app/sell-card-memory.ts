/**
 * The card a sell created in this tab pays out to, kept in memory only (never in storage, never
 * sent anywhere but to the server) so that the sell's screens can offer to save it: the order the
 * server answers does not carry the card back.
 */
export interface SellCard {
  readonly cardNumber: string;
  readonly cardHolder: string;
  readonly bankName: string;
}

const cards = new Map<string, SellCard>();

export function rememberSellCard(orderId: string, card: SellCard): void {
  cards.set(orderId, card);
}

/** The card of a sell created in this tab, or undefined (another device, a reload). */
export function sellCardOf(orderId: string): SellCard | undefined {
  return cards.get(orderId);
}
