/**
 * 'Заказ не найден' / 'Order not found' for a missing id or someone
 * else's order, as a screen of its own: titled with the order's number (what the link named),
 * never with the title of the screen the link asked for, with a way to the orders and support.
 */
import { Button, Placeholder } from '@telegram-apps/telegram-ui';
import { useLocation } from 'wouter';
import { orderNumber } from '../../../shared/support-link';
import { useI18nContext } from '../../i18n/language';
import { OrderSupportButton } from './order-support-button';
import { Screen } from '../../components/screen';

export function OrderNotFoundScreen({
  orderId,
  testId,
  back = '/my-orders',
}: {
  readonly orderId: string;
  /** The screen the link asked for (`data-screen`), so a test knows where it landed. */
  readonly testId: string;
  readonly back?: string;
}) {
  const { LL } = useI18nContext();
  const [, navigate] = useLocation();
  return (
    <Screen
      testId={testId}
      header={{ title: LL.common.orderNumber({ id: orderNumber(orderId) }), back }}
    >
      <Placeholder
        header={LL.errors.orderNotFound()}
        description={LL.errors.orderNotFoundHint()}
        action={
          <Button size="m" onClick={() => navigate('/my-orders')} data-testid="not-found-orders">
            {LL.common.myOrders()}
          </Button>
        }
      >
        <span className="placeholder-icon" aria-hidden="true">
          🔍
        </span>
      </Placeholder>
      <div className="screen__actions">
        <OrderSupportButton orderId={orderId} mode="bezeled" chat={false} />
      </div>
    </Screen>
  );
}
