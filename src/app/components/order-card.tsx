/**
 * One order as a list shows it (spec section 2, /my-orders): direction arrow, crypto amount,
 * network, payment method, fiat total, status badge and time.
 */
import { Cell } from '@telegram-apps/telegram-ui';
import type { OrderSummary } from '../../shared/api';
import { NETWORKS } from '../../shared/networks';
import { STATUS_LABEL_KEYS } from '../../shared/order-status';
import { formatCrypto, formatFiat, formatTime } from '../format';
import { useI18nContext, useLanguage } from '../i18n/language';

export function OrderCard({
  order,
  onOpen,
}: {
  readonly order: OrderSummary;
  readonly onOpen?: () => void;
}) {
  const { LL } = useI18nContext();
  const { language } = useLanguage();
  const buy = order.type === 'BUY';
  return (
    <Cell
      data-order-id={order.id}
      data-status={order.status}
      className="order-card"
      before={
        <span
          className={`order-card__arrow order-card__arrow--${buy ? 'buy' : 'sell'}`}
          aria-label={buy ? LL.myOrders.buy() : LL.myOrders.sell()}
        >
          {buy ? '↓' : '↑'}
        </span>
      }
      subtitle={`${NETWORKS[order.network].name} · ${LL.paymentMethods[order.paymentMethod]()}`}
      description={
        <>
          <span className={`status-badge status-badge--${order.status.toLowerCase()}`}>
            {LL.statusLabels[STATUS_LABEL_KEYS[order.status]]()}
          </span>
          {order.cancelReason !== null && (
            <span className="order-card__reason" data-testid="card-cancel-reason">
              {LL.cancelReasonsShort[order.cancelReason]()}
            </span>
          )}
        </>
      }
      after={
        <span className="order-card__after">
          <span className="order-card__total">
            {formatFiat(order.totalRub, order.currency, language)}
          </span>
          <span className="order-card__time">{formatTime(order.createdAt, language)}</span>
        </span>
      }
      onClick={onOpen}
    >
      {formatCrypto(order.amount, order.cryptoCurrency, language)}
    </Cell>
  );
}
