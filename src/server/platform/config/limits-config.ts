/** How much, how many and how long: call limits, holds, windows and thresholds. */
import * as v from 'valibot';
import { toUnits } from '../../../shared/money';
import {
  DEFAULT_MAX_ACTIVE_ORDERS,
  DEFAULT_REQUISITES_TIMEOUT_MS,
  OPERATOR_USUAL_ANSWER_MS,
} from '../../../shared/limits';
import {
  ADDRESS_LIMITS,
  CALL_LIMITS,
  type AddressCall,
  type LimitedCall,
} from '../limits/rate-limit';
import { documented } from './documented';
import { text, wholeNumber, type ParsedVariables } from './values';

export interface LimitsConfig {
  /** In seconds. */
  readonly initDataMaxAgeSeconds: number;
  /** The same for an operator's action that moves money (src/shared's MONEY_ACTIONS). */
  readonly operatorInitDataMaxAgeSeconds: number;
  readonly callLimits: Readonly<Record<LimitedCall, number>>;
  readonly addressLimits: Readonly<Record<AddressCall, number>>;
  readonly maxActiveOrders: number;
  /** How long an order waits for requisites or office instructions before it is cancelled. */
  readonly requisitesTimeoutMs: number;
  /** How long a submitted hash the node does not know yet is looked for. */
  readonly chainLookupWindowMs: number;
  /** How long a sell's exact amount stays its own after the sell ended. */
  readonly depositAmountHoldMs: number;
  /** Millionths of a coin under which a transfer that is no sell's exact amount is dust. */
  readonly chainDustBelowUnits: number;
}

export const LIMITS_VARIABLES = {
  INIT_DATA_MAX_AGE: documented(
    wholeNumber('INIT_DATA_MAX_AGE', 86_400, 60, 30 * 86_400),
    "how old a customer's Telegram init data may be, in seconds",
    { group: 'operators' },
  ),
  OPERATOR_INIT_DATA_MAX_AGE: documented(
    wholeNumber('OPERATOR_INIT_DATA_MAX_AGE', 3_600, 60, 86_400),
    "how old an operator's init data may be, in seconds, for the console's actions that move money (giving requisites, confirming a payment or a transaction, attaching a deposit, completing, deciding an appeal, setting rates and spreads: `MONEY_ACTIONS` in `src/shared/operator-api.ts`); older, the console asks the operator to reopen it and keeps what they typed",
    { group: 'operators' },
  ),
  MAX_ACTIVE_ORDERS: documented(
    wholeNumber('MAX_ACTIVE_ORDERS', DEFAULT_MAX_ACTIVE_ORDERS, 1, 100),
    'how many orders in a non-final status one customer may hold at once',
    { group: 'orders' },
  ),
  REQUISITES_TIMEOUT: documented(
    wholeNumber(
      'REQUISITES_TIMEOUT',
      DEFAULT_REQUISITES_TIMEOUT_MS / 1000,
      OPERATOR_USUAL_ANSWER_MS / 1000,
      7 * 86_400,
    ),
    `seconds an order waits for requisites or office instructions before it is cancelled (no operator answered); it is flagged for operators after ${OPERATOR_USUAL_ANSWER_MS / 60_000} minutes`,
    { group: 'orders' },
  ),
  CHAIN_LOOKUP_WINDOW_MINUTES: documented(
    wholeNumber('CHAIN_LOOKUP_WINDOW_MINUTES', 120, 5, 7 * 24 * 60),
    'how long, in minutes, a submitted hash the node does not know yet is looked for before operators are told it was not found',
    { group: 'chain' },
  ),
  DEPOSIT_AMOUNT_HOLD_HOURS: documented(
    wholeNumber('DEPOSIT_AMOUNT_HOLD_HOURS', 72, 1, 90 * 24),
    "how long, in hours, a sell's exact amount stays its own after the sell ended: a late transfer of it is still known as that sell's, and no new sell is given it",
    { group: 'deposits' },
  ),
  // An address poisoner's transfers are of nothing or a few cents; no sell is under 1 coin.
  CHAIN_DUST_BELOW: documented(
    v.optional(
      v.pipe(
        text,
        v.check(
          (raw) => /^\d+(\.\d{1,6})?$/.test(raw) && Number(raw) <= 1_000,
          (issue) =>
            `CHAIN_DUST_BELOW must be an amount of coins from 0 to 1000, got "${issue.input}"`,
        ),
        v.transform((raw) => toUnits(raw) ?? 0),
      ),
      '1',
    ),
    "coins (0 to 1000, six decimals at most) under which a transfer to a deposit address that is no sell's exact amount is dust, an address poisoner's: counted (`exchange_chain_dust_transfers`), never listed for operators",
    { group: 'deposits' },
  ),
};

export function limitsConfigOf(variables: ParsedVariables<typeof LIMITS_VARIABLES>): LimitsConfig {
  return {
    initDataMaxAgeSeconds: variables.INIT_DATA_MAX_AGE,
    operatorInitDataMaxAgeSeconds: variables.OPERATOR_INIT_DATA_MAX_AGE,
    callLimits: CALL_LIMITS,
    addressLimits: ADDRESS_LIMITS,
    maxActiveOrders: variables.MAX_ACTIVE_ORDERS,
    requisitesTimeoutMs: variables.REQUISITES_TIMEOUT * 1000,
    chainLookupWindowMs: variables.CHAIN_LOOKUP_WINDOW_MINUTES * 60_000,
    depositAmountHoldMs: variables.DEPOSIT_AMOUNT_HOLD_HOURS * 3_600_000,
    chainDustBelowUnits: variables.CHAIN_DUST_BELOW,
  };
}
