/**
 * `/order/{orderId}/waiting`: waiting for requisites. When and how often
 * it asks, and where it goes, is the table's; the elapsed counter starts from
 * `waiting_start_{orderId}` in local storage so it survives a reload, and is forgotten once a rule
 * sends the screen on. Below it, the time left before the server cancels the order for want of an
 * operator's answer (REQUISITES_TIMEOUT, stored as the order's deadline). Cancel (after a
 * confirmation) and support with the order's number.
 */
import { useState } from 'react';
import { MyOrdersButton } from '../../components/my-orders-button';
import { CancelOrderButton } from '../../features/order/cancel-order-button';
import { OperatorWait } from '../../features/order/operator-wait';
import { OrderNotFoundScreen } from '../../features/order/order-not-found';
import { OrderSupportButton } from '../../features/order/order-support-button';
import { Screen } from '../../components/screen';
import { useOrderCancel } from '../../features/order/use-order-cancel';
import { useOrderScreen } from '../../features/order/use-order-screen';
import { useI18nContext } from '../../i18n/language';
import { clearWaitingStart, waitingStart } from '../../storage';

export function Waiting({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const [since] = useState(() => waitingStart(orderId));
  const view = useOrderScreen('waiting', orderId, {
    onRuleLeave: () => clearWaitingStart(orderId),
  });
  const cancel = useOrderCancel(orderId, view.order, view, {
    onCancelled: () => clearWaitingStart(orderId),
  });

  if (view.notFound) return <OrderNotFoundScreen testId="waiting" orderId={orderId} />;
  return (
    <Screen testId="waiting" header={{ title: LL.waiting.title(), back: '/my-orders' }}>
      <>
        <OperatorWait
          header={LL.waiting.body()}
          hint={LL.waiting.hint()}
          since={since}
          deadline={view.order?.status === 'WAITING_REQUISITES' ? view.order.expiresAt : null}
          offsetMs={view.offsetMs}
        />
        <div className="screen__actions">
          <MyOrdersButton />
          <CancelOrderButton cancel={cancel} />
          <OrderSupportButton orderId={orderId} />
        </div>
      </>
    </Screen>
  );
}
