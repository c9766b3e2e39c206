/** The way from a screen to the customer's orders (/my-orders), as a full-width secondary button. */
import { useLocation } from 'wouter';
import { useI18nContext } from '../i18n/language';
import { ScreenButton } from './screen-action-button';

export function MyOrdersButton() {
  const { LL } = useI18nContext();
  const [, navigate] = useLocation();
  return (
    <ScreenButton mode="bezeled" onClick={() => navigate('/my-orders')}>
      {LL.common.myOrders()}
    </ScreenButton>
  );
}
