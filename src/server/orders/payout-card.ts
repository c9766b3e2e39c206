/**
 * The card a sell pays out to, as the order keeps it (`orders.payout_card`, JSON): written once
 * when the sell is created, read by the console, the bot's facts, the status answer (masked) and
 * the saved-details call that keeps it for the customer's next sell.
 */
import { compactCardNumber } from '../../shared/cards';
import { maskCardNumber } from '../../shared/saved-details';
import type { CreateOrderPayload } from '../../shared/schemas/create-order';
import type { CardRequisites } from '../../shared/api';

/** What `orders.payout_card` holds for a sell; null for a buy. */
export function storedPayoutCard(payload: CreateOrderPayload): string | null {
  if (payload.type !== 'SELL') return null;
  const card: CardRequisites = {
    cardNumber: compactCardNumber(payload.cardNumber),
    cardHolder: payload.cardHolder.toUpperCase(),
    bankName: payload.bankName,
    phone: payload.phone,
    comment: payload.comment,
  };
  return JSON.stringify(card);
}

/** The card `orders.payout_card` holds, or null for a buy. */
export function readPayoutCard(stored: string | null): CardRequisites | null {
  return stored === null ? null : (JSON.parse(stored) as CardRequisites);
}

/** The card as the status answer shows it to whoever holds the order's link. */
export function shownPayoutCard(
  stored: string | null,
): { readonly maskedNumber: string; readonly bankName: string } | null {
  const card = readPayoutCard(stored);
  return card === null
    ? null
    : { maskedNumber: maskCardNumber(card.cardNumber), bankName: card.bankName };
}
