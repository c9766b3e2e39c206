/**
 * Cancel on an order screen ("Never trapped"): offered only while the order is in a
 * status the customer may cancel from (CUSTOMER_CANCELLABLE, the transition table's own list),
 * asked for with a confirmation, posted, and then the order's details show it cancelled. While
 * the call runs the screen's polling rules wait, so a poll that already sees CANCELLED does not
 * send the customer to a list first. A failure is told with the generic headline.
 */
import type { OrderDetails } from '../../../shared/api';
import { CUSTOMER_CANCELLABLE } from '../../../shared/order-status';
import { orderNumber } from '../../../shared/support-link';
import { cancelOrder } from '../../api/orders';
import { useEnvironment } from '../../environment-context';
import { useI18nContext } from '../../i18n/language';
import { askConfirm } from '../../telegram/actions';
import { useOrderAction } from './use-order-action';
import type { OrderScreenView } from './use-order-screen';

export interface OrderCancel {
  /** The order is known and in a status the customer may cancel from. */
  readonly offered: boolean;
  /** The cancel call is running. */
  readonly busy: boolean;
  /** Asks for the confirmation; confirmed, cancels and goes to the details. */
  readonly ask: () => Promise<void>;
}

export function useOrderCancel(
  orderId: string,
  order: OrderDetails | undefined,
  view: Pick<OrderScreenView, 'leave' | 'holdRules'>,
  options: {
    /** Called once the order is cancelled, before the screen leaves (waiting clears its timer). */
    readonly onCancelled?: () => void;
  } = {},
): OrderCancel {
  const { LL } = useI18nContext();
  const { inTelegram } = useEnvironment();
  const action = useOrderAction({
    name: 'cancel',
    call: () => view.holdRules(() => cancelOrder(orderId)),
    onDone: () => {
      options.onCancelled?.();
      view.leave('details');
    },
    headline: 'generic',
  });
  const offered = order !== undefined && CUSTOMER_CANCELLABLE.includes(order.status);

  const ask = async () => {
    if (action.busy) return;
    const ok = await askConfirm(
      LL.orderHelp.cancelConfirm({ id: orderNumber(orderId) }),
      { ok: LL.orderHelp.cancelOrder(), cancel: LL.orderHelp.keepOrder() },
      inTelegram,
    );
    if (ok) await action.run();
  };

  return { offered, busy: action.busy, ask };
}
