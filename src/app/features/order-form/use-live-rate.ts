/**
 * The live rate of a buy or sell form (spec sections 4, 5, 8): looked up at once with amount
 * 1000 and again whenever the coin changes, then `debounceMs` after the amount stops changing
 * (the bank form only once the amount reaches its minimum). A failed lookup clears the rate so
 * the form shows 'Loading rate...' and cannot be sent with a stale one.
 */
import { useEffect, useState } from 'react';
import type { OrderType, PaymentMethod } from '../../../shared/order-status';
import type { CryptoCurrency } from '../../../shared/networks';
import { INITIAL_RATE_LOOKUP_AMOUNT } from '../../../shared/limits';
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
  /** Replace the rate (the server's new rate after RATE_CHANGED). */
  readonly setRate: (rate: number) => void;
}

/** One lookup: its rate, or undefined when it failed; nothing once it was called off. */
function lookUp(
  query: Parameters<typeof fetchRate>[0],
  signal: AbortSignal,
  settle: (rate: number | undefined) => void,
): void {
  fetchRate(query, signal).then(
    ({ rate }) => settle(rate),
    (error: unknown) => {
      if (signal.aborted) return;
      console.warn('rate lookup failed', error);
      settle(undefined);
    },
  );
}

export function useLiveRate(options: LiveRateOptions): LiveRate {
  const { currency, operation, cryptoCurrency, paymentMethod, amount, debounceMs } = options;
  const key = `${currency}/${operation}/${cryptoCurrency}/${paymentMethod}`;
  // The rate is remembered with the pair it belongs to, so a coin change never shows the old one.
  const [state, setState] = useState<{ key: string; rate: number | undefined }>({
    key,
    rate: undefined,
  });

  useEffect(() => {
    const controller = new AbortController();
    lookUp(
      { amount: INITIAL_RATE_LOOKUP_AMOUNT, currency, operation, cryptoCurrency, paymentMethod },
      controller.signal,
      (rate) => setState({ key, rate }),
    );
    return () => controller.abort();
  }, [key, currency, operation, cryptoCurrency, paymentMethod]);

  const refetchFrom = options.refetchFrom ?? 0;
  useEffect(() => {
    if (amount === undefined || amount <= 0 || amount < refetchFrom) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      lookUp(
        { amount, currency, operation, cryptoCurrency, paymentMethod },
        controller.signal,
        (rate) => setState({ key, rate }),
      );
    }, debounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [amount, refetchFrom, debounceMs, key, currency, operation, cryptoCurrency, paymentMethod]);

  return {
    rate: state.key === key ? state.rate : undefined,
    setRate: (rate) => setState({ key, rate }),
  };
}
