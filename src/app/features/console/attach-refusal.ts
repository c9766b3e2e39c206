/**
 * An attach's refusals as the console words them ("Deposits without a hash"): apart
 * from the screen that attaches (console-incoming.tsx), since the console's action hook
 * (use-console-action.ts) reads them too.
 */
import type { TranslationFunctions } from '../../../../i18n/i18n-types';
import type { Language } from '../../../shared/api';
import type { ErrorCode } from '../../../shared/errors';
import { formatCryptoExact } from '../../../shared/format';
import { ApiError } from '../../api/client';

/** The refusals of an attach worded for the operator who chose the transfer. */
const ATTACH_REFUSALS = [
  'TX_WRONG_RECIPIENT',
  'TX_UNDERPAID',
  'TX_BEFORE_ORDER',
  'TX_ALREADY_USED',
  'TX_UNCONFIRMED',
] as const satisfies readonly ErrorCode[];
type AttachRefusal = (typeof ATTACH_REFUSALS)[number];

const isAttachRefusal = (code: string): code is AttachRefusal =>
  (ATTACH_REFUSALS as readonly string[]).includes(code);

/**
 * What is wrong with the transfer an operator tried to attach, in the console's language; null
 * for any other failure (the console's usual words). The customer's words for the same codes
 * send them to support or to another hash; the operator only needs to know why it is not this
 * order's deposit.
 */
export function attachRefusalText(
  error: unknown,
  LL: TranslationFunctions,
  language: Language,
): string | null {
  if (!(error instanceof ApiError) || !isAttachRefusal(error.code)) return null;
  const code = error.code;
  if (code === 'TX_UNDERPAID') {
    const { coin, shortfall } = error.body;
    if (coin === undefined || shortfall === undefined) return LL.apiErrors.TX_UNDERPAID();
    // Exact, as the server wrote it: a token amount can carry 18 decimals.
    return LL.console.attachRefused.TX_UNDERPAID({
      amount: formatCryptoExact(shortfall, coin, language),
    });
  }
  return LL.console.attachRefused[code]();
}
