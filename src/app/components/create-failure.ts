/**
 * What the customer is told when creating an order fails (spec section 8: 'An error occurred
 * while creating the order. Please try again.'), with the server's reason on a second line when
 * it is one the customer can act on.
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
];

export function createFailureText(error: unknown, LL: TranslationFunctions): string {
  const reason =
    error instanceof ApiError &&
    error.code !== 'NETWORK' &&
    error.code !== 'TIMEOUT' &&
    EXPLAINED.includes(error.code)
      ? LL.apiErrors[error.code]()
      : null;
  return reason === null
    ? LL.errors.errorCreatingOrder()
    : `${LL.errors.errorCreatingOrder()}\n${reason}`;
}
