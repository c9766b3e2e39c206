/**
 * Where the app opens. When it starts at `/` with a
 * language already stored, it goes on by itself: where a kept link leads (an order's chat from the
 * bot's button under an operator's message, the console from an operators' alert: storage.ts's
 * linkRoute), or to the deep-linked order (`order_<id>` start parameter, kept in session storage);
 * else to My orders when there are active orders, else to the currencies. Decided once at
 * start-up, so coming back to `/` later shows the landing.
 */
import { fetchActiveOrders } from './api/orders';
import { getStoredLanguage, takeDeepLinkOrderId, takeLinkRoute } from './storage';

export async function entryRoute(pathname: string): Promise<string | null> {
  if (pathname !== '/' || getStoredLanguage() === null) return null;
  const linked = takeLinkRoute();
  if (linked !== null) return linked;
  const orderId = takeDeepLinkOrderId();
  if (orderId !== null) return `/my-orders?orderId=${encodeURIComponent(orderId)}`;
  try {
    const { orders } = await fetchActiveOrders({ timeoutMs: 5_000 });
    return orders.length > 0 ? '/my-orders' : '/currencies';
  } catch {
    return '/currencies';
  }
}
