/** Query strings of the GET calls, as the server reads them. */
import * as v from 'valibot';
import { HISTORY_FILTERS } from '../api';
import { HISTORY_PAGE_MAX, HISTORY_PAGE_SIZE } from '../limits';
import { CRYPTO_CURRENCIES } from '../networks';
import { ORDER_TYPES, PAYMENT_METHODS } from '../order-status';

const wholeNumber = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,9}$/),
    v.transform(Number),
    v.number(),
    v.minValue(min),
    v.maxValue(max),
  );

const decimal = v.pipe(
  v.string(),
  v.regex(/^\d{1,12}(\.\d{1,8})?$/),
  v.transform(Number),
  v.number(),
  v.finite(),
);

/** `GET /api/rates/calculate`. */
export const RateQuerySchema = v.looseObject({
  amount: v.optional(decimal),
  currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
  operation: v.picklist(ORDER_TYPES),
  cryptoCurrency: v.picklist(CRYPTO_CURRENCIES),
  paymentMethod: v.optional(v.picklist(PAYMENT_METHODS), 'P2P'),
});

/** `GET /api/orders/history`: status all/active/completed, limit 20 by default (at most 100). */
export const HistoryQuerySchema = v.looseObject({
  status: v.optional(v.picklist(HISTORY_FILTERS), 'all'),
  limit: v.optional(wholeNumber(1, HISTORY_PAGE_MAX), String(HISTORY_PAGE_SIZE)),
  offset: v.optional(wholeNumber(0, 1_000_000), '0'),
});

/**
 * `GET /api/demo/session`: the start parameter the app was opened with, if any, and the
 * browser's own demo identity. Anything is taken; only a well-formed deep link is passed on, and
 * a malformed identity is the shared demo customer.
 */
export const DemoSessionQuerySchema = v.looseObject({
  startParam: v.optional(v.unknown()),
  browser: v.optional(v.unknown()),
});
