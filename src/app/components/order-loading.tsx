/**
 * An order screen until its order is there: 'not found' for a missing or foreign id, else the
 * spinner; support with the order's number either way, so the customer is never stuck.
 */
import { Loading } from './loading';
import { OrderNotFound } from './order-not-found';
import { OrderSupportButton } from './order-support-button';

export function OrderLoading({
  orderId,
  notFound,
}: {
  readonly orderId: string;
  readonly notFound: boolean;
}) {
  return (
    <>
      {notFound ? <OrderNotFound /> : <Loading />}
      <div className="screen__actions">
        <OrderSupportButton orderId={orderId} />
      </div>
    </>
  );
}
