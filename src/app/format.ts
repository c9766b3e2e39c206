/** Numbers, money, dates and names through `Intl`, in the customer's language. */
import type { Language } from '../shared/api';

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

/** A fiat total: the rouble sign for RUB (spec section 3), the currency code otherwise. */
export function formatFiat(value: number, currency: string, language: Language): string {
  const amount = formatNumber(value, language, currency === 'RUB' ? 0 : 2);
  return currency === 'RUB' ? `${amount} ₽` : `${amount} ${currency}`;
}

export function formatTime(iso: string, language: Language): string {
  return new Intl.DateTimeFormat(LOCALES[language], { hour: '2-digit', minute: '2-digit' }).format(
    new Date(iso),
  );
}
