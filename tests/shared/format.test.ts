/**
 * Money as the customer reads it, through Intl in their language: fiat with its
 * sign, roubles whole; the rate always with 2 decimals and its currency; crypto with up to 4
 * decimals and its coin.
 */
import { describe, expect, it } from 'vitest';
import {
  currencySign,
  currencySignSide,
  formatCrypto,
  formatCryptoExact,
  formatFiat,
  formatRate,
} from '../../src/shared/format';

/** Intl separates with no-break spaces: compared with plain ones. */
const plain = (s: string) => s.replace(/\s/g, ' ');

describe('money formats', () => {
  it.each([
    ['ru', 'RUB', 500_000, '500 000 ₽'],
    ['en', 'RUB', 500_000, '₽500,000'],
    ['ru', 'RUB', 3_500.4, '3 500 ₽'],
    ['en', 'USD', 5_000, '$5,000'],
    ['en', 'AED', 1_250.5, 'AED 1,250.50'],
    ['ru', 'KZT', 2_000_000, '2 000 000 ₸'],
  ] as const)('(%s) %s %d is %s', (language, currency, value, shown) => {
    expect(plain(formatFiat(value, currency, language))).toBe(shown);
  });

  it('a rate always has 2 decimals and its currency', () => {
    expect(plain(formatRate(95.4, 'RUB', 'ru'))).toBe('95,40 ₽');
    expect(plain(formatRate(95, 'RUB', 'en'))).toBe('₽95.00');
    expect(plain(formatRate(3.6725, 'AED', 'en'))).toBe('AED 3.67');
  });

  it('a crypto amount has up to 4 decimals and its coin', () => {
    expect(plain(formatCrypto(31.44654, 'USDT', 'en'))).toBe('31.4465 USDT');
    expect(plain(formatCrypto(1234.5, 'USDC', 'ru'))).toBe('1 234,5 USDC');
  });

  it('a currency is written with its sign where it has one', () => {
    expect(currencySign('RUB', 'ru')).toBe('₽');
    expect(currencySign('KZT', 'en')).toBe('₸');
    expect(currencySign('AED', 'en')).toBe('AED');
  });
});

describe('exact crypto amounts', () => {
  it.each([
    ['en', '1234.000000000000000001', '1,234.000000000000000001 USDT'],
    ['ru', '1234.000000000000000001', '1 234,000000000000000001 USDT'],
  ] as const)('(%s) %s keeps every digit, grouped, with its coin', (language, decimal, text) => {
    expect(plain(formatCryptoExact(decimal, 'USDT', language))).toBe(text);
  });

  it.each(['en', 'ru'] as const)(
    '(%s) an amount of 4 decimals reads exactly as formatCrypto writes it',
    (language) => {
      expect(formatCryptoExact('31.4465', 'USDT', language)).toBe(
        formatCrypto(31.4465, 'USDT', language),
      );
    },
  );
});

describe('the side of the sign', () => {
  it.each([
    ['en', 'RUB', 'before'],
    ['en', 'AED', 'before'],
    ['ru', 'RUB', 'after'],
    ['ru', 'USD', 'after'],
  ] as const)('(%s) %s: %s the digits, as formatFiat writes it', (language, currency, side) => {
    expect(currencySignSide(currency, language)).toBe(side);
    const text = formatFiat(5000, currency, language);
    const sign = currencySign(currency, language);
    expect(side === 'before' ? text.startsWith(sign) : text.endsWith(sign)).toBe(true);
  });
});
