/**
 * What amount fields accept and how the fiat and crypto sides of a form recompute each other:
 * digits and at most one decimal point (a comma, as Russian keyboards
 * type it, is taken as the point); crypto shown with 4 decimals, roubles whole.
 */
import { CRYPTO_DECIMALS } from './limits';
import {
  cryptoUnitsForFiat,
  fiatTotalMinor,
  minorToDecimal,
  toMinor,
  toUnits,
  unitsToDecimal,
} from './money';

/**
 * Keeps what an amount field may hold. `decimals: false` (the bank RUB amount) keeps digits
 * only; otherwise one decimal point and at most `maxDecimals` digits after it.
 */
export function sanitizeAmountInput(
  input: string,
  options: { readonly decimals: boolean; readonly maxDecimals?: number } = { decimals: true },
): string {
  const normalized = input.replace(/,/g, '.').replace(/[^\d.]/g, '');
  if (!options.decimals) return normalized.replace(/\./g, '').replace(/^0+(?=\d)/, '');
  const [whole = '', ...rest] = normalized.split('.');
  const wholeDigits = whole.replace(/^0+(?=\d)/, '');
  if (rest.length === 0) return wholeDigits;
  const fraction = rest.join('').slice(0, options.maxDecimals ?? CRYPTO_DECIMALS);
  return `${wholeDigits === '' ? '0' : wholeDigits}.${fraction}`;
}

/** The number an amount field holds, or undefined while it is empty or just a point. */
export function parseAmount(value: string): number | undefined {
  if (!/^\d+(\.\d*)?$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** fiat ÷ rate with 4 decimals, as the crypto field shows it ('' when it cannot be computed). */
export function cryptoForFiat(fiat: number, rate: number): string {
  const fiatMinor = toMinor(fiat);
  const rateUnits = toUnits(rate);
  if (fiatMinor === undefined || rateUnits === undefined || rateUnits <= 0) return '';
  return unitsToDecimal(cryptoUnitsForFiat(fiatMinor, rateUnits));
}

/** crypto × rate rounded to a whole number, as the fiat field shows it: the server's total. */
export function fiatForCrypto(crypto: number, rate: number): string {
  const amountUnits = toUnits(crypto);
  const rateUnits = toUnits(rate);
  if (amountUnits === undefined || rateUnits === undefined || rateUnits <= 0) return '';
  return minorToDecimal(fiatTotalMinor(amountUnits, rateUnits));
}
