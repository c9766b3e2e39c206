/**
 * The messages of the field rules (fields.ts, text.ts): keys of the dictionary's `errors` section,
 * translated when shown, so a language switch re-translates an error already on screen.
 */
export type FormErrorKey =
  | 'fillAllFields'
  | 'minAmount'
  | 'maxAmount'
  | 'invalidWalletAddress'
  | 'invalidCardNumber'
  | 'cardHolderLatin'
  | 'invalidPhone'
  | 'invalidTxHash'
  | 'tooLong'
  | 'notPrintable';

/**
 * The messages of the appeal form's own rules (appeals.ts): keys of the dictionary's `appeals`
 * section, translated when shown, as the field rules' are.
 */
export type AppealFormErrorKey = 'chooseReason' | 'tooManyFiles';
