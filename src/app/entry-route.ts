/**
 * Where the app opens (spec section 2, landing, second reading). When it starts at `/` with a
 * language already stored, it goes on by itself: to the deep-linked order (`order_<id>` start
 * parameter, kept in session storage) or, for an operator's link from the bot's alert
 * (`console_<id>`), to that order in the console (`console`, from a flood's summary: the queue); else to My orders when there are active orders, else to
 * the currencies. Decided once at start-up, so coming back to `/` later shows the landing.
 */
import { fetchActiveOrders } from './api/orders';
import { getStoredLanguage, takeConsoleLinkRoute, takeDeepLinkOrderId } from './storage';

export async function entryRoute(pathname: string): Promise<string | null> {
  if (pathname !== '/' || getStoredLanguage() === null) return null;
  const consoleRoute = takeConsoleLinkRoute();
  if (consoleRoute !== null) return consoleRoute;
  const orderId = takeDeepLinkOrderId();
  if (orderId !== null) return `/my-orders?orderId=${encodeURIComponent(orderId)}`;
  try {
    const { orders } = await fetchActiveOrders({ timeoutMs: 5_000 });
    return orders.length > 0 ? '/my-orders' : '/currencies';
  } catch {
    return '/currencies';
  }
}
