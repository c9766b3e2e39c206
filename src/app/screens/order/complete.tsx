/**
 * `/order/{orderId}/complete`: progress and result. The four in-progress
 * statuses have their labels; COMPLETED shows success with the electronic receipt
 * (`outgoingTxHash`, copyable). Polling, the redirect of a rejected order and the success haptic
 * are the table's.
 */
import { Button, List, Placeholder, Section, Spinner } from '@telegram-apps/telegram-ui';
import { useLocation } from 'wouter';
import { orderScreenPath } from '../../../shared/order-screens';
import type { OrderDetails } from '../../../shared/api';
import type { OrderStatus } from '../../../shared/order-status';
import { MyOrdersButton } from '../../components/my-orders-button';
import { Loading } from '../../components/loading';
import { OrderAmounts } from '../../features/order/order-amounts';
import { OrderNotFoundScreen } from '../../features/order/order-not-found';
import { OrderSupportButton } from '../../features/order/order-support-button';
import { RepeatOrderButton } from '../../features/order/repeat-order-button';
import { SaveCardOffer, SaveWalletOffer } from '../../features/saved-details/save-offer';
import { Screen } from '../../components/screen';
import { ChainCheckRow } from '../../features/order/chain-check-row';
import { ElectronicReceiptRow } from '../../features/order/tx-hash-row';
import { useOrderScreen } from '../../features/order/use-order-screen';
import { useI18nContext } from '../../i18n/language';
import { useHomeScreenOffer } from '../../telegram/home-screen';

/** The in-progress statuses this screen shows, in the order an order passes them. */
const PROGRESS: readonly OrderStatus[] = [
  'RECEIPT_UPLOADED',
  'PAYMENT_CONFIRMED',
  'TX_PENDING',
  'TX_CONFIRMED',
];

export function Complete({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const [, navigate] = useLocation();
  const { order, notFound } = useOrderScreen('complete', orderId);

  if (notFound) return <OrderNotFoundScreen testId="complete" orderId={orderId} />;
  let body;
  if (order === undefined) body = <Loading />;
  else if (order.status === 'COMPLETED') body = <Completed order={order} />;
  else body = <InProgress order={order} />;

  return (
    <Screen testId="complete" header={{ title: LL.complete.title(), back: '/my-orders' }}>
      <div data-status={order?.status}>{body}</div>
      <div className="screen__actions">
        {order?.status === 'COMPLETED' && <RepeatOrderButton order={order} />}
        <MyOrdersButton />
        {order !== undefined && (
          <Button
            size="l"
            stretched
            mode="plain"
            onClick={() => navigate(orderScreenPath(orderId, 'details'))}
          >
            {LL.details.title()}
          </Button>
        )}
        <OrderSupportButton orderId={orderId} />
      </div>
    </Screen>
  );
}

/**
 * COMPLETED: success, the amounts, the electronic receipt and what the chain shows of it, the
 * offer to keep the order's wallet or card for the next one, and inside Telegram, after the first
 * completed order, Telegram's offer to add the app to the home screen.
 */
function Completed({ order }: { readonly order: OrderDetails }) {
  const { LL } = useI18nContext();
  useHomeScreenOffer(true);
  return (
    <>
      <Placeholder header={LL.complete.success()}>
        <span className="placeholder-icon placeholder-icon--success" aria-hidden="true">
          ✓
        </span>
      </Placeholder>
      <List>
        <OrderAmounts order={order} />
        {order.outgoingTxHash !== null && (
          <Section>
            <ElectronicReceiptRow order={order} />
          </Section>
        )}
        <ChainCheckRow check={order.chainCheck} of="payout" />
        <SaveWalletOffer order={order} />
        <SaveCardOffer order={order} />
      </List>
    </>
  );
}

/**
 * Still in progress: the current step's label, and the steps of the order's side (a buy's first
 * two, a sell's last two) as done, current or next.
 */
function InProgress({ order }: { readonly order: OrderDetails }) {
  const { LL } = useI18nContext();
  const labels: Record<string, string> = {
    RECEIPT_UPLOADED: LL.complete.checkingReceipt(),
    PAYMENT_CONFIRMED: LL.complete.sendingCrypto(),
    TX_PENDING: LL.complete.checkingTransaction(),
    TX_CONFIRMED: LL.complete.sendingFunds(),
  };
  const step = PROGRESS.indexOf(order.status);
  return (
    <>
      <Placeholder
        header={
          step === -1 ? LL.complete.waiting() : (labels[order.status] ?? LL.complete.waiting())
        }
        description={LL.complete.processingTime()}
      >
        <Spinner size="l" />
      </Placeholder>
      <ol className="progress-steps" aria-label={LL.complete.title()}>
        {(order.type === 'SELL' ? PROGRESS.slice(2) : PROGRESS.slice(0, 2)).map((status) => {
          const index = PROGRESS.indexOf(status);
          const state = index < step ? 'done' : index === step ? 'current' : 'next';
          return (
            <li
              key={status}
              className={`progress-steps__item progress-steps__item--${state}`}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              {labels[status]}
            </li>
          );
        })}
      </ol>
      <List>
        <OrderAmounts order={order} />
      </List>
    </>
  );
}
