/**
 * Help on every order screen ("Help where it is needed"): the order's chat with the exchange
 * (with its unread count), and beside it support, which opens the support chat through Telegram
 * with "Order #<number>: " already typed, in the customer's language; above them the order's
 * appeal (its state, or the way to open one where it is taken). A missing or foreign order has no
 * chat to open: support only.
 */
import { Button } from '@telegram-apps/telegram-ui';
import { orderSupportLink } from '../../../shared/support-link';
import { useEnvironment } from '../../environment-context';
import { useI18nContext } from '../../i18n/language';
import { openSupportLink } from '../../telegram/actions';
import { OrderAppeal } from './order-appeal';
import { OrderChatButton } from './order-chat-button';

export function OrderSupportButton({
  orderId,
  mode = 'plain',
  chat = true,
}: {
  readonly orderId: string;
  readonly mode?: 'plain' | 'bezeled';
  /** Offer the order's chat beside support (not for an order the customer cannot read). */
  readonly chat?: boolean;
}) {
  const { LL } = useI18nContext();
  const { supportUrl, inTelegram } = useEnvironment();
  const support = (
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
  if (!chat) return support;
  return (
    <>
      <OrderAppeal orderId={orderId} mode={mode} />
      <div className="order-help-row">
        <OrderChatButton orderId={orderId} mode={mode} />
        {support}
      </div>
    </>
  );
}
