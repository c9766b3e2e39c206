/**
 * The order as an order screen's status poll last saw it, for the parts every order screen shows
 * beside help (the appeal's offer or its state): they read the screen's answer rather than ask
 * the server again.
 */
import { useSyncExternalStore } from 'react';
import type { OrderDetails } from '../../shared/api';

const orders = new Map<string, OrderDetails>();
const listeners = new Set<() => void>();

/** What the status answer said of the order. */
export function noteOrder(order: OrderDetails): void {
  if (orders.get(order.id) === order) return;
  orders.set(order.id, order);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The order as last seen; undefined until a screen's answer has said. */
export function useSeenOrder(orderId: string): OrderDetails | undefined {
  return useSyncExternalStore(subscribe, () => orders.get(orderId));
}
