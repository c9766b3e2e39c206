/**
 * `/order/{orderId}/send-crypto`: the sell's deposit. The exact amount
 * to send first and large, with copy and the rule that only that amount confirms by itself; the
 * network, the deposit address with copy and a QR code, a warning that only this coin on this
 * network may be sent, and the transaction hash (required after trimming, checked for the
 * network before it is sent). The sell's deadline as a countdown, with the note
 * that expiry cancels the order and a warning not to send after it; once it runs out the
 * address gives way to a notice not to send. Once the hash is accepted the screen goes on to
 * sell-waiting; polling and redirects are the table's. Cancel asks first, posts cancel and shows the order's
 * details; support opens with the order's number.
 */
import { valibotResolver } from '@hookform/resolvers/valibot';
import { Button, Cell, List, Section } from '@telegram-apps/telegram-ui';
import { useForm, useWatch } from 'react-hook-form';
import type { OrderDetails, WalletRequisites } from '../../../shared/api';
import { CRYPTO_SEND_WARNING_MS } from '../../../shared/limits';
import { NETWORKS, type NetworkId } from '../../../shared/networks';
import { txHashSchema } from '../../../shared/schemas/forms';
import { orderNumber } from '../../../shared/support-link';
import { submitTxHash } from '../../api/orders';
import { CancelOrderButton } from '../../features/order/cancel-order-button';
import { FieldInput } from '../../components/field-input';
import { fieldSetter } from '../../forms';
import { formErrorText } from '../../components/form-error-text';
import { CopyRow, useCopyFeedback } from '../../components/copy-row';
import { CountdownBanner } from '../../features/order/countdown-banner';
import { TimeUpWithSupport } from '../../features/order/order-ended';
import { OrderLoading } from '../../features/order/order-loading';
import { OrderNotFoundScreen } from '../../features/order/order-not-found';
import { OrderSupportButton } from '../../features/order/order-support-button';
import { PrimaryAction } from '../../components/primary-action';
import { QrCode } from '../../features/order/qr-code';
import { Screen } from '../../components/screen';
import { formatCrypto, formatFiat } from '../../../shared/format';
import { toUnits, unitsToDecimal } from '../../../shared/money';
import { formatDuration, useCountdown } from '../../hooks/use-countdown';
import { useOrderAction, type OrderAction } from '../../features/order/use-order-action';
import { useOrderCancel } from '../../features/order/use-order-cancel';
import { useOrderScreen } from '../../features/order/use-order-screen';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticSuccess } from '../../telegram/actions';

export function SendCrypto({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const view = useOrderScreen('send-crypto', orderId);
  const { order, notFound, leave } = view;
  const cancel = useOrderCancel(orderId, order, view);
  const txAction = useOrderAction({
    name: 'tx-hash',
    call: (hash: string, network: NetworkId) => submitTxHash(orderId, hash, network),
    onDone: () => {
      hapticSuccess();
      leave('sell-waiting');
    },
    headline: 'errorCreatingOrder',
  });
  const busy = cancel.busy || txAction.busy;
  const countdown = useCountdown(order?.expiresAt, view.offsetMs);

  if (notFound) return <OrderNotFoundScreen testId="send-crypto" orderId={orderId} />;
  if (order === undefined) {
    return (
      <Screen testId="send-crypto" header={{ title: LL.sendCrypto.title(), back: '/my-orders' }}>
        <OrderLoading orderId={orderId} />
      </Screen>
    );
  }
  if (countdown.expired && order.status === 'WAITING_CRYPTO') {
    return (
      <Screen testId="send-crypto" header={{ title: LL.sendCrypto.title(), back: '/my-orders' }}>
        <TimeUpWithSupport order={order} orderId={orderId} />
      </Screen>
    );
  }
  const network = NETWORKS[order.network];

  return (
    <Screen testId="send-crypto" header={{ title: LL.sendCrypto.title(), back: '/my-orders' }}>
      {countdown.remainingMs !== undefined && (
        <CountdownBanner
          text={LL.payment.timeLeft({ time: formatDuration(countdown.remainingMs) })}
          warning={
            countdown.remainingMs < CRYPTO_SEND_WARNING_MS ? LL.sendCrypto.timeWarning() : null
          }
          note={LL.sendCrypto.expiryNote()}
        />
      )}
      <ExactAmount order={order} />
      <WhereToSend order={order} />
      <div className="warning-box" role="note" data-testid="network-warning">
        {LL.sendCrypto.onlyThisNetwork({
          crypto: order.cryptoCurrency,
          network: `${network.name} (${network.fullName})`,
        })}
      </div>
      <TxHashForm network={order.network} busy={busy} submit={txAction} />
      <div className="screen__actions">
        <CancelOrderButton cancel={cancel} disabled={txAction.busy} second />
        <OrderSupportButton orderId={orderId} />
      </div>
    </Screen>
  );
}

/**
 * The amount to send, first and large: one deposit address serves every seller, so the exact
 * amount (the amount asked for plus a tag in its last shown decimal, unique among open sells) is
 * what ties the transfer to this order. The copy gives the bare decimal a wallet's amount field
 * takes: no grouping, no coin, no float artefacts.
 */
function ExactAmount({ order }: { readonly order: OrderDetails }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const [copied, copy] = useCopyFeedback();
  const units = toUnits(order.amount);
  const exact = units === undefined ? String(order.amount) : unitsToDecimal(units);
  return (
    <section className="exact-amount" aria-labelledby="exact-amount-heading">
      <h2 className="exact-amount__heading" id="exact-amount-heading">
        {LL.sendCrypto.exactAmount()}
      </h2>
      <p className="exact-amount__figure" data-testid="send-amount" data-copy-value={exact}>
        {formatCrypto(order.amount, order.cryptoCurrency, language)}
      </p>
      <Button
        size="s"
        mode="bezeled"
        className={copied ? 'exact-amount__copy exact-amount__copy--done' : 'exact-amount__copy'}
        onClick={() => copy(exact)}
        data-testid="copy-amount"
      >
        {copied ? LL.common.copied() : LL.common.copy()}
      </Button>
      <p className="exact-amount__note" role="note" data-testid="exact-amount-note">
        {LL.sendCrypto.exactAmountNote()}
      </p>
    </section>
  );
}

/**
 * The order's network and what the seller receives, as plain rows (nobody pastes them anywhere),
 * then the deposit address with its QR code and copy.
 */
function WhereToSend({ order }: { readonly order: OrderDetails }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const deposit = (order.requisites as WalletRequisites | null)?.walletAddress ?? '';
  const network = NETWORKS[order.network];
  return (
    <List>
      <Section header={LL.common.orderNumber({ id: orderNumber(order.id) })}>
        <Cell subhead={LL.buyForm.network()} multiline data-testid="send-network">
          {`${network.name} (${network.fullName})`}
        </Cell>
        <Cell subhead={LL.sellForm.youReceive()} multiline data-testid="send-receive">
          {formatFiat(order.totalRub, order.currency, language)}
        </Cell>
      </Section>
      <Section header={LL.sendCrypto.depositAddress()}>
        <div className="deposit">
          <QrCode value={deposit} label={LL.sendCrypto.depositAddress()} />
        </div>
        <CopyRow label={LL.sendCrypto.depositAddress()} value={deposit} testId="deposit-address" />
      </Section>
    </List>
  );
}

function TxHashForm({
  network,
  busy,
  submit,
}: {
  readonly network: NetworkId;
  readonly busy: boolean;
  readonly submit: OrderAction<[string, NetworkId]>;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const form = useForm<{ txHash: string }>({
    resolver: valibotResolver(txHashSchema(network)),
    defaultValues: { txHash: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const txHash = useWatch({ control: form.control, name: 'txHash' });
  const error = formErrorText(form.formState.errors.txHash?.message, LL, {
    language,
    network: NETWORKS[network].name,
  });
  const onSubmit = form.handleSubmit(({ txHash: hash }) => submit.run(hash, network));

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} data-testid="tx-form">
      <List>
        <Section>
          <FieldInput
            header={LL.sendCrypto.txHash()}
            name="txHash"
            code
            placeholder={network === 'TRC20' ? 'a1b2…' : '0xa1b2…'}
            value={txHash}
            error={error}
            errorTestId="tx-error"
            onChange={(event) => fieldSetter(form)('txHash', event.target.value)}
          />
        </Section>
      </List>
      <div className="screen__actions">
        <PrimaryAction
          submit
          text={LL.sendCrypto.submit()}
          loading={submit.busy}
          disabled={busy || txHash.trim() === ''}
          onClick={() => void onSubmit()}
          testId="submit-tx"
        />
      </div>
    </form>
  );
}
