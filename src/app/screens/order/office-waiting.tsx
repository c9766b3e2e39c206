/**
 * `/order/{orderId}/office-waiting`: waiting for office instructions, then the instructions
 * Polling and redirects are the table's; OFFICE_READY with instructions
 * shows the rate-fixed countdown, the cash to bring, the crypto to get, the receiving wallet, the
 * office, 'I received' (after a confirmation naming the crypto and the wallet) and support.
 * While the instructions are awaited, the time left before the server cancels the order for want
 * of an operator's answer. Until the customer has received the crypto the order can be
 * cancelled, after a confirmation.
 */
import { Cell, List, Section } from '@telegram-apps/telegram-ui';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { OFFICE_RATE_FIXED_MS, OFFICE_RESERVATION_WARNING_MS } from '../../../shared/limits';
import type { OrderDetails } from '../../../shared/api';
import { NETWORKS } from '../../../shared/networks';
import { CancelOrderButton } from '../../features/order/cancel-order-button';
import { CopyRow } from '../../components/copy-row';
import { CountdownBanner } from '../../features/order/countdown-banner';
import { Loading } from '../../components/loading';
import { OperatorWait } from '../../features/order/operator-wait';
import { OrderNotFoundScreen } from '../../features/order/order-not-found';
import { OrderSupportButton } from '../../features/order/order-support-button';
import { PrimaryAction } from '../../components/primary-action';
import { Screen } from '../../components/screen';
import { formatCrypto, formatFiat } from '../../../shared/format';
import { formatDuration, useCountdown } from '../../hooks/use-countdown';
import { useOfficeConfirm } from '../../features/order/use-office-confirm';
import type { OrderAction } from '../../features/order/use-order-action';
import { useOrderCancel } from '../../features/order/use-order-cancel';
import { useOrderScreen } from '../../features/order/use-order-screen';
import { useI18nContext, useLanguage } from '../../i18n/language';

export function OfficeWaiting({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const [since] = useState(() => Date.now());
  const view = useOrderScreen('office-waiting', orderId);
  const { order, notFound, offsetMs, leave } = view;
  const countdown = useCountdown(order?.reservedUntil, offsetMs);
  const confirm = useOfficeConfirm(orderId, 'officeConfirmError', { leave, order });
  const cancel = useOrderCancel(orderId, order, view);

  if (notFound) return <OrderNotFoundScreen testId="office-waiting" orderId={orderId} />;
  let body;
  if (order === undefined) body = <Loading />;
  else if (order.status !== 'OFFICE_READY' || order.officeInstructions === null) {
    body = (
      <OperatorWait
        header={LL.officeWaiting.title()}
        hint={LL.officeWaiting.hint()}
        since={since}
        deadline={order.status === 'OFFICE_PENDING' ? order.expiresAt : null}
        offsetMs={offsetMs}
      />
    );
  } else {
    body = (
      <OfficeReady
        orderId={orderId}
        order={order}
        instructions={order.officeInstructions}
        remainingMs={countdown.remainingMs}
        confirm={confirm}
        cancelBusy={cancel.busy}
      />
    );
  }

  return (
    <Screen
      testId="office-waiting"
      header={{ title: LL.officeWaiting.headerTitle(), back: '/my-orders' }}
    >
      {body}
      <div className="screen__actions">
        <CancelOrderButton cancel={cancel} disabled={confirm.busy} />
        <OrderSupportButton orderId={orderId} />
      </div>
    </Screen>
  );
}

/**
 * OFFICE_READY with instructions: how long the rate is fixed, the exchange, the office and
 * 'I received'.
 */
function OfficeReady({
  orderId,
  order,
  instructions,
  remainingMs,
  confirm,
  cancelBusy,
}: {
  readonly orderId: string;
  readonly order: OrderDetails;
  readonly instructions: string;
  /** Left of the reservation; the whole rate-fixed time until the order gives its end. */
  readonly remainingMs: number | undefined;
  readonly confirm: OrderAction<[]>;
  readonly cancelBusy: boolean;
}) {
  const { LL } = useI18nContext();
  const remaining = remainingMs ?? OFFICE_RATE_FIXED_MS;
  const warning = remaining < OFFICE_RESERVATION_WARNING_MS;
  return (
    <>
      <CountdownBanner
        text={LL.officeWaiting.rateFixedFor({ time: formatDuration(remaining, true) })}
        warning={warning ? LL.officeDetails.reservationWarning() : null}
      />
      <List>
        <OfficeExchange order={order} />
        <OfficeWhere orderId={orderId} order={order} instructions={instructions} />
      </List>
      <div className="screen__actions">
        <PrimaryAction
          text={LL.officeWaiting.iReceived()}
          loading={confirm.busy}
          disabled={cancelBusy}
          onClick={() => void confirm.run()}
          testId="i-received"
        />
      </div>
    </>
  );
}

/** The cash to bring, the crypto to get on its network, and the wallet it goes to. */
function OfficeExchange({ order }: { readonly order: OrderDetails }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  return (
    <Section>
      <Cell subhead={LL.officeWaiting.bringAmount()} data-testid="bring-amount">
        {formatFiat(order.totalRub, order.currency, language)}
      </Cell>
      <Cell subhead={LL.officeWaiting.getAmount()} data-testid="get-amount">
        {`${formatCrypto(order.amount, order.cryptoCurrency, language)} · ${NETWORKS[order.network].name}`}
      </Cell>
      {order.walletAddress !== null && (
        <CopyRow label={LL.officeWaiting.wallet()} value={order.walletAddress} />
      )}
    </Section>
  );
}

/** The operator's instructions, the office's address and the way to the reservation. */
function OfficeWhere({
  orderId,
  order,
  instructions,
}: {
  readonly orderId: string;
  readonly order: OrderDetails;
  readonly instructions: string;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const [, navigate] = useLocation();
  const office = order.reservation?.office;
  return (
    <Section>
      <Cell subhead={LL.officeWaiting.instructions()} multiline data-testid="instructions">
        {instructions}
      </Cell>
      {office !== undefined && (
        <Cell subhead={LL.officeWaiting.officeAddress()} multiline data-testid="office-address">
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
  );
}
