/**
 * `/order/{orderId}/send-crypto`: the sell's deposit (spec sections 2, 4, 5, 8). The amount, coin
 * and network to send, the deposit address with copy and a QR code, a warning that only this coin
 * on this network may be sent, and the transaction hash (required after trimming, checked for the
 * network before it is sent). Issue 10: the sell's deadline as a countdown, with the spec's
 * text that expiry cancels the order and a warning not to send after it; once it runs out the
 * address gives way to a notice not to send. Once the hash is accepted the screen goes on to
 * sell-waiting; polling and redirects are the table's. Cancel asks first, posts cancel and shows the order's
 * details; support opens with the order's number.
 */
import { valibotResolver } from '@hookform/resolvers/valibot';
import { List, Section } from '@telegram-apps/telegram-ui';
import { useForm, useWatch } from 'react-hook-form';
import type { WalletRequisites } from '../../../shared/api';
import { CRYPTO_SEND_WARNING_MS } from '../../../shared/limits';
import { NETWORKS, type NetworkId } from '../../../shared/networks';
import { txHashSchema } from '../../../shared/schemas/forms';
import { orderNumber } from '../../../shared/support-link';
import { submitTxHash } from '../../api/orders';
import { CancelOrderButton } from '../../components/cancel-order-button';
import { FieldInput } from '../../components/field-input';
import { fieldSetter } from '../../forms';
import { formErrorText } from '../../components/form-error-text';
import { CopyRow } from '../../components/copy-row';
import { CountdownBanner } from '../../components/countdown-banner';
import { Loading } from '../../components/loading';
import { OrderNotFound } from '../../components/order-not-found';
import { TimeUpNotice } from '../../components/order-ended';
import { OrderSupportButton } from '../../components/order-support-button';
import { PrimaryAction } from '../../components/primary-action';
import { QrCode } from '../../components/qr-code';
import { Screen } from '../../components/screen';
import { formatCrypto, formatFiat } from '../../../shared/format';
import { formatDuration, useCountdown } from '../../hooks/use-countdown';
import { useOrderAction, type OrderAction } from '../../hooks/use-order-action';
import { useOrderCancel } from '../../hooks/use-order-cancel';
import { useOrderScreen } from '../../hooks/use-order-screen';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { hapticSuccess } from '../../telegram/actions';

export function SendCrypto({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
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

  if (notFound || order === undefined) {
    return (
      <Screen testId="send-crypto" header={{ title: LL.sendCrypto.title(), back: '/my-orders' }}>
        {notFound ? <OrderNotFound /> : <Loading />}
        <div className="screen__actions">
          <OrderSupportButton orderId={orderId} />
        </div>
      </Screen>
    );
  }
  if (countdown.expired && order.status === 'WAITING_CRYPTO') {
    return (
      <Screen testId="send-crypto" header={{ title: LL.sendCrypto.title(), back: '/my-orders' }}>
        <TimeUpNotice order={order} />
        <div className="screen__actions">
          <OrderSupportButton orderId={orderId} mode="bezeled" />
        </div>
      </Screen>
    );
  }
  const deposit = (order.requisites as WalletRequisites | null)?.walletAddress ?? '';
  const network = NETWORKS[order.network];
  const amount = formatCrypto(order.amount, order.cryptoCurrency, language);

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
      <List>
        <Section header={LL.common.orderNumber({ id: orderNumber(order.id) })}>
          <CopyRow
            label={LL.sellForm.youSend()}
            value={amount}
            copyValue={String(order.amount)}
            testId="send-amount"
          />
          <CopyRow
            label={LL.buyForm.network()}
            value={`${network.name} (${network.fullName})`}
            copyValue={network.name}
          />
          <CopyRow
            label={LL.sellForm.youReceive()}
            value={formatFiat(order.totalRub, order.currency, language)}
          />
        </Section>
        <Section header={LL.sendCrypto.depositAddress()}>
          <div className="deposit">
            <QrCode value={deposit} label={LL.sendCrypto.depositAddress()} />
          </div>
          <CopyRow
            label={LL.sendCrypto.depositAddress()}
            value={deposit}
            testId="deposit-address"
          />
        </Section>
      </List>
      <div className="warning-box" role="note" data-testid="network-warning">
        {LL.sendCrypto.onlyThisNetwork({
          crypto: order.cryptoCurrency,
          network: `${network.name} (${network.fullName})`,
        })}
      </div>
      <TxHashForm network={order.network} busy={busy} submit={txAction} />
      <div className="screen__actions">
        <CancelOrderButton cancel={cancel} disabled={txAction.busy} />
        <OrderSupportButton orderId={orderId} />
      </div>
    </Screen>
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
