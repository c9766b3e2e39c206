/**
 * The notice a screen shows when its countdown runs out, in the wording of
 * src/shared/order-ended.ts (what happens to money already paid or sent).
 */
import { moneyNote, type Ended } from '../../../shared/order-ended';
import { useI18nContext } from '../../i18n/language';
import { OrderSupportButton } from './order-support-button';
import { NoteText } from './note-text';

/**
 * Shown in place of what to pay or where to send once the countdown ran out, until the server's
 * answer moves the screen on: the order is being cancelled, and what to do about money.
 */
export function TimeUpNotice({ order }: { readonly order: Ended }) {
  const { LL } = useI18nContext();
  return (
    <div className="warning-box warning-box--danger" role="alert" data-testid="time-up">
      <NoteText heading={LL.orderEnded.timeUp()} text={moneyNote(order, LL)} />
    </div>
  );
}

/** A screen's whole body once its countdown ran out: the notice, and support as the way on. */
export function TimeUpWithSupport({
  order,
  orderId,
}: {
  readonly order: Ended;
  readonly orderId: string;
}) {
  return (
    <>
      <TimeUpNotice order={order} />
      <div className="screen__actions">
        <OrderSupportButton orderId={orderId} mode="bezeled" />
      </div>
    </>
  );
}
