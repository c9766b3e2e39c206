/**
 * The live rate of a buy or sell form: looked up at once with amount 1000 and again whenever the
 * coin changes, then `debounceMs` after the amount stops changing (the bank form only once the
 * amount reaches its minimum). A failed lookup clears the rate so the form shows 'Loading
 * rate...' and cannot be sent with a stale one; a pair the server cannot quote now
 * (RATE_UNAVAILABLE) is said to be updating and asked again every RATE_UNAVAILABLE_RETRY_MS.
 */
import { useCallback, useEffect, useState } from 'react';
import type { OrderType, PaymentMethod } from '../../../shared/order-status';
import type { CryptoCurrency } from '../../../shared/networks';
import { INITIAL_RATE_LOOKUP_AMOUNT, RATE_UNAVAILABLE_RETRY_MS } from '../../../shared/limits';
import { ApiError } from '../../api/client';
import { fetchRate } from '../../api/orders';

export interface LiveRateOptions {
  readonly currency: string;
  readonly operation: OrderType;
  readonly cryptoCurrency: CryptoCurrency;
  readonly paymentMethod: PaymentMethod;
  /** The amount typed, if any. */
  readonly amount: number | undefined;
  readonly debounceMs: number;
  /** Refetch after typing only from this amount on (bank: its minimum). */
  readonly refetchFrom?: number;
}

export interface LiveRate {
  readonly rate: number | undefined;
  /** The server said it cannot quote the pair now (its market sources disagree or are stale). */
  readonly unavailable: boolean;
  /** Replace the rate (the server's new rate after RATE_CHANGED). */
  readonly setRate: (rate: number) => void;
}

/** What a lookup found: the rate, or none (and whether the server said it has none now). */
interface Looked {
  readonly rate: number | undefined;
  readonly unavailable: boolean;
}

/** One lookup; nothing once it was called off. */
function lookUp(
  query: Parameters<typeof fetchRate>[0],
  signal: AbortSignal,
  settle: (looked: Looked) => void,
): void {
  fetchRate(query, signal).then(
    ({ rate }) => settle({ rate, unavailable: false }),
    (error: unknown) => {
      if (signal.aborted) return;
      console.warn('rate lookup failed', error);
      const unavailable = error instanceof ApiError && error.code === 'RATE_UNAVAILABLE';
      settle({ rate: undefined, unavailable });
    },
  );
}

export function useLiveRate(options: LiveRateOptions): LiveRate {
  const { currency, operation, cryptoCurrency, paymentMethod, amount, debounceMs } = options;
  const key = `${currency}/${operation}/${cryptoCurrency}/${paymentMethod}`;
  // The rate is remembered with the pair it belongs to, so a coin change never shows the old one.
  const [state, setState] = useState<Looked & { key: string; retries: number }>({
    key,
    rate: undefined,
    unavailable: false,
    retries: 0,
  });
  const settle = useCallback(
    (looked: Looked) => setState((current) => ({ ...looked, key, retries: current.retries })),
    [key],
  );

  // `retries` moves each RATE_UNAVAILABLE_RETRY_MS while the pair is unavailable: a new lookup.
  const retries = state.key === key ? state.retries : 0;
  useEffect(() => {
    const controller = new AbortController();
    lookUp(
      { amount: INITIAL_RATE_LOOKUP_AMOUNT, currency, operation, cryptoCurrency, paymentMethod },
      controller.signal,
      settle,
    );
    return () => controller.abort();
  }, [settle, currency, operation, cryptoCurrency, paymentMethod, retries]);

  const unavailable = state.key === key && state.unavailable;
  useEffect(() => {
    if (!unavailable) return;
    const timer = setTimeout(
      () => setState((current) => ({ ...current, retries: current.retries + 1 })),
      RATE_UNAVAILABLE_RETRY_MS,
    );
    return () => clearTimeout(timer);
  }, [unavailable, retries]);

  const refetchFrom = options.refetchFrom ?? 0;
  useEffect(() => {
    if (amount === undefined || amount <= 0 || amount < refetchFrom) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      lookUp(
        { amount, currency, operation, cryptoCurrency, paymentMethod },
        controller.signal,
        settle,
      );
    }, debounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [amount, refetchFrom, debounceMs, settle, currency, operation, cryptoCurrency, paymentMethod]);

  return {
    rate: state.key === key ? state.rate : undefined,
    unavailable,
    setRate: (rate) => settle({ rate, unavailable: false }),
  };
}
