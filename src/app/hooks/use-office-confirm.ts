/**
 * 'I received' on office-waiting and 'I received money' on office-details (spec section 4): posts
 * office-confirm, then opens complete; a failure is told under the screen's own headline.
 */
import { useLocation } from 'wouter';
import { orderScreenPath } from '../../shared/order-screens';
import { confirmOfficeReceipt } from '../api/orders';
import { hapticSuccess } from '../telegram/actions';
import { useOrderAction, type FailureHeadline, type OrderAction } from './use-order-action';
import type { OrderScreenView } from './use-order-screen';

export function useOfficeConfirm(
  orderId: string,
  headline: FailureHeadline,
  /** An order screen's own way out, so that its polling cannot send it elsewhere as well. */
  leave?: OrderScreenView['leave'],
): OrderAction<[]> {
  const [, navigate] = useLocation();
  return useOrderAction({
    name: 'office-confirm',
    call: () => confirmOfficeReceipt(orderId),
    onDone: () => {
      hapticSuccess();
      if (leave === undefined) navigate(orderScreenPath(orderId, 'complete'));
      else leave('complete', { replace: false });
    },
    headline,
  });
}
