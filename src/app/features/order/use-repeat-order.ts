/**
 * Repeating an order from the screen that shows it (the done screen, the details) or from the
 * history, which knows only the order's summary: the order's wallet and city are then read from
 * its status first, and a sell's card from the saved ones. Busy while it reads; a failure is told with the generic headline.
 */
import { useLocation } from 'wouter';
import type { OrderDetails, OrderSummary } from '../../../shared/api';
import type { ListedCurrency } from '../../../shared/currencies';
import { fetchOrder } from '../../api/orders';
import { fetchSavedDetails } from '../../api/saved-details';
import { repeatPlan } from '../../repeat-order';
import { setSelectedCurrency } from '../../storage';
import { hapticSelection } from '../../telegram/actions';
import { useOrderAction, type OrderAction } from './use-order-action';

/** A repeatable order (see isRepeatable), in full or as the history summarises it. */
export type RepeatableOrder = (OrderDetails | OrderSummary) & { readonly currency: ListedCurrency };

export function useRepeatOrder(): OrderAction<[RepeatableOrder]> {
  const [, navigate] = useLocation();
  return useOrderAction({
    name: 'repeat',
    call: async (order: RepeatableOrder) => {
      const details = 'walletAddress' in order ? order : await fetchOrder(order.id);
      // A sell's card is filled in from the saved ones; a buy needs none.
      const saved = order.type === 'SELL' ? (await fetchSavedDetails()).cards : [];
      return repeatPlan({ ...details, currency: order.currency }, saved);
    },
    onDone: (plan) => {
      hapticSelection();
      setSelectedCurrency(plan.currency);
      navigate(plan.path, { state: plan.state });
    },
    headline: 'generic',
  });
}
