/**
 * An order screen until its order is there: the spinner, and support with the order's number,
 * so the customer is never stuck. A missing or foreign order is OrderNotFoundScreen instead.
 */
import { Loading } from '../../components/loading';
import { OrderSupportButton } from './order-support-button';

export function OrderLoading({ orderId }: { readonly orderId: string }) {
  return (
    <>
      <Loading />
      <div className="screen__actions">
        <OrderSupportButton orderId={orderId} />
      </div>
    </>
  );
}
