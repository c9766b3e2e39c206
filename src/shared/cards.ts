/**
 * Bank card rules: digits only, at most 16, shown in groups of 4; the holder in
 * upper case. A Luhn check catches a mistyped digit before money is sent to a stranger's card.
 */
import { CARD_NUMBER_GROUP, CARD_NUMBER_MAX_DIGITS } from './limits';

/** A card number as it is kept: what was typed without its spaces ("2200 7001…" → "22007001…"). */
export function compactCardNumber(input: string): string {
  return input.replace(/\s/g, '');
}

/** Keeps the digits of what was typed or pasted, at most 16. */
export function cardDigits(input: string): string {
  return input.replace(/\D/g, '').slice(0, CARD_NUMBER_MAX_DIGITS);
}

/** "2200 7001 2345 6789": digits in groups of 4 separated by spaces. */
export function formatCardNumber(input: string): string {
  const digits = cardDigits(input);
  const groups: string[] = [];
  for (let i = 0; i < digits.length; i += CARD_NUMBER_GROUP) {
    groups.push(digits.slice(i, i + CARD_NUMBER_GROUP));
  }
  return groups.join(' ');
}

/** The Luhn checksum every card number carries in its last digit. */
function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A complete card number: 16 digits with a valid Luhn checksum. */
export function isValidCardNumber(input: string): boolean {
  const digits = compactCardNumber(input);
  return digits.length === CARD_NUMBER_MAX_DIGITS && /^\d+$/.test(digits) && passesLuhn(digits);
}

/** The holder as embossed: upper case, single spaces. */
export function normalizeCardHolder(input: string): string {
  return input.toUpperCase().replace(/\s+/g, ' ').trimStart();
}
