/**
 * `/order/{orderId}/payment`: P2P card details with tap-to-copy, the 30-minute countdown with its
 * 5-minute warning, and 'I have paid' (spec sections 2, 4, 8, 9). Polled every 5 s; a rejected or
 * cancelled order alerts and goes to /; when the time runs out the order is cancelled.
 */
import { Button, List, Section } from '@telegram-apps/telegram-ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';
import type { CardRequisites, OrderDetails } from '../../../shared/api';
import { formatCardNumber } from '../../../shared/cards';
import {
  P2P_PAYMENT_WARNING_MS,
  P2P_PAYMENT_WINDOW_MS,
  POLL_INTERVALS_MS,
} from '../../../shared/limits';
import { orderScreenPath } from '../../../shared/order-status';
import { cancelOrder, confirmPayment } from '../../api/orders';
import { CopyRow } from '../../components/copy-row';
import { CountdownBanner } from '../../components/countdown-banner';
import { Loading, OrderNotFound } from '../../components/order-not-found';
import { Screen } from '../../components/screen';
import { useEnvironment } from '../../environment-context';
import { formatDuration, useCountdown } from '../../hooks/use-countdown';
import { useOrder } from '../../hooks/use-order';
import { formatFiat } from '../../format';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticTap, showAlert } from '../../telegram/actions';
import { OrderAmounts } from './order-summary-section';

/** The deadline: `expiresAt`, or 30 minutes from `requisitesReadyAt` when it is absent. */
export function paymentDeadline(order: OrderDetails, windowMs: number): string | null {
  if (order.expiresAt !== null) return order.expiresAt;
  if (order.requisitesReadyAt === null) return null;
  return new Date(Date.parse(order.requisitesReadyAt) + windowMs).toISOString();
}

export function Payment({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  const [, navigate] = useLocation();
  const passed = useHistoryState<{ order?: OrderDetails } | null>()?.order;
  const leaving = useRef(false);
  const loaded = useRef(false);
  const [paying, setPaying] = useState(false);

  const leave = useCallback(
    (message: string) => {
      if (leaving.current) return;
      leaving.current = true;
      void showAlert(message, inTelegram).then(() => navigate('/', { replace: true }));
    },
    [inTelegram, navigate],
  );
  const onOrder = useCallback(
    (order: OrderDetails) => {
      // Spec section 8: an order already cancelled or rejected when the screen loads alerts
      // orderRejected; one cancelled while the customer watches says it was cancelled.
      const onLoad = !loaded.current;
      loaded.current = true;
      if (order.status === 'REJECTED' || (onLoad && order.status === 'CANCELLED'))
        leave(LL.errors.orderRejected());
      else if (order.status === 'CANCELLED') leave(LL.errors.orderCancelled());
      else if (order.status === 'COMPLETED')
        navigate(orderScreenPath(orderId, 'complete'), { replace: true });
    },
    [leave, LL, navigate, orderId],
  );
  const view = useOrder(orderId, POLL_INTERVALS_MS.payment, { onOrder });
  const order = view.order ?? (passed?.id === orderId ? passed : undefined);
  const countdown = useCountdown(
    order === undefined ? null : paymentDeadline(order, P2P_PAYMENT_WINDOW_MS),
    view.offsetMs,
  );

  // Time is up: cancel the order (the server's sweeper would too), tell the customer, go home.
  useEffect(() => {
    if (!countdown.expired || leaving.current || order?.status !== 'REQUISITES_READY') return;
    leaving.current = true;
    void cancelOrder(orderId)
      .catch((error: unknown) => console.warn('cancel after expiry failed', error))
      .then(() => showAlert(LL.errors.paymentTimeExpired(), inTelegram))
      .then(() => navigate('/', { replace: true }));
  }, [countdown.expired, order?.status, orderId, LL, inTelegram, navigate]);

  const iHavePaid = async () => {
    hapticTap();
    setPaying(true);
    try {
      await confirmPayment(orderId);
    } catch (error) {
      // Spec section 4: on the P2P screen the receipt comes next even when this call failed.
      console.warn('payment-confirm failed; going on to the receipt', error);
    }
    navigate(orderScreenPath(orderId, 'upload-receipt'));
  };

  if (view.notFound) {
    return (
      <Screen testId="payment" header={{ title: LL.payment.title(), back: '/my-orders' }}>
        <OrderNotFound />
      </Screen>
    );
  }
  const requisites = order?.requisites as CardRequisites | null | undefined;
  const warning =
    countdown.remainingMs !== undefined && countdown.remainingMs < P2P_PAYMENT_WARNING_MS;

  return (
    <Screen testId="payment" header={{ title: LL.payment.title(), back: '/my-orders' }}>
      {order === undefined || requisites === null || requisites === undefined ? (
        <Loading />
      ) : (
        <>
          {countdown.remainingMs !== undefined && (
            <CountdownBanner
              text={LL.payment.timeLeft({ time: formatDuration(countdown.remainingMs, false) })}
              warning={warning ? LL.payment.timeWarning() : null}
              note={LL.payment.expiryNote()}
            />
          )}
          <List>
            <OrderAmounts order={order} />
            <Section>
              <CopyRow label={LL.payment.bank()} value={requisites.bankName} testId="req-bank" />
              <CopyRow
                label={LL.payment.cardNumber()}
                value={formatCardNumber(requisites.cardNumber)}
                copyValue={requisites.cardNumber}
                testId="req-card"
              />
              <CopyRow
                label={LL.payment.cardHolder()}
                value={requisites.cardHolder}
                testId="req-holder"
              />
              {requisites.phone !== undefined && requisites.phone !== '' && (
                <CopyRow label={LL.payment.phone()} value={requisites.phone} testId="req-phone" />
              )}
              {requisites.comment !== undefined && requisites.comment !== '' && (
                <CopyRow
                  label={LL.payment.comment()}
                  value={requisites.comment}
                  testId="req-comment"
                />
              )}
              <CopyRow
                label={LL.payment.amount()}
                value={formatFiat(order.totalRub, order.currency, language)}
                copyValue={String(order.totalRub)}
                testId="req-amount"
              />
            </Section>
          </List>
          <div className="screen__actions">
            <Button
              size="l"
              stretched
              loading={paying}
              onClick={() => void iHavePaid()}
              data-testid="i-have-paid"
            >
              {LL.payment.iHavePaid()}
            </Button>
          </div>
        </>
      )}
    </Screen>
  );
}
