/**
 * An order screen's view of its order: polled at the screen's interval (spec section 4), with
 * the offset of the server's clock for countdowns, and 'not found' for a missing or foreign id.
 */
import { useCallback, useState } from 'react';
import type { OrderDetails } from '../../shared/api';
import { ApiError } from '../api/client';
import { fetchOrder } from '../api/orders';
import { clockOffset } from './use-countdown';
import { usePolling } from './use-polling';

export interface OrderView {
  readonly order: OrderDetails | undefined;
  readonly notFound: boolean;
  /** Server clock minus phone clock, in ms. */
  readonly offsetMs: number;
}

export function useOrder(
  orderId: string,
  intervalMs: number,
  options: {
    /** Called with every fresh answer, for the screen's redirects. */
    readonly onOrder?: (order: OrderDetails) => void;
    readonly firstDelayMs?: number;
    readonly enabled?: boolean;
  } = {},
): OrderView {
  const [view, setView] = useState<OrderView>({ order: undefined, notFound: false, offsetMs: 0 });
  const { onOrder } = options;
  const poll = useCallback(
    async (signal: AbortSignal) => {
      try {
        const order = await fetchOrder(orderId, signal);
        setView({ order, notFound: false, offsetMs: clockOffset(order.serverTime) });
        onOrder?.(order);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'ORDER_NOT_FOUND') {
          setView((v) => ({ ...v, notFound: true }));
          return;
        }
        throw error;
      }
    },
    [orderId, onOrder],
  );
  usePolling(poll, intervalMs, {
    ...(options.firstDelayMs === undefined ? {} : { firstDelayMs: options.firstDelayMs }),
    enabled: (options.enabled ?? true) && !view.notFound,
  });
  return view;
}
