/**
 * One order as /my-orders lists it: direction arrow, crypto amount,
 * network, payment method, fiat total, status badge and time. An order that waits for its
 * customer (requisites ready: pay; waiting for the crypto: send…) stands out with what to do,
 * apart from those where the customer only waits; one with messages of the exchange unread says
 * how many.
 */
import { Cell } from '@telegram-apps/telegram-ui';
import { useLocation } from 'wouter';
import type { OrderSummary } from '../../shared/api';
import { NETWORKS } from '../../shared/networks';
import { historyCardTarget, orderScreenPath } from '../../shared/order-screens';
import { STATUS_LABEL_KEYS, customerAction } from '../../shared/order-status';
import { formatCrypto, formatFiat, formatTime } from '../../shared/format';
import { useI18nContext, useLanguage } from '../i18n/language';
import type { TranslationFunctions } from '../../../i18n/i18n-types';

/** The order's network and payment method, as its card names them. */
export function orderNetworkAndMethod(order: OrderSummary, LL: TranslationFunctions): string {
  return `${NETWORKS[order.network].name} · ${LL.paymentMethods[order.paymentMethod]()}`;
}

/** A card that opens its order where the history-card table (src/shared/order-screens.ts) says. */
export function OrderCard({ order }: { readonly order: OrderSummary }) {
  const { LL } = useI18nContext();
  const [, navigate] = useLocation();
  const { language } = useLanguage();
  const buy = order.type === 'BUY';
  const action = customerAction(order.status);
  return (
    <Cell
      data-order-id={order.id}
      data-status={order.status}
      data-your-turn={action === undefined ? undefined : 'true'}
      className={action === undefined ? 'order-card' : 'order-card order-card--your-turn'}
      multiline
      before={
        <span
          className={`order-card__arrow order-card__arrow--${buy ? 'buy' : 'sell'}`}
          aria-label={buy ? LL.myOrders.buy() : LL.myOrders.sell()}
        >
          {buy ? '↓' : '↑'}
        </span>
      }
      subtitle={orderNetworkAndMethod(order, LL)}
      description={
        <>
          <span className={`status-badge status-badge--${order.status.toLowerCase()}`}>
            {LL.statusLabels[STATUS_LABEL_KEYS[order.status]]()}
          </span>
          {action !== undefined && (
            <span className="order-card__action" data-testid="card-action">
              {LL.customerActions[action]()}
            </span>
          )}
          {order.cancelReason !== null && (
            <span className="order-card__reason" data-testid="card-cancel-reason">
              {LL.cancelReasonsShort[order.cancelReason]()}
            </span>
          )}
          {order.unreadMessages > 0 && (
            <span className="order-card__unread" data-testid="card-unread">
              {LL.chat.newMessages({ count: order.unreadMessages })}
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
      onClick={() => navigate(orderScreenPath(order.id, historyCardTarget(order)))}
    >
      {formatCrypto(order.amount, order.cryptoCurrency, language)}
    </Cell>
  );
}
