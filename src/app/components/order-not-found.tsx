/** 'Заказ не найден' / 'Order not found' (spec sections 2 and 8), with a way to the orders. */
import { Button, Placeholder } from '@telegram-apps/telegram-ui';
import { useLocation } from 'wouter';
import { useI18nContext } from '../i18n/language';

export function OrderNotFound() {
  const { LL } = useI18nContext();
  const [, navigate] = useLocation();
  return (
    <Placeholder
      header={LL.errors.orderNotFound()}
      action={
        <Button size="m" onClick={() => navigate('/my-orders')}>
          {LL.common.myOrders()}
        </Button>
      }
    >
      <span className="placeholder-icon" aria-hidden="true">
        🔍
      </span>
    </Placeholder>
  );
}
