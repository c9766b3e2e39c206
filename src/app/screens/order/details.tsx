/**
 * `/order/{orderId}/details`: the read-only order: a rejected order shows its
 * reason (the catalogue's, in the customer's language, and the operator's words); a cancelled one
 * why; both say what happens to money already paid or sent and offer support first.
 * Amounts speak in the order's tense; hashes open on the network's explorer. A missing order
 * shows 'Order not found'. Asked once; the table says a failed call alerts. An ended order can
 * be repeated from here.
 */
import { Cell, List, Section } from '@telegram-apps/telegram-ui';
import type { OrderDetails } from '../../../shared/api';
import { NETWORKS } from '../../../shared/networks';
import { STATUS_LABEL_KEYS } from '../../../shared/order-status';
import { CopyRow } from '../../components/copy-row';
import { Loading } from '../../components/loading';
import { OrderAmounts } from '../../features/order/order-amounts';
import { NoteText } from '../../features/order/note-text';
import { moneyNote, rejectReasonText } from '../../../shared/order-ended';
import { OrderNotFoundScreen } from '../../features/order/order-not-found';
import { OrderSupportButton } from '../../features/order/order-support-button';
import { RepeatOrderButton } from '../../features/order/repeat-order-button';
import { SaveWalletOffer } from '../../features/saved-details/save-offer';
import { Screen } from '../../components/screen';
import { ElectronicReceiptRow, TxHashRow } from '../../features/order/tx-hash-row';
import { useDateTime } from '../../hooks/use-date-time';
import { useOrderScreen } from '../../features/order/use-order-screen';
import { useI18nContext } from '../../i18n/language';
import { useHomeScreenOffer } from '../../telegram/home-screen';

/**
 * Where an appeal's refund went: a buy's requisites or reference as the senior operator gave them,
 * a sell's transfer back, which opens on the block explorer. Nothing without a refund.
 */
function AppealRefund({ order }: { readonly order: OrderDetails }) {
  const { LL } = useI18nContext();
  const appeal = order.appeal;
  if (appeal?.decision !== 'refund') return null;
  return (
    <Section header={LL.appeals.refund()}>
      <TxHashRow
        label={LL.appeals.refundTx()}
        hash={appeal.refundTxHash}
        network={order.network}
        testId="refund-tx"
      />
      {appeal.refundDetails !== null && (
        <Cell subhead={LL.appeals.refundDetails()} multiline data-testid="refund-details">
          {appeal.refundDetails}
        </Cell>
      )}
    </Section>
  );
}

function DetailsBody({ order }: { readonly order: OrderDetails }) {
  const { LL } = useI18nContext();
  const date = useDateTime();
  const ended = order.status === 'CANCELLED' || order.status === 'REJECTED';
  const rejectReason = order.status === 'REJECTED' ? rejectReasonText(order, LL) : null;
  return (
    <>
      {ended && (
        <>
          {/* An appeal's own note (beside support) says what happens next, or what was decided. */}
          {order.appeal === null && (
            <div className="warning-box" role="note" data-testid="money-note">
              <NoteText heading={LL.details.whatNext()} text={moneyNote(order, LL)} />
            </div>
          )}
          <div className="screen__actions">
            <OrderSupportButton orderId={order.id} mode="bezeled" />
          </div>
        </>
      )}
      <List>
        <Section>
          <Cell
            subhead={LL.details.status()}
            data-testid="detail-status"
            data-status={order.status}
          >
            {LL.statusLabels[STATUS_LABEL_KEYS[order.status]]()}
          </Cell>
          {order.status === 'CANCELLED' && order.cancelReason !== null && (
            <Cell subhead={LL.details.cancelReason()} multiline data-testid="cancel-reason">
              {LL.cancelReasons[order.cancelReason]()}
            </Cell>
          )}
          {rejectReason !== null && (
            <Cell subhead={LL.details.rejectReason()} multiline data-testid="reject-reason">
              {rejectReason}
            </Cell>
          )}
          <Cell subhead={LL.details.type()}>
            {order.type === 'BUY' ? LL.myOrders.buy() : LL.myOrders.sell()}
          </Cell>
          <Cell subhead={LL.details.paymentMethod()}>
            {LL.paymentMethods[order.paymentMethod]()}
          </Cell>
          <Cell subhead={LL.details.network()}>{NETWORKS[order.network].fullName}</Cell>
          <Cell subhead={LL.details.createdAt()}>{date(order.createdAt)}</Cell>
        </Section>
        <OrderAmounts order={order} />
        {(order.walletAddress !== null ||
          order.txHash !== null ||
          order.outgoingTxHash !== null) && (
          <Section>
            {order.walletAddress !== null && (
              <CopyRow label={LL.buyForm.walletAddress()} value={order.walletAddress} />
            )}
            <TxHashRow
              label={LL.sendCrypto.txHash()}
              hash={order.txHash}
              network={order.network}
              testId="incoming-tx"
            />
            <ElectronicReceiptRow order={order} />
          </Section>
        )}
        <AppealRefund order={order} />
        {order.status === 'COMPLETED' && <SaveWalletOffer order={order} />}
      </List>
    </>
  );
}

export function Details({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const { order, notFound, failed } = useOrderScreen('details', orderId);
  const ended = order?.status === 'CANCELLED' || order?.status === 'REJECTED';
  // A completed order opened from the bot's message lands here, not on the done screen.
  useHomeScreenOffer(order?.status === 'COMPLETED');

  if (notFound) return <OrderNotFoundScreen testId="details" orderId={orderId} />;
  let body;
  if (failed) body = null;
  else if (order === undefined) body = <Loading />;
  else body = <DetailsBody order={order} />;

  return (
    <Screen testId="details" header={{ title: LL.details.title(), back: '/my-orders' }}>
      {body}
      <div className="screen__actions">
        {order !== undefined && <RepeatOrderButton order={order} />}
        {!ended && <OrderSupportButton orderId={orderId} />}
      </div>
    </Screen>
  );
}
