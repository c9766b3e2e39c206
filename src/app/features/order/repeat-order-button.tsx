/**
 * "Repeat order" on a screen that shows an ended order (the done screen, the details): its form,
 * filled with what the order was made of, quoted again at today's rate. The screen's primary
 * action, so Telegram's main button inside Telegram. Not shown for an order no form of today
 * takes, nor for one still open.
 */
import type { OrderDetails } from '../../../shared/api';
import { useRepeatOrder } from './use-repeat-order';
import { useI18nContext } from '../../i18n/language';
import { isRepeatable } from '../../repeat-order';
import { PrimaryAction } from '../../components/primary-action';

export function RepeatOrderButton({ order }: { readonly order: OrderDetails }) {
  const { LL } = useI18nContext();
  const repeat = useRepeatOrder();
  if (!isRepeatable(order)) return null;
  return (
    <PrimaryAction
      text={LL.repeatOrder.repeat()}
      loading={repeat.busy}
      onClick={() => void repeat.run(order)}
      testId="repeat-order"
    />
  );
}
