/** The way from a screen to the customer's orders (/my-orders), as a full-width secondary button. */
import { Button } from '@telegram-apps/telegram-ui';
import { useLocation } from 'wouter';
import { useI18nContext } from '../i18n/language';

export function MyOrdersButton() {
  const { LL } = useI18nContext();
  const [, navigate] = useLocation();
  return (
    <Button size="l" stretched mode="bezeled" onClick={() => navigate('/my-orders')}>
      {LL.common.myOrders()}
    </Button>
  );
}
