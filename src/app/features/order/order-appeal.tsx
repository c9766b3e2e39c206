/**
 * The appeal on every order screen, beside help: where the shared rule takes one, the way to
 * open it; once open, what happens next ("under review"); once decided, the decision's standard
 * wording in the customer's language and the senior operator's own words.
 */
import { ScreenButton } from '../../components/screen-action-button';
import type { AppealView, OrderDetails } from '../../../shared/api';
import { appealRefusal } from '../../../shared/appeals';
import { isFinalStatus, type OrderStatus } from '../../../shared/order-status';
import type { ErrorCode } from '../../../shared/errors';
import { useSeenOrder } from './use-seen-order';
import { useI18nContext } from '../../i18n/language';
import { orderAppealPath } from '../../order-side-paths';
import { useOpenFromHere, type SideButtonProps } from './order-chat-button';
import { NoteText } from './note-text';

/** Why the customer may not open an appeal on the order as the status answer shows it, or null. */
export function orderAppealRefusal(order: OrderDetails): ErrorCode | null {
  return appealRefusal(
    {
      status: order.status,
      type: order.type,
      expiresAt: order.expiresAt === null ? null : Date.parse(order.expiresAt),
      chainCheckState: order.chainCheck?.state ?? null,
      appeal: order.appeal?.state ?? null,
    },
    // The server's clock at the answer: the screen's next poll moves it on.
    Date.parse(order.serverTime),
  );
}

/**
 * The appeal's state: under review (an order still open is told its deadline is held; an ended
 * one has none), or its decision with the senior operator's words.
 */
export function AppealNote({
  appeal,
  status,
}: {
  readonly appeal: AppealView;
  readonly status: OrderStatus;
}) {
  const { LL } = useI18nContext();
  if (appeal.state === 'open' || appeal.decision === null) {
    const text = isFinalStatus(status)
      ? LL.appeals.underReviewEndedText()
      : LL.appeals.underReviewText();
    return (
      <div className="warning-box" role="note" data-testid="appeal-under-review">
        <NoteText heading={LL.appeals.underReview()} text={text} />
      </div>
    );
  }
  return (
    <div
      className="warning-box"
      role="note"
      data-testid="appeal-decided"
      data-decision={appeal.decision}
    >
      <NoteText heading={LL.appeals.decided()} text={LL.appeals.decisions[appeal.decision]()} />
      {appeal.outcome !== null && appeal.outcome !== '' && (
        <p className="warning-box__text appeal-outcome" data-testid="appeal-outcome">
          {LL.appeals.outcome({ text: appeal.outcome })}
        </p>
      )}
    </div>
  );
}

/** The order's appeal as its screen last saw the order: its note, or the way to open one. */
export function OrderAppeal({ orderId, mode }: SideButtonProps) {
  const { LL } = useI18nContext();
  const open = useOpenFromHere();
  const order = useSeenOrder(orderId);
  if (order === undefined) return null;
  if (order.appeal !== null) return <AppealNote appeal={order.appeal} status={order.status} />;
  if (orderAppealRefusal(order) !== null) return null;
  return (
    <ScreenButton mode={mode} onClick={() => open(orderAppealPath(orderId))} testId="open-appeal">
      {LL.appeals.open()}
    </ScreenButton>
  );
}
