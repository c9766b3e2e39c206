/**
 * The cancel button of an order screen: shown only while `useOrderCancel` offers it. Beside the
 * screen's primary action (`second`) it is the screen's second action: Telegram's secondary
 * button where the client has one.
 */
import type { OrderCancel } from './use-order-cancel';
import { useI18nContext } from '../../i18n/language';
import { SecondaryAction } from '../../components/primary-action';

export function CancelOrderButton({
  cancel,
  disabled = false,
  second = false,
}: {
  readonly cancel: OrderCancel;
  /** Another action of the screen is running. */
  readonly disabled?: boolean;
  /** The screen's primary action stands beside it. */
  readonly second?: boolean;
}) {
  const { LL } = useI18nContext();
  if (!cancel.offered) return null;
  return (
    <SecondaryAction
      beside={second}
      text={LL.orderHelp.cancelOrder()}
      loading={cancel.busy}
      disabled={disabled}
      onClick={() => void cancel.ask()}
      testId="cancel-order"
    />
  );
}
