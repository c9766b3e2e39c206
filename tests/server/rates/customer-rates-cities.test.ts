/**
 * `GET /api/rates/calculate` and `GET /api/cities/{code}`: the server's own
 * quote and the cities an office buy can choose.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_CITIES } from '../../../src/server/platform/db/seed/offices';
import { API_PATHS, type CitiesResponse, type RateResponse } from '../../../src/shared/api';
import { LISTED_CURRENCIES } from '../../../src/shared/currencies';
import type { CryptoCurrency } from '../../../src/shared/networks';
import type { OrderType, PaymentMethod } from '../../../src/shared/order-status';
import { expectError, expiredInitData, forgedInitData, get, rateUrl } from '../../helpers/api';
import { ALICE, authHeader, initDataFor } from '../../helpers/identity';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const query = (
  currency: string,
  operation: OrderType,
  cryptoCurrency: CryptoCurrency,
  paymentMethod: PaymentMethod,
) => rateUrl({ amount: 1000, currency, operation, cryptoCurrency, paymentMethod });

/**
 * The quote worked out here from the stored base rate and spread, independently of the server's
 * code: base × (1 ± spread), rounded to 2 decimals.
 */
async function expectedRate(
  currency: string,
  operation: OrderType,
  crypto: CryptoCurrency,
  method: PaymentMethod,
): Promise<number> {
  const base = await t.database.db
    .selectFrom('rates')
    .select('base_rate_units')
    .where('fiat', '=', currency)
    .where('crypto', '=', crypto)
    .executeTakeFirstOrThrow();
  const spread = await t.database.db
    .selectFrom('rate_spreads')
    .select('spread_bp')
    .where('payment_method', '=', method)
    .where('operation', '=', operation)
    .executeTakeFirstOrThrow();
  const factor = operation === 'BUY' ? 10_000 + spread.spread_bp : 10_000 - spread.spread_bp;
  // base is in millionths; base × factor / 10^4 millionths = × / 10^10 whole; cents = / 10^8.
  return Math.round((base.base_rate_units * factor) / 100_000_000) / 100;
}

const hasTwoDecimals = (n: number) => Math.abs(Math.round(n * 100) / 100 - n) < 1e-9;

describe('GET /api/rates/calculate', () => {
  it.each(['USDT', 'USDC'] as const)(
    'P2P %s: answers {rate} with 2 decimals, the base with the spread, BUY above SELL',
    async (crypto) => {
      const buy = await get(t, query('RUB', 'BUY', crypto, 'P2P'), ALICE);
      const sell = await get(t, query('RUB', 'SELL', crypto, 'P2P'), ALICE);
      expect(buy.statusCode).toBe(200);
      expect(sell.statusCode).toBe(200);
      expect(buy.headers['cache-control']).toBe('no-store');
      const buyRate = buy.json<RateResponse>();
      const sellRate = sell.json<RateResponse>();
      expect(Object.keys(buyRate)).toEqual(['rate']);
      expect(buyRate.rate).toBe(await expectedRate('RUB', 'BUY', crypto, 'P2P'));
      expect(sellRate.rate).toBe(await expectedRate('RUB', 'SELL', crypto, 'P2P'));
      expect(hasTwoDecimals(buyRate.rate)).toBe(true);
      expect(hasTwoDecimals(sellRate.rate)).toBe(true);
      expect(buyRate.rate).toBeGreaterThan(sellRate.rate);
    },
  );

  it('P2P USDT: the seeded quote is 97.79 to buy and 93.02 to sell (95.40 ± 2.5 %)', async () => {
    const buy = await get(t, query('RUB', 'BUY', 'USDT', 'P2P'), ALICE);
    const sell = await get(t, query('RUB', 'SELL', 'USDT', 'P2P'), ALICE);
    expect(buy.json()).toEqual({ rate: 97.79 });
    expect(sell.json()).toEqual({ rate: 93.02 });
  });

  it('paymentMethod defaults to P2P when the query leaves it out', async () => {
    const res = await get(
      t,
      rateUrl({ amount: 1000, currency: 'RUB', operation: 'BUY', cryptoCurrency: 'USDT' }),
      ALICE,
    );
    expect(res.json()).toEqual({ rate: await expectedRate('RUB', 'BUY', 'USDT', 'P2P') });
  });

  it('BANK_ACCOUNT buy in RUB answers a 2-decimal rate below the P2P buy rate', async () => {
    const bank = await get(t, query('RUB', 'BUY', 'USDT', 'BANK_ACCOUNT'), ALICE);
    expect(bank.statusCode).toBe(200);
    const rate = bank.json<RateResponse>().rate;
    expect(rate).toBe(await expectedRate('RUB', 'BUY', 'USDT', 'BANK_ACCOUNT'));
    expect(hasTwoDecimals(rate)).toBe(true);
    expect(rate).toBeLessThan(await expectedRate('RUB', 'BUY', 'USDT', 'P2P'));
  });

  it.each(LISTED_CURRENCIES)(
    'OFFICE buy in %s answers a 2-decimal rate for both coins',
    async (currency) => {
      for (const crypto of ['USDT', 'USDC'] as const) {
        const res = await get(t, query(currency, 'BUY', crypto, 'OFFICE'), ALICE);
        expect(res.statusCode, `${currency} ${crypto}`).toBe(200);
        const { rate } = res.json<RateResponse>();
        expect(rate).toBe(await expectedRate(currency, 'BUY', crypto, 'OFFICE'));
        expect(rate).toBeGreaterThan(0);
        expect(hasTwoDecimals(rate)).toBe(true);
      }
    },
  );

  it.each([
    ['an unknown currency', rateUrl({ currency: 'XYZ', operation: 'BUY', cryptoCurrency: 'USDT' })],
    [
      'an unlisted currency at an office',
      rateUrl({
        currency: 'CNY',
        operation: 'BUY',
        cryptoCurrency: 'USDT',
        paymentMethod: 'OFFICE',
      }),
    ],
    [
      'a lower-case currency',
      rateUrl({ currency: 'rub', operation: 'BUY', cryptoCurrency: 'USDT' }),
    ],
    [
      'an unknown operation',
      rateUrl({ currency: 'RUB', operation: 'SWAP', cryptoCurrency: 'USDT' }),
    ],
    ['an unknown coin', rateUrl({ currency: 'RUB', operation: 'BUY', cryptoCurrency: 'BTC' })],
    [
      'an unknown method',
      rateUrl({ currency: 'RUB', operation: 'BUY', cryptoCurrency: 'USDT', paymentMethod: 'CARD' }),
    ],
    [
      'a bank-account SELL (bank is buy only)',
      rateUrl({
        currency: 'RUB',
        operation: 'SELL',
        cryptoCurrency: 'USDT',
        paymentMethod: 'BANK_ACCOUNT',
      }),
    ],
    [
      'an office SELL (office is buy only)',
      rateUrl({
        currency: 'USD',
        operation: 'SELL',
        cryptoCurrency: 'USDT',
        paymentMethod: 'OFFICE',
      }),
    ],
    [
      'P2P in USD (P2P is roubles only)',
      rateUrl({ currency: 'USD', operation: 'BUY', cryptoCurrency: 'USDT', paymentMethod: 'P2P' }),
    ],
    [
      'a bank-account buy in EUR',
      rateUrl({
        currency: 'EUR',
        operation: 'BUY',
        cryptoCurrency: 'USDT',
        paymentMethod: 'BANK_ACCOUNT',
      }),
    ],
    [
      'a non-numeric amount',
      rateUrl({ amount: 'abc', currency: 'RUB', operation: 'BUY', cryptoCurrency: 'USDT' }),
    ],
    [
      'a negative amount',
      rateUrl({ amount: -5, currency: 'RUB', operation: 'BUY', cryptoCurrency: 'USDT' }),
    ],
    ['no currency at all', rateUrl({ operation: 'BUY', cryptoCurrency: 'USDT' })],
  ])('refuses %s with 400 VALIDATION_FAILED', async (_name, url) => {
    expectError(await get(t, url, ALICE), 'VALIDATION_FAILED');
  });

  it('needs identity: no init data is 401 AUTH_MISSING', async () => {
    expectError(await get(t, query('RUB', 'BUY', 'USDT', 'P2P')), 'AUTH_MISSING');
  });

  it('needs identity: forged init data is 401 AUTH_INVALID', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: query('RUB', 'BUY', 'USDT', 'P2P'),
      headers: authHeader(forgedInitData(ALICE)),
    });
    expectError(res, 'AUTH_INVALID');
  });

  it('needs identity: init data signed two days ago is 401 AUTH_EXPIRED', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: query('RUB', 'BUY', 'USDT', 'P2P'),
      headers: authHeader(expiredInitData(ALICE)),
    });
    expectError(res, 'AUTH_EXPIRED');
  });

  it("accepts the spec's telegramInitData query field instead of the header", async () => {
    const url = `${query('RUB', 'BUY', 'USDT', 'P2P')}&telegramInitData=${encodeURIComponent(
      initDataFor(ALICE),
    )}`;
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.json<RateResponse>().rate).toBeGreaterThan(0);
  });
});

describe('GET /api/cities/{currencyCode}', () => {
  it.each(LISTED_CURRENCIES)(
    '%s answers {data} with id, nameRu, nameEn and countryCode of the cities that take it',
    async (currency) => {
      const res = await get(t, API_PATHS.cities(currency));
      expect(res.statusCode).toBe(200);
      const expected = SEED_CITIES.filter((city) => city.currencies.includes(currency)).map(
        (city) => ({
          id: city.id,
          nameRu: city.nameRu,
          nameEn: city.nameEn,
          countryCode: city.countryCode,
        }),
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(res.json<CitiesResponse>()).toEqual({ data: expected });
    },
  );

  it('accepts the currency code in lower case', async () => {
    const lower = await get(t, API_PATHS.cities('aed'));
    const upper = await get(t, API_PATHS.cities('AED'));
    expect(lower.statusCode).toBe(200);
    expect(lower.json()).toEqual(upper.json());
    expect(lower.json<CitiesResponse>().data.map((c) => c.id)).toContain('dubai');
  });

  it('does not list a city for a currency its offices do not take (no Belgrade for AED)', async () => {
    const ids = (await get(t, API_PATHS.cities('AED')))
      .json<CitiesResponse>()
      .data.map((c) => c.id);
    expect(ids).not.toContain('belgrade');
    expect(ids).not.toContain('moscow');
  });

  it.each(['AMD', 'CNY', 'XYZ', 'R', 'RUBLES', 'X'.repeat(300)])(
    'answers 404 NOT_FOUND for %s, which is not a listed currency',
    async (code) => {
      // 'X'.repeat(300) is longer than the router's parameter limit: still our own code.
      expectError(await get(t, API_PATHS.cities(code)), 'NOT_FOUND');
    },
  );
});
