/** Numbers, money, dates and names through `Intl`, in the customer's language. */
import type { Language } from './api';
import { CRYPTO_DECIMALS, RATE_DECIMALS, RUB_DECIMALS } from './limits';

const LOCALES: Record<Language, string> = { ru: 'ru-RU', en: 'en-GB' };

export function localeOf(language: Language): string {
  return LOCALES[language];
}

/** The currency's name in the customer's language ("Российский рубль", "Russian Ruble"). */
export function currencyName(code: string, language: Language): string {
  try {
    return new Intl.DisplayNames([LOCALES[language]], { type: 'currency' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** A whole or decimal amount with grouping: 500 000 (ru), 500,000 (en). */
export function formatNumber(value: number, language: Language, maxDecimals = 0): string {
  return new Intl.NumberFormat(LOCALES[language], {
    maximumFractionDigits: maxDecimals,
  }).format(value);
}

/** Money of `currency` in the customer's language, its sign where it has one (₽, $, €, ₸). */
function formatMoney(
  value: number,
  currency: string,
  language: Language,
  decimals: { readonly min: number; readonly max: number },
): string {
  return new Intl.NumberFormat(LOCALES[language], {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: decimals.min,
    maximumFractionDigits: decimals.max,
  }).format(value);
}

/**
 * A fiat amount: 500 000 ₽ (ru), ₽500,000 (en); roubles whole, other
 * currencies with both digits of their cents when they have some (AED 1,250.50).
 */
export function formatFiat(value: number, currency: string, language: Language): string {
  const cents = currency !== 'RUB' && !Number.isInteger(value) ? 2 : RUB_DECIMALS;
  return formatMoney(value, currency, language, { min: cents, max: cents });
}

/** The sign a currency is written with in the customer's language (₽, $, €, ₸; AED has none). */
export function currencySign(currency: string, language: Language): string {
  return moneyParts(currency, language).find((part) => part.type === 'currency')?.value ?? currency;
}

/**
 * Which side of the digits formatFiat writes the currency's sign on: before in English
 * (₽500,000, AED 20,000), after in Russian (500 000 ₽). A field's unit stands on the same side.
 */
export function currencySignSide(currency: string, language: Language): 'before' | 'after' {
  const parts = moneyParts(currency, language).map((part) => part.type);
  return parts.indexOf('currency') < parts.indexOf('integer') ? 'before' : 'after';
}

function moneyParts(currency: string, language: Language): Intl.NumberFormatPart[] {
  return new Intl.NumberFormat(LOCALES[language], {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
  }).formatToParts(0);
}

/** A rate, always with its 2 decimals and its currency: 95,40 ₽, ₽95.40. */
export function formatRate(rate: number, currency: string, language: Language): string {
  return formatMoney(rate, currency, language, { min: RATE_DECIMALS, max: RATE_DECIMALS });
}

/** A crypto amount with up to 4 decimals and its coin: 31.4465 USDT. */
export function formatCrypto(amount: number, coin: string, language: Language): string {
  return `${formatNumber(amount, language, CRYPTO_DECIMALS)} ${coin}`;
}

/**
 * An exact crypto amount given as decimal text, every digit kept, with its coin:
 * 0.000000000000000001 USDT. What formatCrypto writes, for an amount that must not be rounded to
 * 4 decimals (what a transfer moved, a shortfall), so the two read alike on one screen.
 */
export function formatCryptoExact(decimal: string, coin: string, language: Language): string {
  return `${formatDecimalText(decimal, language)} ${coin}`;
}

/** A time of day (14:05), in the reader's time zone unless one is given. */
export function formatTime(iso: string, language: Language, timeZone?: string): string {
  return new Intl.DateTimeFormat(LOCALES[language], {
    hour: '2-digit',
    minute: '2-digit',
    ...(timeZone === undefined ? {} : { timeZone }),
  }).format(new Date(iso));
}

/**
 * An exact decimal written as text ("0.000000000000000001"), with grouping, every digit kept: a
 * token amount can carry 18 decimals, more than a double holds (Intl formats the string itself,
 * not a number made of it).
 */
export function formatDecimalText(decimal: string, language: Language): string {
  return new Intl.NumberFormat(LOCALES[language], { maximumFractionDigits: 20 }).format(
    decimal as Intl.StringNumericLiteral,
  );
}
