/** The cancel button of an order screen: shown only while `useOrderCancel` offers it. */
import { Button } from '@telegram-apps/telegram-ui';
import type { OrderCancel } from '../hooks/use-order-cancel';
import { useI18nContext } from '../i18n/language';

export function CancelOrderButton({
  cancel,
  disabled = false,
}: {
  readonly cancel: OrderCancel;
  /** Another action of the screen is running. */
  readonly disabled?: boolean;
}) {
  const { LL } = useI18nContext();
  if (!cancel.offered) return null;
  return (
    <Button
      size="l"
      stretched
      mode="plain"
      loading={cancel.busy}
      disabled={disabled || cancel.busy}
      onClick={() => void cancel.ask()}
      data-testid="cancel-order"
    >
      {LL.orderHelp.cancelOrder()}
    </Button>
  );
}
