/**
 * Polls while the screen is shown (spec section 4): the first call at once (or after
 * `firstDelayMs`), then every `intervalMs` after the previous call finished. A failed poll is
 * logged and retried on the next tick without disturbing the screen; leaving the screen stops it.
 */
import { useEffect, useRef } from 'react';

export function usePolling(
  poll: (signal: AbortSignal) => Promise<void>,
  intervalMs: number,
  options: { readonly enabled?: boolean; readonly firstDelayMs?: number } = {},
): void {
  const latest = useRef(poll);
  useEffect(() => {
    latest.current = poll;
  });
  const enabled = options.enabled ?? true;
  const firstDelay = options.firstDelayMs ?? 0;

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      try {
        await latest.current(controller.signal);
      } catch (error) {
        if (!controller.signal.aborted)
          console.warn('poll failed; retrying on the next tick', error);
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void run(), intervalMs);
    };
    timer = setTimeout(() => void run(), firstDelay);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [enabled, intervalMs, firstDelay]);
}
