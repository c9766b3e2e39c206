/**
 * `/order/{orderId}/bank-requisites`: bank transfer details with copy and copy-all, the 2-hour
 * countdown (h:mm:ss, warning under 10 minutes) and 'I have paid' (spec sections 2, 4, 8, 9).
 * Issue 10: until an operator gives the details it is a waiting state with the usual time and the
 * time left before the order is cancelled for want of an answer; the details carry the payment
 * purpose with the order's number, and the beneficiary only where it differs from the recipient;
 * 'I have paid' asks first what counts as paid; when the countdown runs out the details give way
 * to a notice not to pay. A failed 'I have paid' shows the error, re-enables the button and stays.
 * The status is polled as the table says, the requisites at the same interval. Cancel (after a
 * confirmation) while the order waits for payment; support with the order's number.
 */
import { Cell, List, Placeholder, Section, Spinner, Text } from '@telegram-apps/telegram-ui';
import type { TranslationFunctions } from '../../../../i18n/i18n-types';
import type { BankRequisites } from '../../../shared/api';
import { ORDER_SCREEN_TABLE } from '../../../shared/order-screens';
import { orderNumber } from '../../../shared/support-link';
import { fetchBankRequisites, confirmPayment } from '../../api/orders';
import { CancelOrderButton } from '../../components/cancel-order-button';
import { CopyRow, useCopyFeedback } from '../../components/copy-row';
import { CountdownBanner } from '../../components/countdown-banner';
import { Loading } from '../../components/loading';
import { OrderAmounts } from '../../components/order-amounts';
import { TimeUpNotice } from '../../components/order-ended';
import { OrderNotFound } from '../../components/order-not-found';
import { OrderSupportButton } from '../../components/order-support-button';
import { PrimaryAction } from '../../components/primary-action';
import { Screen } from '../../components/screen';
import { formatDuration, useCountdown } from '../../hooks/use-countdown';
import { useFetchState } from '../../hooks/use-fetch-state';
import { useOrderAction } from '../../hooks/use-order-action';
import { useOrderCancel } from '../../hooks/use-order-cancel';
import { useOrderScreen } from '../../hooks/use-order-screen';
import { usePaidConfirm } from '../../hooks/use-paid-confirm';
import { usePaymentCountdown } from '../../hooks/use-payment-countdown';
import { useI18nContext } from '../../i18n/language';
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
  const [copiedAll, copyAll] = useCopyFeedback();
  const view = useOrderScreen('bank-requisites', orderId);
  const fetched = useFetchState(orderId, (signal) => fetchBankRequisites(orderId, signal), {
    intervalMs: ORDER_SCREEN_TABLE['bank-requisites'].pollMs,
    enabled: !view.notFound,
    onError: (error) => console.warn('requisites poll failed; retrying on the next poll', error),
  });
  const requisites = fetched.data?.requisites;
  const order = view.order;
  const countdown = usePaymentCountdown(order, 'BANK_ACCOUNT', view.offsetMs);
  // While no details are given, the deadline is the operator's (REQUISITES_TIMEOUT).
  const operatorDeadline = useCountdown(
    order?.status === 'WAITING_REQUISITES' ? order.expiresAt : null,
    view.offsetMs,
  );
  const confirmPaid = usePaidConfirm(order);
  const pay = useOrderAction({
    name: 'payment-confirm',
    call: () => confirmPayment(orderId),
    onDone: () => view.leave('upload-receipt', { replace: false }),
    headline: 'generic',
    show: 'inline',
  });
  const cancel = useOrderCancel(orderId, order, view);
  const header = { title: LL.bankRequisites.title(), back: '/my-orders' } as const;

  if (view.notFound) {
    return (
      <Screen testId="bank-requisites" header={header}>
        <OrderNotFound />
        <div className="screen__actions">
          <OrderSupportButton orderId={orderId} />
        </div>
      </Screen>
    );
  }

  if (order === undefined || requisites === undefined) {
    return (
      <Screen testId="bank-requisites" header={header}>
        <Loading />
        <div className="screen__actions">
          <OrderSupportButton orderId={orderId} />
        </div>
      </Screen>
    );
  }

  // Given but unreadable (never in a working setup): say so rather than wait forever.
  if (requisites === null && order.status !== 'WAITING_REQUISITES') {
    return (
      <Screen testId="bank-requisites" header={header}>
        <Placeholder header={LL.errors.requisitesNotConfigured()} />
        <div className="screen__actions">
          <OrderSupportButton orderId={orderId} mode="bezeled" />
          <CancelOrderButton cancel={cancel} />
        </div>
      </Screen>
    );
  }

  if (requisites === null) {
    return (
      <Screen testId="bank-requisites" header={header}>
        <div data-testid="requisites-waiting">
          <Placeholder header={LL.bankRequisites.waitingTitle()} description={LL.waiting.hint()}>
            <Spinner size="l" />
          </Placeholder>
          {operatorDeadline.remainingMs !== undefined && (
            <Text className="waiting__auto-cancel" data-testid="auto-cancel">
              {LL.waiting.autoCancel({ time: formatDuration(operatorDeadline.remainingMs) })}
            </Text>
          )}
        </div>
        <List>
          <OrderAmounts order={order} />
        </List>
        <div className="screen__actions">
          <CancelOrderButton cancel={cancel} />
          <OrderSupportButton orderId={orderId} />
        </div>
      </Screen>
    );
  }

  if (countdown.expired && order.status === 'REQUISITES_READY') {
    return (
      <Screen testId="bank-requisites" header={header}>
        <TimeUpNotice order={order} />
        <div className="screen__actions">
          <OrderSupportButton orderId={orderId} mode="bezeled" />
        </div>
      </Screen>
    );
  }

  const rows = bankRows(requisites, orderId, LL);
  return (
    <Screen testId="bank-requisites" header={header}>
      {countdown.remainingMs !== undefined && (
        <CountdownBanner
          text={LL.payment.timeLeft({ time: formatDuration(countdown.remainingMs, true) })}
          warning={countdown.warning ? LL.bankRequisites.timeWarning() : null}
          note={LL.payment.expiryNote()}
        />
      )}
      <List>
        <OrderAmounts order={order} />
        <Section>
          {rows.map(([label, value]) => (
            <CopyRow key={label} label={label} value={value} />
          ))}
          <Cell
            data-testid="copy-all"
            onClick={() => copyAll(rows.map(([label, value]) => `${label}: ${value}`).join('\n'))}
          >
            <span className="copy-hint">
              {copiedAll ? LL.common.copied() : LL.common.copyAll()}
            </span>
          </Cell>
        </Section>
      </List>
      {pay.errorText !== null && (
        <p className="form-error" role="alert" data-testid="pay-error">
          {pay.errorText}
        </p>
      )}
      <div className="screen__actions">
        <PrimaryAction
          text={LL.payment.iHavePaid()}
          loading={pay.busy}
          disabled={cancel.busy}
          onClick={() => {
            hapticTap();
            void confirmPaid().then((paid) => (paid ? pay.run() : undefined));
          }}
          testId="i-have-paid"
        />
        <CancelOrderButton cancel={cancel} disabled={pay.busy} />
        <OrderSupportButton orderId={orderId} />
      </div>
    </Screen>
  );
}
