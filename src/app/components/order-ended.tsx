/**
 * What the customer is told about an order that ended without completing (issue 10): why it ended
 * (the cancellation's reason, the rejection's catalogue reason and text) and what happens to money
 * already paid or crypto already sent. One wording for the alert a screen shows as it leaves, the
 * notice a screen shows when its countdown runs out, and the details screen.
 */
import type { TranslationFunctions } from '../../../i18n/i18n-types';
import type { OrderDetails } from '../../shared/api';
import { orderNumber } from '../../shared/support-link';
import { useI18nContext } from '../i18n/language';

type Ended = Pick<
  OrderDetails,
  'id' | 'type' | 'status' | 'cancelReason' | 'rejectReason' | 'rejectReasonCode'
>;

/** A rejection's reason: the catalogue's text, the operator's words, or both. */
export function rejectReasonText(order: Ended, LL: TranslationFunctions): string | null {
  const code = order.rejectReasonCode;
  const text = order.rejectReason;
  if (code === null || code === 'other')
    return text ?? (code === null ? null : LL.rejectReasons.other());
  const reason = LL.rejectReasons[code]();
  return text === null ? reason : `${reason}: ${text}`;
}

/** What happens to the money: nothing was charged when no operator answered, else do not pay or send. */
export function moneyNote(order: Ended, LL: TranslationFunctions): string {
  if (order.status === 'CANCELLED' && order.cancelReason === 'no_operator') {
    return LL.orderEnded.nothingCharged();
  }
  return order.type === 'BUY' ? LL.orderEnded.moneyBuy() : LL.orderEnded.moneySell();
}

/** Why the order ended, naming it; null for an order that has not ended. */
export function endedHeadline(order: Ended, LL: TranslationFunctions): string | null {
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
export function endedAlertText(order: Ended, LL: TranslationFunctions): string {
  return [endedHeadline(order, LL) ?? LL.errors.orderCancelled(), moneyNote(order, LL)].join('\n');
}

/**
 * Shown in place of what to pay or where to send once the countdown ran out, until the server's
 * answer moves the screen on: the order is being cancelled, and what to do about money.
 */
export function TimeUpNotice({ order }: { readonly order: Ended }) {
  const { LL } = useI18nContext();
  return (
    <div className="warning-box warning-box--danger" role="alert" data-testid="time-up">
      <strong>{LL.orderEnded.timeUp()}</strong> {moneyNote(order, LL)}
    </div>
  );
}
