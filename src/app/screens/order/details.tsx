/**
 * `/order/{orderId}/details`: the read-only order (spec section 2): a rejected order shows its
 * reason; a missing one 'Order not found'. Asked once; the table says a failed call alerts.
 */
import { Cell, List, Section } from '@telegram-apps/telegram-ui';
import { NETWORKS } from '../../../shared/networks';
import { STATUS_LABEL_KEYS } from '../../../shared/order-status';
import { CopyRow } from '../../components/copy-row';
import { Loading } from '../../components/loading';
import { OrderNotFound } from '../../components/order-not-found';
import { OrderSupportButton } from '../../components/order-support-button';
import { Screen } from '../../components/screen';
import { formatCrypto, formatFiat, formatRate, localeOf } from '../../format';
import { useOrderScreen } from '../../hooks/use-order-screen';
import { useI18nContext, useLanguage } from '../../i18n/language';

export function Details({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const { order, notFound, failed } = useOrderScreen('details', orderId);

  let body;
  if (notFound) body = <OrderNotFound />;
  else if (failed) body = null;
  else if (order === undefined) body = <Loading />;
  else {
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
          {order.status === 'CANCELLED' && order.cancelReason !== null && (
            <Cell subhead={LL.details.cancelReason()} multiline data-testid="cancel-reason">
              {LL.cancelReasons[order.cancelReason]()}
            </Cell>
          )}
          {order.status === 'REJECTED' && order.rejectReason !== null && (
            <Cell subhead={LL.details.rejectReason()} multiline data-testid="reject-reason">
              {order.rejectReason}
            </Cell>
          )}
          <Cell subhead={LL.details.type()}>
            {order.type === 'BUY' ? LL.myOrders.buy() : LL.myOrders.sell()}
          </Cell>
          <Cell subhead={LL.details.amount()}>
            {formatCrypto(order.amount, order.cryptoCurrency, language)}
          </Cell>
          <Cell subhead={LL.details.total()}>
            {formatFiat(order.totalRub, order.currency, language)}
          </Cell>
          <Cell subhead={LL.common.rate()}>{formatRate(order.rate, order.currency, language)}</Cell>
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
      <div className="screen__actions">
        <OrderSupportButton orderId={orderId} />
      </div>
    </Screen>
  );
}
