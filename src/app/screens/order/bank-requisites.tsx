/**
 * `/order/{orderId}/bank-requisites`: bank transfer details with copy and copy-all, the 2-hour
 * countdown (h:mm:ss, warning under 10 minutes) and 'I have paid'.
 * Until an operator gives the details it is a waiting state with the usual time and the
 * time left before the order is cancelled for want of an answer; the details carry the payment
 * purpose with the order's number, and the beneficiary only where it differs from the recipient;
 * 'I have paid' asks first what counts as paid; when the countdown runs out the details give way
 * to a notice not to pay. A failed 'I have paid' shows the error, re-enables the button and stays.
 * The status is polled as the table says, the requisites at the same interval. Cancel (after a
 * confirmation) while the order waits for payment; support with the order's number.
 */
import { Cell, List, Placeholder, Section, Spinner } from '@telegram-apps/telegram-ui';
import type { ReactNode } from 'react';
import type { TranslationFunctions } from '../../../../i18n/i18n-types';
import type { BankRequisites, OrderDetails } from '../../../shared/api';
import { formatFiat } from '../../../shared/format';
import { ORDER_SCREEN_TABLE } from '../../../shared/order-screens';
import { orderNumber } from '../../../shared/support-link';
import { fetchBankRequisites, confirmPayment } from '../../api/orders';
import { CancelOrderButton } from '../../features/order/cancel-order-button';
import { CopyRow, useCopyFeedback } from '../../components/copy-row';
import { AutoCancelTime } from '../../features/order/operator-wait';
import { OrderAmounts } from '../../features/order/order-amounts';
import { TimeUpWithSupport } from '../../features/order/order-ended';
import { OrderLoading } from '../../features/order/order-loading';
import { OrderNotFoundScreen } from '../../features/order/order-not-found';
import { OrderSupportButton } from '../../features/order/order-support-button';
import { PaymentActions } from '../../features/order/payment-actions';
import { PaymentCountdownBanner } from '../../features/order/payment-countdown-banner';
import { Screen } from '../../components/screen';
import { useCountdown } from '../../hooks/use-countdown';
import { useFetchState } from '../../hooks/use-fetch-state';
import { useOrderAction } from '../../features/order/use-order-action';
import { useOrderCancel, type OrderCancel } from '../../features/order/use-order-cancel';
import { useOrderScreen, type OrderScreenView } from '../../features/order/use-order-screen';
import { usePaidConfirm } from '../../features/order/use-paid-confirm';
import { usePaymentCountdown } from '../../features/order/use-payment-countdown';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticTap } from '../../telegram/actions';

/**
 * The rows to show and copy, in the bank's order: absent optional ones left out, and the
 * beneficiary only where it is not the recipient again; then the payment purpose.
 */
export function bankRows(
  requisites: BankRequisites,
  orderId: string,
  LL: TranslationFunctions,
): readonly (readonly [string, string])[] {
  const rows: readonly (readonly [string, string | undefined])[] = [
    [LL.bankRequisites.recipientName(), requisites.recipientName],
    [LL.bankRequisites.accountNumber(), requisites.accountNumber],
    [LL.bankRequisites.bankName(), requisites.bankName],
    [LL.bankRequisites.bik(), requisites.bik],
    [LL.bankRequisites.correspondentAccount(), requisites.correspondentAccount],
    [LL.bankRequisites.inn(), requisites.inn],
    [LL.bankRequisites.bankAddress(), requisites.bankAddress],
    [
      LL.bankRequisites.beneficiaryName(),
      requisites.beneficiaryName === requisites.recipientName
        ? undefined
        : requisites.beneficiaryName,
    ],
    [
      LL.bankRequisites.beneficiaryAccount(),
      requisites.beneficiaryAccount === requisites.accountNumber
        ? undefined
        : requisites.beneficiaryAccount,
    ],
    [
      LL.bankRequisites.paymentPurpose(),
      LL.bankRequisites.purposeText({ id: orderNumber(orderId) }),
    ],
  ];
  return rows.filter(
    (row): row is readonly [string, string] => row[1] !== undefined && row[1].trim() !== '',
  );
}

export function BankRequisitesScreen({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const view = useOrderScreen('bank-requisites', orderId);
  const requisites = usePolledRequisites(orderId, !view.notFound);
  const order = view.order;
  const countdown = usePaymentCountdown(order, 'BANK_ACCOUNT', view.offsetMs);
  // While no details are given, the deadline is the operator's (REQUISITES_TIMEOUT).
  const operatorDeadline = useCountdown(
    order?.status === 'WAITING_REQUISITES' ? order.expiresAt : null,
    view.offsetMs,
  );
  const pay = useBankPaid(orderId, order, view.leave);
  const cancel = useOrderCancel(orderId, order, view);

  if (view.notFound) return <OrderNotFoundScreen testId="bank-requisites" orderId={orderId} />;
  let body: ReactNode;
  if (order === undefined || requisites === undefined) {
    body = <OrderLoading orderId={orderId} />;
  } else if (requisites === null && order.status !== 'WAITING_REQUISITES') {
    // Given but unreadable (never in a working setup): say so rather than wait forever.
    body = (
      <>
        <Placeholder header={LL.errors.requisitesNotConfigured()} />
        <div className="screen__actions">
          <OrderSupportButton orderId={orderId} mode="bezeled" />
          <CancelOrderButton cancel={cancel} />
        </div>
      </>
    );
  } else if (requisites === null) {
    body = (
      <AwaitingRequisites
        order={order}
        orderId={orderId}
        cancel={cancel}
        remainingMs={operatorDeadline.remainingMs}
      />
    );
  } else if (countdown.expired && order.status === 'REQUISITES_READY') {
    body = <TimeUpWithSupport order={order} orderId={orderId} />;
  } else {
    body = (
      <>
        <PaymentCountdownBanner
          countdown={countdown}
          withHours
          warning={LL.bankRequisites.timeWarning()}
        />
        <List>
          <OrderAmounts order={order} />
          <BankDetails requisites={requisites} order={order} />
        </List>
        {pay.errorText !== null && (
          <p className="form-error" role="alert" data-testid="pay-error">
            {pay.errorText}
          </p>
        )}
        <PaymentActions orderId={orderId} cancel={cancel} paying={pay.busy} onPaid={pay.run} />
      </>
    );
  }
  return (
    <Screen
      testId="bank-requisites"
      header={{ title: LL.bankRequisites.title(), back: '/my-orders' }}
    >
      {body}
    </Screen>
  );
}

/** The bank details, asked for at the table's interval of this screen while the order is known. */
function usePolledRequisites(orderId: string, enabled: boolean): BankRequisites | null | undefined {
  const fetched = useFetchState(orderId, (signal) => fetchBankRequisites(orderId, signal), {
    intervalMs: ORDER_SCREEN_TABLE['bank-requisites'].pollMs,
    enabled,
    onError: (error) => console.warn('requisites poll failed; retrying on the next poll', error),
  });
  return fetched.data?.requisites;
}

/**
 * 'I have paid': asked first what counts as paid, then told to the server; on success the receipt
 * comes next, a failure is shown under the details and the button is offered again.
 */
function useBankPaid(
  orderId: string,
  order: OrderDetails | undefined,
  leave: OrderScreenView['leave'],
): { readonly busy: boolean; readonly errorText: string | null; readonly run: () => void } {
  const confirmPaid = usePaidConfirm(order);
  const pay = useOrderAction({
    name: 'payment-confirm',
    call: () => confirmPayment(orderId),
    onDone: () => leave('upload-receipt', { replace: false }),
    headline: 'generic',
    show: 'inline',
  });
  return {
    busy: pay.busy,
    errorText: pay.errorText,
    run: () => {
      hapticTap();
      void confirmPaid().then((paid) => (paid ? pay.run() : undefined));
    },
  };
}

/** Until an operator gives the details: the usual wait, the time left before auto-cancel. */
function AwaitingRequisites({
  order,
  orderId,
  cancel,
  remainingMs,
}: {
  readonly order: OrderDetails;
  readonly orderId: string;
  readonly cancel: OrderCancel;
  /** Left before the server cancels the order for want of details. */
  readonly remainingMs: number | undefined;
}) {
  const { LL } = useI18nContext();
  return (
    <>
      <div data-testid="requisites-waiting">
        <Placeholder header={LL.bankRequisites.waitingTitle()} description={LL.waiting.hint()}>
          <Spinner size="l" />
        </Placeholder>
        <AutoCancelTime remainingMs={remainingMs} />
      </div>
      <List>
        <OrderAmounts order={order} />
      </List>
      <div className="screen__actions">
        <CancelOrderButton cancel={cancel} />
        <OrderSupportButton orderId={orderId} />
      </div>
    </>
  );
}

/**
 * The details, each a tap to copy, and 'copy all' as 'label: value' lines; then the amount to
 * transfer, shown as money and copied as the bare number a bank's amount field takes.
 */
function BankDetails({
  requisites,
  order,
}: {
  readonly requisites: BankRequisites;
  readonly order: OrderDetails;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const [copiedAll, copyAll] = useCopyFeedback();
  const rows = bankRows(requisites, order.id, LL);
  return (
    <Section>
      {rows.map(([label, value]) => (
        <CopyRow key={label} label={label} value={value} />
      ))}
      <CopyRow
        label={LL.payment.amount()}
        value={formatFiat(order.totalRub, order.currency, language)}
        copyValue={String(order.totalRub)}
        testId="req-amount"
      />
      <Cell
        data-testid="copy-all"
        onClick={() => copyAll(rows.map(([label, value]) => `${label}: ${value}`).join('\n'))}
      >
        <span className="copy-hint">{copiedAll ? LL.common.copied() : LL.common.copyAll()}</span>
      </Cell>
    </Section>
  );
}
