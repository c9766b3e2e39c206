/**
 * `/order/{orderId}/payment`: P2P card details with tap-to-copy, the 30-minute countdown with its
 * 5-minute warning, and 'I have paid' after a confirmation of what counts as paid (spec sections
 * 2, 4, 8, 9; issue 10). Polling and redirects are the
 * table's; when the time runs out the order is cancelled, the customer told, and the app goes to /.
 * Cancel (after a confirmation) while the order waits for payment; support with its number.
 */
import { List, Section } from '@telegram-apps/telegram-ui';
import { useEffect, useState } from 'react';
import { useHistoryState } from 'wouter/use-browser-location';
import type { CardRequisites, OrderDetails } from '../../../shared/api';
import { formatCardNumber } from '../../../shared/cards';
import { cancelOrder, confirmPayment } from '../../api/orders';
import { CancelOrderButton } from '../../components/cancel-order-button';
import { CopyRow } from '../../components/copy-row';
import { CountdownBanner } from '../../components/countdown-banner';
import { Loading } from '../../components/loading';
import { OrderAmounts } from '../../components/order-amounts';
import { OrderNotFound } from '../../components/order-not-found';
import { OrderSupportButton } from '../../components/order-support-button';
import { PrimaryAction } from '../../components/primary-action';
import { Screen } from '../../components/screen';
import { formatDuration } from '../../hooks/use-countdown';
import { useOrderCancel } from '../../hooks/use-order-cancel';
import { useOrderScreen } from '../../hooks/use-order-screen';
import { usePaidConfirm } from '../../hooks/use-paid-confirm';
import { usePaymentCountdown } from '../../hooks/use-payment-countdown';
import { formatFiat } from '../../../shared/format';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticTap } from '../../telegram/actions';

export function Payment({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  // The waiting screen hands the order over, so the requisites show before the first answer.
  const passed = useHistoryState<{ order?: OrderDetails } | null>()?.order;
  const [paying, setPaying] = useState(false);
  const view = useOrderScreen('payment', orderId);
  const { leave } = view;
  const order = view.order ?? (passed?.id === orderId ? passed : undefined);
  const countdown = usePaymentCountdown(order, 'P2P', view.offsetMs);
  const cancel = useOrderCancel(orderId, order, view);
  const confirmPaid = usePaidConfirm(order);

  // Time is up: cancel the order (the server's sweeper would too), tell the customer, go home.
  useEffect(() => {
    if (!countdown.expired || order?.status !== 'REQUISITES_READY') return;
    leave('/', {
      before: () =>
        cancelOrder(orderId).catch((error: unknown) =>
          console.warn('cancel after expiry failed', error),
        ),
      alert: LL.errors.paymentTimeExpired(),
    });
  }, [countdown.expired, order?.status, orderId, LL, leave]);

  const iHavePaid = async () => {
    hapticTap();
    if (paying || !(await confirmPaid())) return;
    setPaying(true);
    try {
      await confirmPayment(orderId);
    } catch (error) {
      // Spec section 4: on the P2P screen the receipt comes next even when this call failed.
      console.warn('payment-confirm failed; going on to the receipt', error);
    }
    leave('upload-receipt', { replace: false });
  };

  if (view.notFound) {
    return (
      <Screen testId="payment" header={{ title: LL.payment.title(), back: '/my-orders' }}>
        <OrderNotFound />
        <div className="screen__actions">
          <OrderSupportButton orderId={orderId} />
        </div>
      </Screen>
    );
  }
  const requisites = order?.requisites as CardRequisites | null | undefined;
  const warning = countdown.warning;

  return (
    <Screen testId="payment" header={{ title: LL.payment.title(), back: '/my-orders' }}>
      {order === undefined || requisites === null || requisites === undefined ? (
        <>
          <Loading />
          <div className="screen__actions">
            <OrderSupportButton orderId={orderId} />
          </div>
        </>
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
            <PrimaryAction
              text={LL.payment.iHavePaid()}
              loading={paying}
              disabled={cancel.busy || countdown.expired}
              onClick={() => void iHavePaid()}
              testId="i-have-paid"
            />
            <CancelOrderButton cancel={cancel} disabled={paying} />
            <OrderSupportButton orderId={orderId} />
          </div>
        </>
      )}
    </Screen>
  );
}
