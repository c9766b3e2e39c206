/**
 * The quote-and-submit logic every order form shares (buy by P2P, bank or office, and sell): the
 * live rate of the form's pair (`useLiveRate`), and a submit that creates the order at that rate.
 * When the server answers RATE_CHANGED, its new rate is shown to the customer to confirm and the
 * order is sent again at it only if they agree: the rate is never changed silently.
 * A customer at the active-order limit (TOO_MANY_ACTIVE_ORDERS) is shown which orders are open
 * (`openOrders`, each a tap away); any other failure goes to the form's own `onFailure`.
 */
import { useState } from 'react';
import type { OrderSummary } from '../../../shared/api';
import { ApiError } from '../../api/client';
import { fetchActiveOrders } from '../../api/orders';
import { useEnvironment } from '../../environment-context';
import { useI18nContext } from '../../i18n/language';
import { askConfirm, hapticError } from '../../telegram/actions';
import { useLiveRate, type LiveRateOptions } from './use-live-rate';

export interface OrderAttempt {
  /** Creates the order at `rate` and answers its id. */
  readonly create: (rate: number) => Promise<string>;
  /** What the customer is asked when the server's rate is `rate` (the new amounts at it). */
  readonly confirmNewRate: (rate: number) => string;
}

export interface QuotedOrder {
  /** The rate of the pair, undefined while it is being looked up or after a failed lookup. */
  readonly rate: number | undefined;
  /** The server cannot quote the pair now: the form says the rate is being updated. */
  readonly rateUnavailable: boolean;
  readonly submitting: boolean;
  /** Set once the server refused a new order at the active-order limit: the open ones. */
  readonly openOrders: readonly OrderSummary[] | undefined;
  /** Creates the order at the current rate; resolves once it is created, declined or failed. */
  readonly submit: (attempt: OrderAttempt) => Promise<void>;
}

export function useQuotedOrder(
  quote: LiveRateOptions,
  handlers: {
    readonly onCreated: (orderId: string) => void;
    readonly onFailure: (error: unknown) => Promise<void> | void;
  },
): QuotedOrder {
  const { LL } = useI18nContext();
  const { inTelegram } = useEnvironment();
  const { rate, unavailable, setRate } = useLiveRate(quote);
  const [submitting, setSubmitting] = useState(false);
  const [openOrders, setOpenOrders] = useState<readonly OrderSummary[]>();

  /** At the limit, the open orders replace the error; if they cannot be read, the error is told. */
  const showOpenOrders = async (error: unknown): Promise<boolean> => {
    if (!(error instanceof ApiError) || error.code !== 'TOO_MANY_ACTIVE_ORDERS') return false;
    try {
      const { orders } = await fetchActiveOrders();
      if (orders.length === 0) return false;
      hapticError();
      setOpenOrders(orders);
      return true;
    } catch {
      return false;
    }
  };

  const submit = async (attempt: OrderAttempt): Promise<void> => {
    if (rate === undefined) return;
    setSubmitting(true);
    try {
      let agreed = rate;
      for (;;) {
        try {
          handlers.onCreated(await attempt.create(agreed));
          return;
        } catch (error) {
          const newRate =
            error instanceof ApiError && error.code === 'RATE_CHANGED'
              ? error.body.rate
              : undefined;
          if (newRate === undefined) {
            if (!(await showOpenOrders(error))) await handlers.onFailure(error);
            return;
          }
          setRate(newRate);
          const ok = await askConfirm(
            attempt.confirmNewRate(newRate),
            { ok: LL.common.continue(), cancel: LL.common.cancel() },
            inTelegram,
          );
          if (!ok) return;
          agreed = newRate;
        }
      }
    } finally {
      setSubmitting(false);
    }
  };

  return { rate, rateUnavailable: unavailable, submitting, openOrders, submit };
}
