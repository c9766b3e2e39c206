/**
 * The text of a form error key (src/shared/schemas/fields.ts), translated when it is shown so a
 * language switch re-translates errors already on screen.
 */
import type { TranslationFunctions } from '../../../i18n/i18n-types';
import type { Language } from '../../shared/api';
import type { AmountBounds } from '../../shared/limits';
import type { FormErrorKey } from '../../shared/schemas/form-errors';
import { formatFiat } from '../../shared/format';

export interface FormErrorContext {
  readonly language: Language;
  /** The bounds the min/max messages name, and their currency's code (RUB, AED): written by formatFiat. */
  readonly bounds?: AmountBounds;
  readonly currency?: string;
  /** The network the address and hash messages name. */
  readonly network?: string;
}

export function formErrorText(
  key: string | undefined,
  LL: TranslationFunctions,
  context: FormErrorContext,
): string | null {
  const bound = (value: number | undefined) =>
    formatFiat(value ?? 0, context.currency ?? 'RUB', context.language);
  const network = context.network ?? '';
  switch (key as FormErrorKey | undefined) {
    case 'fillAllFields':
      return LL.errors.fillAllFields();
    case 'minAmount':
      return LL.errors.minAmount({ amount: bound(context.bounds?.min) });
    case 'maxAmount':
      return LL.errors.maxAmount({ amount: bound(context.bounds?.max) });
    case 'invalidWalletAddress':
      return LL.errors.invalidWalletAddress({ network });
    case 'invalidCardNumber':
      return LL.errors.invalidCardNumber();
    case 'cardHolderLatin':
      return LL.errors.cardHolderLatin();
    case 'tooLong':
      return LL.errors.tooLong();
    case 'notPrintable':
      return LL.errors.notPrintable();
    case 'invalidPhone':
      return LL.errors.invalidPhone();
    case 'invalidTxHash':
      return LL.errors.invalidTxHash({ network });
    case undefined:
      return null;
  }
}
