/**
 * `/order/{orderId}/bank-requisites`: bank transfer details with copy and copy-all, the 2-hour
 * countdown (h:mm:ss, warning under 10 minutes) and 'I have paid' (spec sections 2, 4, 8, 9).
 * Requisites and status are polled every 3 s; a cancelled or rejected order goes to my orders.
 * A failed 'I have paid' shows the error, re-enables the button and stays.
 */
import { Button, Cell, List, Placeholder, Section } from '@telegram-apps/telegram-ui';
import { useCallback, useState } from 'react';
import { useLocation } from 'wouter';
import type { BankRequisites as Requisites, OrderDetails } from '../../../shared/api';
import {
  BANK_PAYMENT_WARNING_MS,
  BANK_PAYMENT_WINDOW_MS,
  POLL_INTERVALS_MS,
} from '../../../shared/limits';
import { orderScreenPath } from '../../../shared/order-status';
import { fetchBankRequisites, confirmPayment } from '../../api/orders';
import { CopyRow, useCopyFeedback } from '../../components/copy-row';
import { CountdownBanner } from '../../components/countdown-banner';
import { Loading, OrderNotFound } from '../../components/order-not-found';
import { Screen } from '../../components/screen';
import { useEnvironment } from '../../environment-context';
import { formatDuration, useCountdown } from '../../hooks/use-countdown';
import { useOrder } from '../../hooks/use-order';
import { usePolling } from '../../hooks/use-polling';
import { useI18nContext } from '../../i18n/language';
import { hapticError, hapticTap, openSupportLink } from '../../telegram/actions';
import { OrderAmounts } from './order-summary-section';
import { paymentDeadline } from './payment';

export function BankRequisitesScreen({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const { inTelegram, supportUrl } = useEnvironment();
  const [, navigate] = useLocation();
  const [requisites, setRequisites] = useState<Requisites | null | undefined>(undefined);
  const [paying, setPaying] = useState(false);
  const [payError, setPayError] = useState<string | null>(null);
  const [copiedAll, copyAll] = useCopyFeedback();

  const onOrder = useCallback(
    (order: OrderDetails) => {
      if (order.status === 'CANCELLED' || order.status === 'REJECTED')
        navigate('/my-orders', { replace: true });
    },
    [navigate],
  );
  const view = useOrder(orderId, POLL_INTERVALS_MS.bankRequisites, { onOrder });
  const pollRequisites = useCallback(
    async (signal: AbortSignal) => {
      const answer = await fetchBankRequisites(orderId, signal);
      setRequisites(answer.requisites);
    },
    [orderId],
  );
  usePolling(pollRequisites, POLL_INTERVALS_MS.bankRequisites, { enabled: !view.notFound });
  const order = view.order;
  const countdown = useCountdown(
    order === undefined ? null : paymentDeadline(order, BANK_PAYMENT_WINDOW_MS),
    view.offsetMs,
  );

  const iHavePaid = async () => {
    hapticTap();
    setPaying(true);
    setPayError(null);
    try {
      await confirmPayment(orderId);
      navigate(orderScreenPath(orderId, 'upload-receipt'));
    } catch (error) {
      console.warn('payment-confirm failed', error);
      hapticError();
      setPayError(LL.errors.generic());
      setPaying(false);
    }
  };

  if (view.notFound) {
    return (
      <Screen
        testId="bank-requisites"
        header={{ title: LL.bankRequisites.title(), back: '/my-orders' }}
      >
        <OrderNotFound />
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
  const warning =
    countdown.remainingMs !== undefined && countdown.remainingMs < BANK_PAYMENT_WARNING_MS;

  return (
    <Screen
      testId="bank-requisites"
      header={{ title: LL.bankRequisites.title(), back: '/my-orders' }}
    >
      {order === undefined || requisites === undefined ? (
        <Loading />
      ) : requisites === null ? (
        <Placeholder
          header={LL.errors.requisitesNotConfigured()}
          description={LL.waiting.hint()}
          action={
            <Button size="m" mode="bezeled" onClick={() => openSupportLink(supportUrl, inTelegram)}>
              {LL.common.contactSupport()}
            </Button>
          }
        >
          <span className="placeholder-icon" aria-hidden="true">
            🏦
          </span>
        </Placeholder>
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
          {payError !== null && (
            <p className="form-error" role="alert" data-testid="pay-error">
              {payError}
            </p>
          )}
          <div className="screen__actions">
            <Button
              size="l"
              stretched
              loading={paying}
              disabled={paying}
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
