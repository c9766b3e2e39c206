/**
 * `/order/{orderId}/office-waiting`: waiting for office instructions, then the instructions
 * (spec sections 2 and 4). Polled every 2 s: cancelled or rejected goes to my orders, completed
 * to complete; OFFICE_READY with instructions shows the rate-fixed countdown, the cash to bring,
 * the crypto to get, the receiving wallet, the office, 'I received' and support.
 */
import {
  Button,
  Cell,
  List,
  Placeholder,
  Section,
  Spinner,
  Text,
} from '@telegram-apps/telegram-ui';
import { useCallback, useState } from 'react';
import { useLocation } from 'wouter';
import type { OrderDetails } from '../../../shared/api';
import {
  CRYPTO_DECIMALS,
  OFFICE_RATE_FIXED_MS,
  OFFICE_RESERVATION_WARNING_MS,
  POLL_INTERVALS_MS,
} from '../../../shared/limits';
import { NETWORKS } from '../../../shared/networks';
import { orderScreenPath } from '../../../shared/order-status';
import { confirmOfficeReceipt } from '../../api/orders';
import { CopyRow } from '../../components/copy-row';
import { CountdownBanner } from '../../components/countdown-banner';
import { Loading, OrderNotFound } from '../../components/order-not-found';
import { Screen } from '../../components/screen';
import { useEnvironment } from '../../environment-context';
import { formatFiat, formatNumber } from '../../format';
import { formatDuration, useCountdown } from '../../hooks/use-countdown';
import { useOrder } from '../../hooks/use-order';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticError, hapticSuccess, openSupportLink, showAlert } from '../../telegram/actions';
import { useElapsed } from './waiting';

export function OfficeWaiting({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram, supportUrl } = useEnvironment();
  const [, navigate] = useLocation();
  const [since] = useState(() => Date.now());
  const elapsed = useElapsed(since);
  const [confirming, setConfirming] = useState(false);

  const onOrder = useCallback(
    (order: OrderDetails) => {
      if (order.status === 'CANCELLED' || order.status === 'REJECTED')
        navigate('/my-orders', { replace: true });
      else if (order.status === 'COMPLETED')
        navigate(orderScreenPath(orderId, 'complete'), { replace: true });
    },
    [navigate, orderId],
  );
  const { order, notFound, offsetMs } = useOrder(orderId, POLL_INTERVALS_MS.officeWaiting, {
    onOrder,
  });
  const countdown = useCountdown(order?.reservedUntil, offsetMs);

  const iReceived = async () => {
    setConfirming(true);
    try {
      await confirmOfficeReceipt(orderId);
      hapticSuccess();
      navigate(orderScreenPath(orderId, 'complete'));
    } catch (error) {
      console.warn('office-confirm failed', error);
      hapticError();
      await showAlert(LL.errors.officeConfirmError(), inTelegram);
      setConfirming(false);
    }
  };

  let body;
  if (notFound) body = <OrderNotFound />;
  else if (order === undefined) body = <Loading />;
  else if (order.status !== 'OFFICE_READY' || order.officeInstructions === null) {
    body = (
      <>
        <Placeholder header={LL.officeWaiting.title()} description={LL.officeWaiting.hint()}>
          <Spinner size="l" />
        </Placeholder>
        <Text className="waiting__elapsed" data-testid="elapsed">
          {LL.waiting.elapsed({ time: formatDuration(elapsed, false) })}
        </Text>
      </>
    );
  } else {
    const remaining = countdown.remainingMs ?? OFFICE_RATE_FIXED_MS;
    const warning = remaining < OFFICE_RESERVATION_WARNING_MS;
    const office = order.reservation?.office;
    body = (
      <>
        <CountdownBanner
          text={LL.officeWaiting.rateFixedFor({ time: formatDuration(remaining, true) })}
          warning={warning ? LL.officeDetails.reservationWarning() : null}
        />
        <List>
          <Section>
            <Cell subhead={LL.officeWaiting.bringAmount()} data-testid="bring-amount">
              {formatFiat(order.totalRub, order.currency, language)}
            </Cell>
            <Cell subhead={LL.officeWaiting.getAmount()} data-testid="get-amount">
              {`${formatNumber(order.amount, language, CRYPTO_DECIMALS)} ${order.cryptoCurrency} · ${NETWORKS[order.network].name}`}
            </Cell>
            {order.walletAddress !== null && (
              <CopyRow label={LL.officeWaiting.wallet()} value={order.walletAddress} />
            )}
          </Section>
          <Section>
            <Cell subhead={LL.officeWaiting.instructions()} multiline data-testid="instructions">
              {order.officeInstructions}
            </Cell>
            {office !== undefined && (
              <Cell
                subhead={LL.officeWaiting.officeAddress()}
                multiline
                data-testid="office-address"
              >
                {language === 'ru' ? office.addressRu : office.addressEn}
              </Cell>
            )}
            {order.reservation !== null && (
              <Cell
                data-testid="open-reservation"
                onClick={() =>
                  navigate('/office-details', {
                    state: { reservation: order.reservation, orderId },
                  })
                }
                after={<span aria-hidden="true">›</span>}
              >
                {`${LL.officeDetails.reservationCode()}: ${order.reservation.reservationCode}`}
              </Cell>
            )}
          </Section>
        </List>
        <div className="screen__actions">
          <Button
            size="l"
            stretched
            loading={confirming}
            onClick={() => void iReceived()}
            data-testid="i-received"
          >
            {LL.officeWaiting.iReceived()}
          </Button>
        </div>
      </>
    );
  }

  return (
    <Screen
      testId="office-waiting"
      header={{ title: LL.officeWaiting.title(), back: '/my-orders' }}
    >
      {body}
      <div className="screen__actions">
        <Button
          size="l"
          stretched
          mode="plain"
          onClick={() => openSupportLink(supportUrl, inTelegram)}
        >
          {LL.common.contactSupport()}
        </Button>
      </div>
    </Screen>
  );
}
