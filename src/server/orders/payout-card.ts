/** The card a sell pays out to (`orders.payout_card`, JSON), written once at creation. */
import { compactCardNumber } from '../../shared/cards';
import { maskCardNumber } from '../../shared/saved-details';
import type { CreateOrderPayload } from '../../shared/schemas/create-order';
import type { CardRequisites } from '../../shared/api';

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

export function readPayoutCard(stored: string | null): CardRequisites | null {
  return stored === null ? null : (JSON.parse(stored) as CardRequisites);
}

/** Masked: whoever holds the order's link sees the status answer. */
export function shownPayoutCard(
  stored: string | null,
): { readonly maskedNumber: string; readonly bankName: string } | null {
  const card = readPayoutCard(stored);
  return card === null
    ? null
    : { maskedNumber: maskCardNumber(card.cardNumber), bankName: card.bankName };
}
