/**
 * Support on every order screen ("Help where it is needed"): opens the support chat
 * through Telegram with "Order #<number>: " already typed, in the customer's language.
 */
import { Button } from '@telegram-apps/telegram-ui';
import { orderSupportLink } from '../../shared/support-link';
import { useEnvironment } from '../environment-context';
import { useI18nContext } from '../i18n/language';
import { openSupportLink } from '../telegram/actions';

export function OrderSupportButton({
  orderId,
  mode = 'plain',
}: {
  readonly orderId: string;
  readonly mode?: 'plain' | 'bezeled';
}) {
  const { LL } = useI18nContext();
  const { supportUrl, inTelegram } = useEnvironment();
  return (
    <Button
      size="l"
      stretched
      mode={mode}
      onClick={() =>
        openSupportLink(
          orderSupportLink(supportUrl, orderId, (id) => LL.orderHelp.supportMessage({ id })),
          inTelegram,
        )
      }
      data-testid="order-support"
    >
      {LL.common.contactSupport()}
    </Button>
  );
}
