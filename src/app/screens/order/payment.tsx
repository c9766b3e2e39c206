/**
 * `/order/{orderId}/payment`: P2P card details with tap-to-copy, the 30-minute countdown with its
 * 5-minute warning, and 'I have paid' after a confirmation of what counts as paid. Polling and
 * redirects are the table's; when the time runs out the order is cancelled, the customer told,
 * and the app goes to /.
 * Cancel (after a confirmation) while the order waits for payment; support with its number.
 */
import { List, Section } from '@telegram-apps/telegram-ui';
import { useEffect, useState } from 'react';
import { useHistoryState } from 'wouter/use-browser-location';
import type { CardRequisites, OrderDetails } from '../../../shared/api';
import { formatCardNumber } from '../../../shared/cards';
import { formatFiat } from '../../../shared/format';
import { cancelOrder, confirmPayment } from '../../api/orders';
import { CopyRow } from '../../components/copy-row';
import { OrderAmounts } from '../../features/order/order-amounts';
import { OrderLoading } from '../../features/order/order-loading';
import { OrderNotFoundScreen } from '../../features/order/order-not-found';
import { PaymentActions } from '../../features/order/payment-actions';
import { PaymentCountdownBanner } from '../../features/order/payment-countdown-banner';
import { Screen } from '../../components/screen';
import { useOrderCancel } from '../../features/order/use-order-cancel';
import { useOrderScreen, type OrderScreenView } from '../../features/order/use-order-screen';
import { usePaidConfirm } from '../../features/order/use-paid-confirm';
import {
  usePaymentCountdown,
  type PaymentCountdown,
} from '../../features/order/use-payment-countdown';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticTap } from '../../telegram/actions';

export function Payment({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  // The waiting screen hands the order over, so the requisites show before the first answer.
  const passed = useHistoryState<{ order?: OrderDetails } | null>()?.order;
  const view = useOrderScreen('payment', orderId);
  const order = view.order ?? (passed?.id === orderId ? passed : undefined);
  const countdown = usePaymentCountdown(order, 'P2P', view.offsetMs);
  const cancel = useOrderCancel(orderId, order, view);
  useCancelWhenTimeUp(orderId, order, countdown, view.leave);
  const paid = useIHavePaid(orderId, order, view.leave);
  const header = { title: LL.payment.title(), back: '/my-orders' } as const;

  const requisites = order?.requisites as CardRequisites | null | undefined;
  if (view.notFound) return <OrderNotFoundScreen testId="payment" orderId={orderId} />;
  if (order === undefined || requisites === null || requisites === undefined) {
    return (
      <Screen testId="payment" header={header}>
        <OrderLoading orderId={orderId} />
      </Screen>
    );
  }
  return (
    <Screen testId="payment" header={header}>
      <PaymentCountdownBanner
        countdown={countdown}
        withHours={false}
        warning={LL.payment.timeWarning()}
      />
      <List>
        <OrderAmounts order={order} />
        <CardToPay order={order} requisites={requisites} />
      </List>
      <PaymentActions
        orderId={orderId}
        cancel={cancel}
        paying={paid.paying}
        disabled={countdown.expired}
        onPaid={() => void paid.run()}
      />
    </Screen>
  );
}

/** Time is up: cancel the order (the server's sweeper would too), tell the customer, go home. */
function useCancelWhenTimeUp(
  orderId: string,
  order: OrderDetails | undefined,
  countdown: PaymentCountdown,
  leave: OrderScreenView['leave'],
): void {
  const { LL } = useI18nContext();
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
}

/** 'I have paid': asked first, then told to the server, then on to the receipt. */
function useIHavePaid(
  orderId: string,
  order: OrderDetails | undefined,
  leave: OrderScreenView['leave'],
): { readonly paying: boolean; readonly run: () => Promise<void> } {
  const [paying, setPaying] = useState(false);
  const confirmPaid = usePaidConfirm(order);
  const run = async () => {
    hapticTap();
    if (paying || !(await confirmPaid())) return;
    setPaying(true);
    try {
      await confirmPayment(orderId);
    } catch (error) {
      // The receipt comes next even when this call failed: the server takes a receipt from
      // REQUISITES_READY too, so the order still moves.
      console.warn('payment-confirm failed; going on to the receipt', error);
    }
    leave('upload-receipt', { replace: false });
  };
  return { paying, run };
}

/** The card to pay, each value a tap to copy, and the exact amount last. */
function CardToPay({
  order,
  requisites,
}: {
  readonly order: OrderDetails;
  readonly requisites: CardRequisites;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  return (
    <Section>
      <CopyRow label={LL.payment.bank()} value={requisites.bankName} testId="req-bank" />
      <CopyRow
        label={LL.payment.cardNumber()}
        value={formatCardNumber(requisites.cardNumber)}
        copyValue={requisites.cardNumber}
        testId="req-card"
      />
      <CopyRow label={LL.payment.cardHolder()} value={requisites.cardHolder} testId="req-holder" />
      {requisites.phone !== undefined && requisites.phone !== '' && (
        <CopyRow label={LL.payment.phone()} value={requisites.phone} testId="req-phone" />
      )}
      {requisites.comment !== undefined && requisites.comment !== '' && (
        <CopyRow label={LL.payment.comment()} value={requisites.comment} testId="req-comment" />
      )}
      <CopyRow
        label={LL.payment.amount()}
        value={formatFiat(order.totalRub, order.currency, language)}
        copyValue={String(order.totalRub)}
        testId="req-amount"
      />
    </Section>
  );
}
