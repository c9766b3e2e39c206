/**
 * The one way a failed call becomes words for the customer: the screen's own headline (for a
 * create, 'An error occurred while creating the order. Please try again.'), and on a second line
 * the reason, from the server's code and its typed details, translated here; the server's own
 * text is never shown.
 */
import type { TranslationFunctions } from '../../../i18n/i18n-types';
import type { ApiErrorBody, Language } from '../../shared/api';
import { CHAIN_TRANSFER_REFUSALS, type ErrorCode } from '../../shared/errors';
import { ApiError } from '../api/client';
import { formatCryptoExact, formatFiat, localeOf } from '../../shared/format';

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
  ...CHAIN_TRANSFER_REFUSALS,
  'CONFIRM_REASON_REQUIRED',
  'DEPOSIT_NOT_LISTED',
  'INVALID_STATUS',
  'FILE_TYPE',
  'FILE_TOO_LARGE',
  'NO_FILE',
  'RATE_LIMITED',
  'MESSAGE_EMPTY',
  'OPERATOR_REOPEN',
  'SAVED_DETAILS_FULL',
  'APPEAL_EXISTS',
  'APPEAL_NOT_TAKEN',
  'APPEAL_TOO_EARLY',
];

/**
 * Refusals that are the whole message: a transaction hash the chain shows is not the order's
 * deposit. "Please try again" would send the seller to paste the same hash; what is wrong with
 * it, and what to do, is all they need.
 */
const WHOLE_MESSAGE: readonly string[] = CHAIN_TRANSFER_REFUSALS;

/** The reason of a refusal in the customer's words, or null when it would not help them. */
function failureReason(
  error: unknown,
  LL: TranslationFunctions,
  language?: Language,
): string | null {
  if (!(error instanceof ApiError) || error.code === 'NETWORK' || error.code === 'TIMEOUT') {
    return null;
  }
  if (!EXPLAINED.includes(error.code)) return null;
  const precise = language === undefined ? null : detailed(error.code, error.body, LL, language);
  return precise ?? LL.apiErrors[error.code]();
}

/**
 * `headline`, and on a second line the reason when the server gave one that helps. With the
 * customer's `language`, a reason the answer's details make precise (the minimum, the fields to
 * check) names them, its numbers and lists written in that language.
 */
export function failureText(
  error: unknown,
  LL: TranslationFunctions,
  headline: string,
  language?: Language,
): string {
  const reason = failureReason(error, LL, language);
  if (reason === null) return headline;
  return error instanceof ApiError && WHOLE_MESSAGE.includes(error.code)
    ? reason
    : `${headline}\n${reason}`;
}

/** Creating an order failed: the create headline, then the reason. */
export function createFailureText(
  error: unknown,
  LL: TranslationFunctions,
  language: Language,
): string {
  return failureText(error, LL, LL.errors.errorCreatingOrder(), language);
}

/** A reason the details of the answer make more precise than its code alone. */
function detailed(
  code: ErrorCode,
  body: Partial<ApiErrorBody>,
  LL: TranslationFunctions,
  language: Language,
): string | null {
  if ((code === 'AMOUNT_TOO_LOW' || code === 'AMOUNT_TOO_HIGH') && body.currency !== undefined) {
    const bound = code === 'AMOUNT_TOO_LOW' ? body.min : body.max;
    if (bound === undefined) return null;
    const args = { amount: formatFiat(bound, body.currency, language) };
    return code === 'AMOUNT_TOO_LOW' ? LL.errors.minAmount(args) : LL.errors.maxAmount(args);
  }
  if (code === 'TX_WRONG_TOKEN' && body.coin !== undefined) {
    return LL.errors.txWrongToken({ coin: body.coin });
  }
  if (code === 'TX_UNDERPAID' && body.coin !== undefined && body.shortfall !== undefined) {
    // The shortfall is exact (up to 18 decimals): shown as the server wrote it, not as a float.
    const shortfall = formatCryptoExact(body.shortfall, body.coin, language);
    return LL.errors.txUnderpaid({ amount: shortfall });
  }
  if (
    (code === 'TX_AMOUNT_MISMATCH' || code === 'TX_OVERPAID') &&
    body.coin !== undefined &&
    body.sent !== undefined &&
    body.expected !== undefined
  ) {
    // Both exact, so the seller (or, for a payout, the operator) can compare them digit by digit
    // with what the wallet sent.
    const amounts = {
      sent: formatCryptoExact(body.sent, body.coin, language),
      expected: formatCryptoExact(body.expected, body.coin, language),
    };
    return code === 'TX_OVERPAID'
      ? LL.errors.txOverpaid(amounts)
      : LL.errors.txAmountMismatch(amounts);
  }
  if (code === 'VALIDATION_FAILED' && body.fields !== undefined && body.fields.length > 0) {
    const names = LL.fieldNames as Record<string, (() => string) | undefined>;
    const known = body.fields.flatMap((field) => {
      const name = names[field.split('.')[0] ?? field];
      return name === undefined ? [] : [name()];
    });
    if (known.length === 0) return null;
    const list = new Intl.ListFormat(localeOf(language), { type: 'conjunction' });
    return LL.errors.checkFields({ fields: list.format([...new Set(known)]) });
  }
  return null;
}
