/**
 * `/order/{orderId}/details`: the read-only order (spec section 2): a rejected order shows its
 * reason; a missing one 'Order not found'; a failed fetch alerts an error.
 */
import { Cell, List, Section } from '@telegram-apps/telegram-ui';
import { useEffect, useState } from 'react';
import type { OrderDetails as Order } from '../../../shared/api';
import { CRYPTO_DECIMALS, RATE_DECIMALS } from '../../../shared/limits';
import { NETWORKS } from '../../../shared/networks';
import { STATUS_LABEL_KEYS } from '../../../shared/order-status';
import { ApiError } from '../../api/client';
import { fetchOrder } from '../../api/orders';
import { CopyRow } from '../../components/copy-row';
import { Loading, OrderNotFound } from '../../components/order-not-found';
import { Screen } from '../../components/screen';
import { useEnvironment } from '../../environment-context';
import { formatFiat, formatNumber, localeOf } from '../../format';
import { useI18nContext, useLanguage } from '../../i18n/language';
import { showAlert } from '../../telegram/actions';

type State =
  { kind: 'loading' } | { kind: 'missing' } | { kind: 'failed' } | { kind: 'loaded'; order: Order };

export function Details({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { inTelegram } = useEnvironment();
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    fetchOrder(orderId, controller.signal).then(
      (order) => setState({ kind: 'loaded', order }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.code === 'ORDER_NOT_FOUND') {
          setState({ kind: 'missing' });
          return;
        }
        setState({ kind: 'failed' });
        void showAlert(LL.errors.generic(), inTelegram);
      },
    );
    return () => controller.abort();
  }, [orderId, LL, inTelegram]);

  let body;
  if (state.kind === 'loading') body = <Loading />;
  else if (state.kind === 'missing' || state.kind === 'failed')
    body = state.kind === 'missing' ? <OrderNotFound /> : null;
  else {
    const order = state.order;
    const created = new Intl.DateTimeFormat(localeOf(language), {
      dateStyle: 'medium',
      timeStyle: 'short',
    }).format(new Date(order.createdAt));
    body = (
      <List>
        <Section header={LL.common.orderNumber({ id: order.id.slice(0, 8) })}>
          <Cell
            subhead={LL.details.status()}
            data-testid="detail-status"
            data-status={order.status}
          >
            {LL.statusLabels[STATUS_LABEL_KEYS[order.status]]()}
          </Cell>
          {order.status === 'REJECTED' && order.rejectReason !== null && (
            <Cell subhead={LL.details.rejectReason()} multiline data-testid="reject-reason">
              {order.rejectReason}
            </Cell>
          )}
          <Cell subhead={LL.details.type()}>
            {order.type === 'BUY' ? LL.myOrders.buy() : LL.myOrders.sell()}
          </Cell>
          <Cell subhead={LL.details.amount()}>
            {`${formatNumber(order.amount, language, CRYPTO_DECIMALS)} ${order.cryptoCurrency}`}
          </Cell>
          <Cell subhead={LL.details.total()}>
            {formatFiat(order.totalRub, order.currency, language)}
          </Cell>
          <Cell subhead={LL.common.rate()}>
            {formatNumber(order.rate, language, RATE_DECIMALS)}
          </Cell>
          <Cell subhead={LL.details.network()}>{NETWORKS[order.network].name}</Cell>
          <Cell subhead={LL.details.paymentMethod()}>
            {LL.paymentMethods[order.paymentMethod]()}
          </Cell>
          <Cell subhead={LL.details.createdAt()}>{created}</Cell>
        </Section>
        {(order.walletAddress !== null ||
          order.txHash !== null ||
          order.outgoingTxHash !== null) && (
          <Section>
            {order.walletAddress !== null && (
              <CopyRow label={LL.buyForm.walletAddress()} value={order.walletAddress} />
            )}
            {order.txHash !== null && (
              <CopyRow label={LL.sendCrypto.txHash()} value={order.txHash} />
            )}
            {order.outgoingTxHash !== null && (
              <CopyRow
                label={LL.complete.electronicReceipt()}
                value={order.outgoingTxHash}
                testId="outgoing-tx"
              />
            )}
          </Section>
        )}
      </List>
    );
  }

  return (
    <Screen testId="details" header={{ title: LL.details.title(), back: '/my-orders' }}>
      {body}
    </Screen>
  );
}
