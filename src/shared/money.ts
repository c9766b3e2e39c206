/**
 * Money as integers (never a binary float in storage or arithmetic). Crypto amounts and
 * rates are kept in millionths (USDT and USDC have 6 decimals on most chains), fiat in hundredths.
 * Every conversion between a number as shown or typed and these integers, and every product or
 * quotient of money, is here: the form computes a total exactly as the server does.
 */
import { CRYPTO_DECIMALS, RATE_DECIMALS } from './limits';

/** The decimals of the order's stored crypto amounts (millionths). */
const UNITS_DECIMALS = 6;
/** Millionths per whole coin (and per whole unit of a rate): derived, so the two cannot part. */
const UNITS_PER_COIN = 10 ** UNITS_DECIMALS;
/** Millionths in one step of a coin's last shown decimal (0.0001 of a coin). */
export const SHOWN_CRYPTO_STEP_UNITS = UNITS_PER_COIN / 10 ** CRYPTO_DECIMALS;
/** Hundredths per whole unit of a fiat currency. */
export const MINOR_PER_FIAT = 100;

/**
 * Exact conversion of a decimal string or number to an integer count of `1/scale`, rounding half
 * away from zero at the last kept digit. Returns undefined for anything that is not a finite
 * non-negative decimal.
 */
function toScaledInteger(value: string | number, scale: number): number | undefined {
  const text =
    typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text.includes('e') ? Number(text).toFixed(12) : text);
  if (match === null) return undefined;
  const digits = Math.round(Math.log10(scale));
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').padEnd(digits + 1, '0');
  const kept = Number(whole + fraction.slice(0, digits));
  const roundUp = Number(fraction[digits] ?? '0') >= 5 ? 1 : 0;
  const result = kept + roundUp;
  return Number.isSafeInteger(result) ? result : undefined;
}

export function toUnits(value: string | number): number | undefined {
  return toScaledInteger(value, UNITS_PER_COIN);
}

export function toMinor(value: string | number): number | undefined {
  return toScaledInteger(value, MINOR_PER_FIAT);
}

export function fromUnits(units: number): number {
  return units / UNITS_PER_COIN;
}

export function fromMinor(minor: number): number {
  return minor / MINOR_PER_FIAT;
}

/**
 * The fiat total of `amountUnits` coins at `rateUnits`, in minor units, rounded to whole fiat
 * (the RUB amount is a whole number; cash totals are whole too). BigInt: 10 000
 * coins × 95 RUB in millionths × millionths overflows a double's exact range.
 */
export function fiatTotalMinor(amountUnits: number, rateUnits: number): number {
  const product = BigInt(amountUnits) * BigInt(rateUnits); // fiat × 10^12
  const scale = BigInt(UNITS_PER_COIN) ** 2n;
  return Number(roundedQuotient(product, scale)) * MINOR_PER_FIAT;
}

/** The coins `fiatMinor` buys at `rateUnits`, in units, rounded to the 4 decimals shown. */
export function cryptoUnitsForFiat(fiatMinor: number, rateUnits: number): number {
  const step = BigInt(SHOWN_CRYPTO_STEP_UNITS);
  // coins = (minor / 100) / (rate / 10^6); units = coins × 10^6.
  const numerator = BigInt(fiatMinor) * BigInt(UNITS_PER_COIN) ** 2n;
  const denominator = BigInt(MINOR_PER_FIAT) * BigInt(rateUnits) * step;
  return Number(roundedQuotient(numerator, denominator) * step);
}

/** `units` rounded to `decimals` decimals of a coin (a rate to its 2 shown decimals, say). */
function roundUnits(units: number, decimals: number = RATE_DECIMALS): number {
  const step = BigInt(UNITS_PER_COIN / 10 ** decimals);
  return Number(roundedQuotient(BigInt(Math.round(units)), step) * step);
}

/** `base` units changed by `basisPoints` (+150 = 1.5 % more), rounded to the shown decimals. */
export function applyBasisPoints(baseUnits: number, basisPoints: number): number {
  const exact = roundedQuotient(BigInt(baseUnits) * BigInt(10_000 + basisPoints), 10_000n);
  return roundUnits(Number(exact));
}

/** `units` as an exact decimal string without trailing zeros ("12.5", "3"). */
export function unitsToDecimal(units: number): string {
  return scaledToDecimal(units, UNITS_PER_COIN);
}

/** `minor` as an exact decimal string without trailing zeros ("3500.5", "3500"). */
export function minorToDecimal(minor: number): string {
  return scaledToDecimal(minor, MINOR_PER_FIAT);
}

function scaledToDecimal(value: number, scale: number): string {
  const digits = Math.round(Math.log10(scale));
  const whole = Math.trunc(value / scale);
  const fraction = String(Math.abs(value % scale))
    .padStart(digits, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}

/** a / b rounded half away from zero, for non-negative a and positive b. */
function roundedQuotient(a: bigint, b: bigint): bigint {
  return (a + b / 2n) / b;
}

/**
 * An order's amount (`units`, millionths of a coin) in the base units of a token with
 * `decimals` (read from its contract: 6 for most USDT and USDC, 18 for Binance's on BSC), exact
 * in bigint. A token with fewer than 6 decimals cannot hold the last digits: the amount is
 * rounded up, so a deposit of it still pays at least the order.
 */
export function unitsToTokenAmount(units: number, decimals: number): bigint {
  const value = BigInt(units);
  if (decimals >= UNITS_DECIMALS) return value * 10n ** BigInt(decimals - UNITS_DECIMALS);
  const step = 10n ** BigInt(UNITS_DECIMALS - decimals);
  return (value + step - 1n) / step;
}

/**
 * A token amount in base units (of a token with `decimals`) as millionths of a coin, when it is
 * exactly that many: undefined for an amount with digits beyond the sixth decimal, which no
 * order's amount can be.
 */
export function tokenAmountToUnits(amount: bigint, decimals: number): number | undefined {
  const shift = 10n ** BigInt(Math.abs(decimals - UNITS_DECIMALS));
  if (decimals < UNITS_DECIMALS) return Number(amount * shift);
  if (amount % shift !== 0n) return undefined;
  const units = amount / shift;
  return units <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(units) : undefined;
}

/** A token amount in base units as an exact decimal string of whole coins ("0.5", "12"). */
export function tokenAmountToDecimal(amount: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const whole = amount / scale;
  const fraction = (amount % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}
