/**
 * Per-customer limits on the calls that write (design.md leaves abuse to us): a fixed window per
 * customer and kind of call, kept in memory. Several instances each keep their own window, so the
 * effective limit grows with them; that is still far above what a person in the app does.
 */
import { AppError } from './errors';

export type LimitedCall = 'create' | 'receipt' | 'action';

/** Calls per minute a customer may make, per kind. */
export const CALL_LIMITS: Readonly<Record<LimitedCall, number>> = {
  create: 10,
  receipt: 20,
  action: 60,
};

const WINDOW_MS = 60_000;
/** Bounds the memory of the windows; old ones are dropped first. */
const MAX_KEYS = 50_000;

export interface RateLimiter {
  /** Counts a call; RATE_LIMITED (429) when the customer is over the limit of the minute. */
  hit(customerId: number, call: LimitedCall): void;
}

export function createRateLimiter(now: () => number, limits = CALL_LIMITS): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(customerId, call) {
      const at = now();
      const key = `${customerId}:${call}`;
      let window = windows.get(key);
      if (window === undefined || at - window.start >= WINDOW_MS) {
        if (windows.size >= MAX_KEYS) {
          for (const [k, w] of windows) if (at - w.start >= WINDOW_MS) windows.delete(k);
          if (windows.size >= MAX_KEYS) windows.clear();
        }
        window = { start: at, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      if (window.count > limits[call]) {
        throw new AppError('RATE_LIMITED', {
          retryAfter: Math.ceil((window.start + WINDOW_MS - at) / 1000),
        });
      }
    },
  };
}
