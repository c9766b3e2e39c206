/**
 * The base of a pair from the sources' prices: the median of the fresh candidates that agree,
 * an outlier left out, a stale price never used, too few agreeing sources no base at all, and a
 * bank's rates crossed with the market's price for the currencies an office takes.
 */
import { describe, expect, it } from 'vitest';
import {
  DAILY_READ_MAX_AGE_MS,
  marketBase,
  median,
  type Cadence,
  type StoredPrice,
} from '../../../src/server/rates/market-base';

const NOW = Date.UTC(2026, 11, 2, 12, 0, 0);
const MINUTE = 60_000;
const RULES = { maxAgeMs: 5 * MINUTE, outlierBp: 150, minSources: 2 };
const CADENCES = new Map<string, Cadence>([
  ['coingecko', 'market'],
  ['exmo', 'market'],
  ['cbr', 'daily'],
]);
const USDT_RUB = { crypto: 'USDT', fiat: 'RUB' } as const;

const price = (
  source: string,
  base: StoredPrice['base'],
  quote: StoredPrice['quote'],
  value: number,
  age = MINUTE,
): StoredPrice => ({
  source,
  base,
  quote,
  units: Math.round(value * 1_000_000),
  at: NOW - age,
  readAt: NOW - age,
});

/** The bank's rates of today, read a minute ago. */
const bank = (usd: number, more: Partial<Record<'EUR' | 'AED' | 'KZT', number>> = {}) => [
  price('cbr', 'USD', 'RUB', usd),
  ...Object.entries(more).map(([fiat, value]) =>
    price('cbr', fiat as 'EUR' | 'AED' | 'KZT', 'RUB', value),
  ),
];

describe('median', () => {
  it('is the middle value, the mean of the middle two for an even count, rounded to a unit', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(3);
    expect(median([1, 2])).toBe(2);
    expect(median([])).toBeUndefined();
  });
});

describe('the base of a pair', () => {
  it('is the median of the fresh sources that agree: the two markets and the bank cross', () => {
    const base = marketBase(
      [
        price('coingecko', 'USDT', 'RUB', 81.0),
        price('coingecko', 'USDT', 'USD', 1.0),
        price('exmo', 'USDT', 'RUB', 81.4),
        ...bank(81.2),
      ],
      CADENCES,
      USDT_RUB,
      NOW,
      RULES,
    );
    expect(base.candidates.map((c) => [c.source, c.units, c.state, c.crossed])).toEqual([
      ['coingecko', 81_000_000, 'fresh', false],
      ['exmo', 81_400_000, 'fresh', false],
      ['cbr', 81_200_000, 'fresh', true],
    ]);
    expect(base.units).toBe(81_200_000);
  });

  it(`leaves out a source more than ${RULES.outlierBp} bp from the others' median, flagged as an outlier`, () => {
    const base = marketBase(
      [
        price('coingecko', 'USDT', 'RUB', 81.0),
        price('coingecko', 'USDT', 'USD', 1.0),
        price('exmo', 'USDT', 'RUB', 90.0),
        ...bank(81.2),
      ],
      CADENCES,
      USDT_RUB,
      NOW,
      RULES,
    );
    expect(base.candidates.find((c) => c.source === 'exmo')?.state).toBe('outlier');
    expect(base.units).toBe(81_100_000);
  });

  it(`never uses a market price older than RATE_SOURCE_MAX_AGE: with one fresh source left, no base`, () => {
    const base = marketBase(
      [price('coingecko', 'USDT', 'RUB', 81.0), price('exmo', 'USDT', 'RUB', 81.2, 6 * MINUTE)],
      CADENCES,
      USDT_RUB,
      NOW,
      RULES,
    );
    expect(base.candidates.map((c) => c.state)).toEqual(['fresh', 'stale']);
    expect(base.units).toBeUndefined();
    expect(marketBase([], CADENCES, USDT_RUB, NOW, RULES).units).toBeUndefined();
  });

  it('two sources further apart than the band agree on nothing: no base', () => {
    const base = marketBase(
      [price('coingecko', 'USDT', 'RUB', 81.0), price('exmo', 'USDT', 'RUB', 83.0)],
      CADENCES,
      USDT_RUB,
      NOW,
      RULES,
    );
    expect(base.candidates.map((c) => c.state)).toEqual(['outlier', 'outlier']);
    expect(base.units).toBeUndefined();
  });

  it('RATE_MIN_SOURCES 1 quotes from one fresh source', () => {
    const base = marketBase([price('exmo', 'USDT', 'RUB', 81.2)], CADENCES, USDT_RUB, NOW, {
      ...RULES,
      minSources: 1,
    });
    expect(base.units).toBe(81_200_000);
  });
});

describe("an office's currencies through the bank's rates", () => {
  it("a rouble price is crossed with the bank's rate of the currency; the bank crosses the coin's dollar price", () => {
    const base = marketBase(
      [
        price('coingecko', 'USDT', 'EUR', 0.93),
        price('coingecko', 'USDT', 'USD', 1.0),
        price('exmo', 'USDT', 'RUB', 81.0),
        ...bank(81.0, { EUR: 87.0 }),
      ],
      CADENCES,
      { crypto: 'USDT', fiat: 'EUR' },
      NOW,
      RULES,
    );
    expect(base.candidates.map((c) => [c.source, c.units, c.crossed])).toEqual([
      ['coingecko', 930_000, false],
      // 81.0 / 87.0 and 1.0 × 81.0 / 87.0
      ['exmo', 931_034, true],
      ['cbr', 931_034, true],
    ]);
    expect(base.units).toBe(931_034);
  });

  it("KZT, which the bank quotes per 100, is crossed per one tenge (the reader's units)", () => {
    const base = marketBase(
      [
        price('exmo', 'USDT', 'RUB', 80.0),
        price('coingecko', 'USDT', 'USD', 1.0),
        ...bank(80.0, { KZT: 0.16 }),
      ],
      CADENCES,
      { crypto: 'USDT', fiat: 'KZT' },
      NOW,
      RULES,
    );
    expect(base.units).toBe(500_000_000);
  });

  it('a bank rate the bank no longer answers (its last read over 6 h ago) is stale, and so is its cross', () => {
    const old = DAILY_READ_MAX_AGE_MS + MINUTE;
    const base = marketBase(
      [
        price('exmo', 'USDT', 'RUB', 81.0),
        price('coingecko', 'USDT', 'USD', 1.0),
        price('cbr', 'USD', 'RUB', 81.0, old),
        price('cbr', 'EUR', 'RUB', 87.0, old),
      ],
      CADENCES,
      { crypto: 'USDT', fiat: 'EUR' },
      NOW,
      RULES,
    );
    expect(base.candidates.map((c) => [c.source, c.state])).toEqual([
      ['exmo', 'stale'],
      ['cbr', 'stale'],
    ]);
    expect(base.units).toBeUndefined();
  });

  it("the dollar's bank cross is the market's rouble price ÷ the bank's USD/RUB", () => {
    const base = marketBase(
      [
        price('coingecko', 'USDC', 'USD', 0.9998),
        price('coingecko', 'USDC', 'RUB', 81.0),
        price('exmo', 'USDT', 'RUB', 81.0),
        ...bank(81.0),
      ],
      CADENCES,
      { crypto: 'USDC', fiat: 'USD' },
      NOW,
      RULES,
    );
    expect(base.candidates.map((c) => [c.source, c.units])).toEqual([
      ['coingecko', 999_800],
      ['cbr', 1_000_000],
    ]);
    expect(base.units).toBe(999_900);
  });
});
