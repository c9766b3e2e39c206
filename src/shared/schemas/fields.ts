/**
 * The rule of every field a customer or an operator types, once: the forms of the app (through
 * react-hook-form) and the server's payload schemas are composed of these same pipes, so a value
 * the form takes is a value the server takes, and the other way round. Messages are keys of the
 * dictionary's `errors` section (FormErrorKey), translated when shown.
 */
import * as v from 'valibot';
import { parseAmount } from '../amounts';
import { compactCardNumber, isValidCardNumber } from '../cards';
import type { AmountBounds } from '../limits';
import type { FormErrorKey } from './form-errors';
import { line, lineText, paragraphText, required } from './text';

const key = (k: FormErrorKey) => k;

/** A card number as typed (spaces allowed): 16 digits passing Luhn; the output is the digits. */
export const cardNumberField = v.pipe(
  v.string(),
  v.transform(compactCardNumber),
  v.nonEmpty(key('fillAllFields')),
  v.check(isValidCardNumber, key('invalidCardNumber')),
);

/**
 * The holder of a card a sell pays out to, as embossed on the card: Russian bank cards carry it
 * in Latin letters (IVAN PETROV), so Cyrillic is refused with a message that says so, rather
 * than transliterated into a spelling that may not be the card's.
 */
const CARD_HOLDER_PATTERN = /^[A-Za-z][A-Za-z .'-]*$/;
export const cardHolderField = v.pipe(
  line(64),
  v.regex(CARD_HOLDER_PATTERN, key('cardHolderLatin')),
);

/** A bank's name. */
export const bankNameField = line(64);

/** A phone number: optional; when given, digits with an optional +, spaces, brackets, hyphens. */
const PHONE_PATTERN = /^(\+?[\d ()-]{7,20})?$/;
export const phoneField = v.pipe(lineText(32), v.regex(PHONE_PATTERN, key('invalidPhone')));

/** A free comment for the other side. */
export const commentField = paragraphText(500);

/** A wallet address as typed: required; its format per network is checked with the network. */
export const walletAddressField = line(128);

/** A transaction hash as typed: required; its format per network is checked with the network. */
export const txHashField = line(100);

/**
 * An amount field as the form holds it (digits and one point), within `bounds`
 * once it is a number; '' passes (see `requiredAmountField`).
 */
export function amountField(bounds: AmountBounds) {
  return v.pipe(
    v.string(),
    v.trim(),
    v.check((s) => (parseAmount(s) ?? bounds.min) >= bounds.min, key('minAmount')),
    v.check((s) => (parseAmount(s) ?? bounds.max) <= bounds.max, key('maxAmount')),
  );
}

/** As `amountField`, and required. */
export const requiredAmountField = (bounds: AmountBounds) => required(amountField(bounds));

/** Russian bank details (an operator's bank requisites, the configured default account). */
export const BANK_DETAIL_PATTERNS = {
  accountNumber: /^\d{20}$/,
  bik: /^\d{9}$/,
  correspondentAccount: /^\d{20}$/,
  inn: /^(\d{10}|\d{12})$/,
} as const;
export type BankDetail = keyof typeof BANK_DETAIL_PATTERNS;

/** A bank detail of BANK_DETAIL_PATTERNS, spaces allowed as typed. */
export const bankDetailField = (detail: BankDetail) =>
  v.pipe(
    v.string(),
    v.transform((s) => s.replace(/\s/g, '')),
    v.regex(BANK_DETAIL_PATTERNS[detail]),
  );
