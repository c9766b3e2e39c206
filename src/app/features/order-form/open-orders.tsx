/**
 * A customer at the active-order limit (TOO_MANY_ACTIVE_ORDERS) sees why the new order
 * was refused and the orders still open, each a tap away from its screen.
 */
import { List, Section } from '@telegram-apps/telegram-ui';
import type { OrderSummary } from '../../../shared/api';
import { useI18nContext } from '../../i18n/language';
import { OrderCard } from '../../components/order-card';

export function OpenOrders({ orders }: { readonly orders: readonly OrderSummary[] | undefined }) {
  const { LL } = useI18nContext();
  if (orders === undefined) return null;
  return (
    <div data-testid="open-orders">
      <div className="warning-box" role="alert">
        {LL.apiErrors.TOO_MANY_ACTIVE_ORDERS()}
      </div>
      <List>
        <Section header={LL.myOrders.active()}>
          {orders.map((order) => (
            <OrderCard key={order.id} order={order} />
          ))}
        </Section>
      </List>
    </div>
  );
}
