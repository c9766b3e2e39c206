/**
 * What the customer is told when a call fails: the screen's own words of spec section 8 (for a
 * create, 'An error occurred while creating the order. Please try again.'), with the server's
 * reason on a second line when it is one the customer can act on.
 */
import type { TranslationFunctions } from '../../../i18n/i18n-types';
import type { ErrorCode } from '../../shared/errors';
import { ApiError } from '../api/client';

/** Refusals whose own message says more than "an error occurred". */
const EXPLAINED: readonly ErrorCode[] = [
  'TOO_MANY_ACTIVE_ORDERS',
  'AMOUNT_TOO_LOW',
  'AMOUNT_TOO_HIGH',
  'INVALID_WALLET_ADDRESS',
  'UNSUPPORTED_NETWORK',
  'UNKNOWN_CITY',
  'TOTAL_MISMATCH',
  'VALIDATION_FAILED',
  'INVALID_TX_HASH',
  'TX_HASH_ALREADY_SUBMITTED',
  'INVALID_STATUS',
  'FILE_TYPE',
  'FILE_TOO_LARGE',
  'NO_FILE',
  'RATE_LIMITED',
];

/** `headline`, and on a second line the translated reason when the server gave one that helps. */
export function failureText(error: unknown, LL: TranslationFunctions, headline: string): string {
  const reason =
    error instanceof ApiError &&
    error.code !== 'NETWORK' &&
    error.code !== 'TIMEOUT' &&
    EXPLAINED.includes(error.code)
      ? LL.apiErrors[error.code]()
      : null;
  return reason === null ? headline : `${headline}\n${reason}`;
}

/** Creating an order failed (spec section 8). */
export function createFailureText(error: unknown, LL: TranslationFunctions): string {
  return failureText(error, LL, LL.errors.errorCreatingOrder());
}
