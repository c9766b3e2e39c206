/**
 * `/order/{orderId}/send-crypto`: the sell's deposit (spec sections 2, 4, 5, 8). The amount, coin
 * and network to send, the deposit address with copy and a QR code, a warning that only this coin
 * on this network may be sent, and the transaction hash (required after trimming, checked for the
 * network before it is sent). Once the hash is accepted the screen follows the status to
 * sell-waiting. Cancel asks first, posts cancel and goes to my orders.
 */
import { valibotResolver } from '@hookform/resolvers/valibot';
import { Button, Input, List, Section } from '@telegram-apps/telegram-ui';
import { useCallback, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useLocation } from 'wouter';
import type { OrderDetails, WalletRequisites } from '../../../shared/api';
import { CRYPTO_DECIMALS, POLL_INTERVALS_MS } from '../../../shared/limits';
import { NETWORKS, type NetworkId } from '../../../shared/networks';
import { orderScreenPath } from '../../../shared/order-status';
import { txHashSchema } from '../../../shared/schemas/forms';
import { cancelOrder, submitTxHash } from '../../api/orders';
import { FieldError } from '../../components/buy-form';
import { formErrorText } from '../../components/form-error-text';
import { failureText } from '../../components/failure-text';
import { CopyRow } from '../../components/copy-row';
import { Loading, OrderNotFound } from '../../components/order-not-found';
import { QrCode } from '../../components/qr-code';
import { Screen } from '../../components/screen';
import { useEnvironment } from '../../environment-context';
import { formatFiat, formatNumber } from '../../format';
import { useOrder } from '../../hooks/use-order';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { askConfirm, hapticError, hapticSuccess, showAlert } from '../../telegram/actions';

export function SendCrypto({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);

  const onOrder = useCallback(
    (order: OrderDetails) => {
      if (order.status === 'TX_PENDING' || order.status === 'TX_CONFIRMED') {
        navigate(orderScreenPath(orderId, 'sell-waiting'), { replace: true });
      } else if (order.status === 'COMPLETED') {
        navigate(orderScreenPath(orderId, 'complete'), { replace: true });
      } else if (order.status === 'CANCELLED' || order.status === 'REJECTED') {
        navigate('/my-orders', { replace: true });
      }
    },
    [navigate, orderId],
  );
  const { order, notFound } = useOrder(orderId, POLL_INTERVALS_MS.sellWaiting, { onOrder });

  if (notFound || order === undefined) {
    return (
      <Screen testId="send-crypto" header={{ title: LL.sendCrypto.title(), back: '/my-orders' }}>
        {notFound ? <OrderNotFound /> : <Loading />}
      </Screen>
    );
  }
  const deposit = (order.requisites as WalletRequisites | null)?.walletAddress ?? '';
  const network = NETWORKS[order.network];
  const amount = `${formatNumber(order.amount, language, CRYPTO_DECIMALS)} ${order.cryptoCurrency}`;

  const cancel = async () => {
    const ok = await askConfirm(
      LL.sendCrypto.cancelConfirm(),
      { ok: LL.sendCrypto.cancelOrder(), cancel: LL.common.back() },
      inTelegram,
    );
    if (!ok) return;
    setBusy(true);
    try {
      await cancelOrder(orderId);
      navigate('/my-orders');
    } catch (error) {
      console.warn('cancel failed', error);
      hapticError();
      await showAlert(LL.errors.generic(), inTelegram);
      setBusy(false);
    }
  };

  return (
    <Screen testId="send-crypto" header={{ title: LL.sendCrypto.title(), back: '/my-orders' }}>
      <List>
        <Section header={LL.common.orderNumber({ id: order.id.slice(0, 8) })}>
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
      <TxHashForm orderId={orderId} network={order.network} busy={busy} setBusy={setBusy} />
      <div className="screen__actions">
        <Button
          size="l"
          stretched
          mode="plain"
          disabled={busy}
          onClick={() => void cancel()}
          data-testid="cancel-order"
        >
          {LL.sendCrypto.cancelOrder()}
        </Button>
      </div>
    </Screen>
  );
}

function TxHashForm({
  orderId,
  network,
  busy,
  setBusy,
}: {
  readonly orderId: string;
  readonly network: NetworkId;
  readonly busy: boolean;
  readonly setBusy: (busy: boolean) => void;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  const [, navigate] = useLocation();
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

  const onSubmit = form.handleSubmit(async ({ txHash: hash }) => {
    setBusy(true);
    try {
      await submitTxHash(orderId, hash, network);
      hapticSuccess();
      navigate(orderScreenPath(orderId, 'sell-waiting'), { replace: true });
    } catch (failure) {
      console.warn('tx-hash failed', failure);
      hapticError();
      await showAlert(failureText(failure, LL, LL.errors.errorCreatingOrder()), inTelegram);
      setBusy(false);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} data-testid="tx-form">
      <List>
        <Section>
          <Input
            header={LL.sendCrypto.txHash()}
            name="txHash"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            placeholder={network === 'TRC20' ? 'a1b2…' : '0xa1b2…'}
            value={txHash}
            status={error === null ? 'default' : 'error'}
            onChange={(event) =>
              form.setValue('txHash', event.target.value, {
                shouldValidate: form.formState.isSubmitted,
              })
            }
          />
          {error !== null && <FieldError text={error} testId="tx-error" />}
        </Section>
      </List>
      <div className="screen__actions">
        <Button
          type="submit"
          size="l"
          stretched
          loading={busy}
          disabled={busy || txHash.trim() === ''}
          data-testid="submit-tx"
        >
          {LL.sendCrypto.submit()}
        </Button>
      </div>
    </form>
  );
}
