/**
 * Money as integers (design.md: never a binary float in storage or arithmetic). Crypto amounts and
 * rates are kept in millionths (USDT and USDC have 6 decimals on most chains), fiat in hundredths.
 */

/** Millionths per whole coin (and per whole unit of a rate). */
export const UNITS_PER_COIN = 1_000_000;
/** Hundredths per whole unit of a fiat currency. */
export const MINOR_PER_FIAT = 100;

/**
 * Exact conversion of a decimal string or number to an integer count of `1/scale`, rounding half
 * away from zero at the last kept digit. Returns undefined for anything that is not a finite
 * non-negative decimal.
 */
export function toScaledInteger(value: string | number, scale: number): number | undefined {
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
