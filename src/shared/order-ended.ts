/**
 * What the customer is told about an order that ended without completing: why it ended
 * (the cancellation's reason, the rejection's catalogue reason and text) and what happens to money
 * already paid or crypto already sent. One wording for the app's alerts, notices and details
 * screen and for the bot's messages, in the customer's language.
 */
import type { OrderDetails } from './api';
import type { AppealDecision } from './appeals';
import type { RejectReason } from './reject-reasons';
import { orderNumber } from './support-link';

/** The words these texts are made of: the part of the dictionary (LL) they read. */
export interface EndedWords {
  readonly rejectReasons: Readonly<Record<RejectReason, () => string>>;
  readonly orderEnded: {
    readonly expired: (params: { id: string }) => string;
    readonly noOperator: (params: { id: string }) => string;
    readonly customer: (params: { id: string }) => string;
    readonly rejected: (params: { id: string; reason: string }) => string;
    readonly moneyBuy: () => string;
    readonly moneySell: () => string;
    readonly nothingCharged: () => string;
  };
  readonly errors: { readonly orderCancelled: () => string };
  readonly appeals: { readonly decisions: Readonly<Record<AppealDecision, () => string>> };
}

export type Ended = Pick<
  OrderDetails,
  'id' | 'type' | 'status' | 'cancelReason' | 'rejectReason' | 'rejectReasonCode'
> & {
  /** The order's appeal: a decided one says what became of the money instead. */
  readonly appeal: Pick<NonNullable<OrderDetails['appeal']>, 'decision'> | null;
};

/** A rejection's reason: the catalogue's text, the operator's words, or both. */
export function rejectReasonText(order: Ended, LL: EndedWords): string | null {
  const code = order.rejectReasonCode;
  const text = order.rejectReason;
  if (code === null || code === 'other')
    return text ?? (code === null ? null : LL.rejectReasons.other());
  const reason = LL.rejectReasons[code]();
  return text === null ? reason : `${reason}: ${text}`;
}

/**
 * What happens to the money: what a senior operator decided on the order's appeal (the money
 * returned, the rejection upheld); nothing was charged when no operator answered; else do not pay
 * or send, and write to support about money already paid or sent.
 */
export function moneyNote(order: Ended, LL: EndedWords): string {
  const decided = order.appeal?.decision ?? null;
  if (decided !== null) return LL.appeals.decisions[decided]();
  if (order.status === 'CANCELLED' && order.cancelReason === 'no_operator') {
    return LL.orderEnded.nothingCharged();
  }
  return order.type === 'BUY' ? LL.orderEnded.moneyBuy() : LL.orderEnded.moneySell();
}

/** Why the order ended, naming it; null for an order that has not ended. */
export function endedHeadline(order: Ended, LL: EndedWords): string | null {
  const id = orderNumber(order.id);
  if (order.status === 'REJECTED') {
    return LL.orderEnded.rejected({
      id,
      reason: rejectReasonText(order, LL) ?? LL.rejectReasons.other(),
    });
  }
  if (order.status !== 'CANCELLED') return null;
  if (order.cancelReason === 'expired') return LL.orderEnded.expired({ id });
  if (order.cancelReason === 'no_operator') return LL.orderEnded.noOperator({ id });
  return LL.orderEnded.customer({ id });
}

/**
 * The alert of a screen that leaves an order that ended: why, then on its own line what happens
 * to the money.
 */
export function endedAlertText(order: Ended, LL: EndedWords): string {
  return [endedHeadline(order, LL) ?? LL.errors.orderCancelled(), moneyNote(order, LL)].join('\n');
}
