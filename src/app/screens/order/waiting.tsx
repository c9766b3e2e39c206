/**
 * `/order/{orderId}/waiting`: waiting for requisites (spec sections 2 and 4). Polled once at
 * 0.5 s and then every 2 s; the elapsed counter starts from `waiting_start_{orderId}` in local
 * storage so it survives a reload.
 */
import { Button, Placeholder, Spinner, Text } from '@telegram-apps/telegram-ui';
import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import type { OrderDetails } from '../../../shared/api';
import { POLL_INTERVALS_MS } from '../../../shared/limits';
import { orderScreenPath } from '../../../shared/order-status';
import { OrderNotFound } from '../../components/order-not-found';
import { Screen } from '../../components/screen';
import { useEnvironment } from '../../environment-context';
import { formatDuration } from '../../hooks/use-countdown';
import { useOrder } from '../../hooks/use-order';
import { useI18nContext } from '../../i18n/language';
import { openSupportLink } from '../../telegram/actions';

export const waitingStartKey = (orderId: string) => `waiting_start_${orderId}`;

/** When this customer started waiting for this order, stored on first sight. */
function waitingStart(orderId: string): number {
  const key = waitingStartKey(orderId);
  const stored = Number(localStorage.getItem(key));
  if (Number.isFinite(stored) && stored > 0) return stored;
  const now = Date.now();
  localStorage.setItem(key, String(now));
  return now;
}

export function clearWaitingStart(orderId: string): void {
  localStorage.removeItem(waitingStartKey(orderId));
}

export function useElapsed(since: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, now - since);
}

export function Waiting({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const { supportUrl, inTelegram } = useEnvironment();
  const [, navigate] = useLocation();
  const [since] = useState(() => waitingStart(orderId));
  const elapsed = useElapsed(since);

  const onOrder = useCallback(
    (order: OrderDetails) => {
      if (order.status === 'REQUISITES_READY' && order.requisites !== null) {
        clearWaitingStart(orderId);
        if (order.paymentMethod === 'BANK_ACCOUNT') {
          navigate(orderScreenPath(orderId, 'bank-requisites'), { replace: true });
        } else {
          navigate(orderScreenPath(orderId, 'payment'), { replace: true, state: { order } });
        }
      } else if (order.status === 'REJECTED' || order.status === 'CANCELLED') {
        clearWaitingStart(orderId);
        navigate('/my-orders', { replace: true });
      }
    },
    [orderId, navigate],
  );
  const { notFound } = useOrder(orderId, POLL_INTERVALS_MS.waiting, {
    firstDelayMs: POLL_INTERVALS_MS.waitingFirst,
    onOrder,
  });

  return (
    <Screen testId="waiting" header={{ title: LL.waiting.title(), back: '/my-orders' }}>
      {notFound ? (
        <OrderNotFound />
      ) : (
        <>
          <Placeholder header={LL.waiting.body()} description={LL.waiting.hint()}>
            <Spinner size="l" />
          </Placeholder>
          <Text className="waiting__elapsed" data-testid="elapsed">
            {LL.waiting.elapsed({ time: formatDuration(elapsed, false) })}
          </Text>
          <div className="screen__actions">
            <Button size="l" stretched mode="bezeled" onClick={() => navigate('/my-orders')}>
              {LL.common.myOrders()}
            </Button>
            <Button
              size="l"
              stretched
              mode="plain"
              onClick={() => openSupportLink(supportUrl, inTelegram)}
            >
              {LL.common.contactSupport()}
            </Button>
          </div>
        </>
      )}
    </Screen>
  );
}
