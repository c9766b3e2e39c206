/**
 * The order as an order screen's status poll last saw it, for the parts every order screen shows
 * beside help (the appeal's offer or its state): they read the screen's answer rather than ask
 * the server again.
 */
import type { OrderDetails } from '../../../shared/api';
import { keyedStore } from './keyed-store';

const orders = keyedStore<OrderDetails>();

/** What the status answer said of the order. */
export function noteOrder(order: OrderDetails): void {
  orders.note(order.id, order);
}

/** The order as last seen; undefined until a screen's answer has said. */
export function useSeenOrder(orderId: string): OrderDetails | undefined {
  return orders.useValue(orderId);
}
