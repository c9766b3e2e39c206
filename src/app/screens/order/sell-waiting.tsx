/**
 * `/order/{orderId}/sell-waiting`: the chain check of a sell (spec sections 2 and 4), polled
 * every 3 s: COMPLETED goes to complete; REJECTED or CANCELLED to my orders.
 */
import { Button, List, Placeholder, Section, Spinner } from '@telegram-apps/telegram-ui';
import { useCallback } from 'react';
import { useLocation } from 'wouter';
import type { OrderDetails } from '../../../shared/api';
import { POLL_INTERVALS_MS } from '../../../shared/limits';
import { orderScreenPath } from '../../../shared/order-status';
import { CopyRow } from '../../components/copy-row';
import { Loading, OrderNotFound } from '../../components/order-not-found';
import { Screen } from '../../components/screen';
import { useOrder } from '../../hooks/use-order';
import { useI18nContext } from '../../i18n/language';
import { OrderAmounts } from './order-summary-section';

export function SellWaiting({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const [, navigate] = useLocation();
  const onOrder = useCallback(
    (order: OrderDetails) => {
      if (order.status === 'COMPLETED')
        navigate(orderScreenPath(orderId, 'complete'), { replace: true });
      else if (order.status === 'REJECTED' || order.status === 'CANCELLED')
        navigate('/my-orders', { replace: true });
    },
    [navigate, orderId],
  );
  const { order, notFound } = useOrder(orderId, POLL_INTERVALS_MS.sellWaiting, { onOrder });

  return (
    <Screen testId="sell-waiting" header={{ title: LL.sellWaiting.title(), back: '/my-orders' }}>
      {notFound ? (
        <OrderNotFound />
      ) : order === undefined ? (
        <Loading />
      ) : (
        <>
          <Placeholder
            header={
              order.status === 'TX_CONFIRMED' ? LL.complete.sendingFunds() : LL.sellWaiting.title()
            }
            description={
              order.status === 'TX_CONFIRMED' ? LL.complete.processingTime() : LL.sellWaiting.body()
            }
          >
            <Spinner size="l" />
          </Placeholder>
          <List>
            <OrderAmounts order={order} />
            {order.txHash !== null && (
              <Section>
                <CopyRow label={LL.sendCrypto.txHash()} value={order.txHash} testId="tx-hash" />
              </Section>
            )}
          </List>
          <div className="screen__actions">
            <Button size="l" stretched mode="bezeled" onClick={() => navigate('/my-orders')}>
              {LL.common.myOrders()}
            </Button>
          </div>
        </>
      )}
    </Screen>
  );
}
