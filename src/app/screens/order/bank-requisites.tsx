/**
 * `/order/{orderId}/bank-requisites`: bank transfer details with copy and copy-all, the 2-hour
 * countdown (h:mm:ss, warning under 10 minutes) and 'I have paid' (spec sections 2, 4, 8, 9).
 * The status is polled as the table says; the requisites at the same interval. A failed
 * 'I have paid' shows the error, re-enables the button and stays. Cancel (after a confirmation)
 * while the order waits for payment; support with the order's number.
 */
import { Button, Cell, List, Placeholder, Section } from '@telegram-apps/telegram-ui';
import { ORDER_SCREEN_TABLE } from '../../../shared/order-screens';
import { fetchBankRequisites, confirmPayment } from '../../api/orders';
import { CancelOrderButton } from '../../components/cancel-order-button';
import { CopyRow, useCopyFeedback } from '../../components/copy-row';
import { CountdownBanner } from '../../components/countdown-banner';
import { Loading } from '../../components/loading';
import { OrderAmounts } from '../../components/order-amounts';
import { OrderNotFound } from '../../components/order-not-found';
import { OrderSupportButton } from '../../components/order-support-button';
import { Screen } from '../../components/screen';
import { formatDuration } from '../../hooks/use-countdown';
import { useFetchState } from '../../hooks/use-fetch-state';
import { useOrderAction } from '../../hooks/use-order-action';
import { useOrderCancel } from '../../hooks/use-order-cancel';
import { useOrderScreen } from '../../hooks/use-order-screen';
import { usePaymentCountdown } from '../../hooks/use-payment-countdown';
import { useI18nContext } from '../../i18n/language';
import { hapticTap } from '../../telegram/actions';

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
  const pay = useOrderAction({
    name: 'payment-confirm',
    call: () => confirmPayment(orderId),
    onDone: () => view.leave('upload-receipt', { replace: false }),
    headline: 'generic',
    show: 'inline',
  });
  const cancel = useOrderCancel(orderId, order, view);

  if (view.notFound) {
    return (
      <Screen
        testId="bank-requisites"
        header={{ title: LL.bankRequisites.title(), back: '/my-orders' }}
      >
        <OrderNotFound />
        <div className="screen__actions">
          <OrderSupportButton orderId={orderId} />
        </div>
      </Screen>
    );
  }

  const rows: readonly [string, string | undefined][] =
    requisites === null || requisites === undefined
      ? []
      : [
          [LL.bankRequisites.recipientName(), requisites.recipientName],
          [LL.bankRequisites.accountNumber(), requisites.accountNumber],
          [LL.bankRequisites.bankName(), requisites.bankName],
          [LL.bankRequisites.bik(), requisites.bik],
          [LL.bankRequisites.correspondentAccount(), requisites.correspondentAccount],
          [LL.bankRequisites.inn(), requisites.inn],
          [LL.bankRequisites.bankAddress(), requisites.bankAddress],
          [LL.bankRequisites.beneficiaryName(), requisites.beneficiaryName],
          [LL.bankRequisites.beneficiaryAccount(), requisites.beneficiaryAccount],
        ];
  const present = rows.filter(
    (row): row is [string, string] => row[1] !== undefined && row[1] !== '',
  );
  const warning = countdown.warning;

  return (
    <Screen
      testId="bank-requisites"
      header={{ title: LL.bankRequisites.title(), back: '/my-orders' }}
    >
      {order === undefined || requisites === undefined ? (
        <>
          <Loading />
          <div className="screen__actions">
            <OrderSupportButton orderId={orderId} />
          </div>
        </>
      ) : requisites === null ? (
        <>
          <Placeholder header={LL.errors.requisitesNotConfigured()} description={LL.waiting.hint()}>
            <span className="placeholder-icon" aria-hidden="true">
              🏦
            </span>
          </Placeholder>
          <div className="screen__actions">
            <OrderSupportButton orderId={orderId} mode="bezeled" />
            <CancelOrderButton cancel={cancel} />
          </div>
        </>
      ) : (
        <>
          {countdown.remainingMs !== undefined && (
            <CountdownBanner
              text={LL.payment.timeLeft({ time: formatDuration(countdown.remainingMs, true) })}
              warning={warning ? LL.bankRequisites.timeWarning() : null}
              note={LL.payment.expiryNote()}
            />
          )}
          <List>
            <OrderAmounts order={order} />
            <Section>
              {present.map(([label, value]) => (
                <CopyRow key={label} label={label} value={value} />
              ))}
              <Cell
                data-testid="copy-all"
                onClick={() =>
                  copyAll(present.map(([label, value]) => `${label}: ${value}`).join('\n'))
                }
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
            <Button
              size="l"
              stretched
              loading={pay.busy}
              disabled={pay.busy || cancel.busy}
              onClick={() => {
                hapticTap();
                void pay.run();
              }}
              data-testid="i-have-paid"
            >
              {LL.payment.iHavePaid()}
            </Button>
            <CancelOrderButton cancel={cancel} disabled={pay.busy} />
            <OrderSupportButton orderId={orderId} />
          </div>
        </>
      )}
    </Screen>
  );
}
