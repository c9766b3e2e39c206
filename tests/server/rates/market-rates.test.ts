/**
 * Rates that follow the market, end to end: the server configured with the three sources, each
 * served by a local fake in its documented format. Each source is read once per its interval
 * (one instance at a time), the quote is the median of the fresh ones with the operator's spread,
 * a fault is kept as the source's state, and when too few fresh sources agree the pair stops
 * quoting: the rate call and creating an order answer RATE_UNAVAILABLE, in the customer's
 * language, while an order created before keeps its rate.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/platform/config/config';
import { marketFor } from '../../../src/server/rates/configured-market';
import { readDueSources } from '../../../src/server/rates/market-reader';
import { watchPairs } from '../../../src/server/rates/market-watch';
import type { Market } from '../../../src/server/rates/market';
import { API_PATHS, type RateResponse } from '../../../src/shared/api';
import { ERROR_HTTP_STATUS } from '../../../src/shared/errors';
import { expectError, get, headersFor, rateUrl } from '../../helpers/api';
import { ALICE } from '../../helpers/identity';
import { createPayload, orderRow, send } from '../../helpers/lifecycle';
import {
  CBR_PATH,
  COINGECKO_PATH,
  DEFAULT_COINGECKO,
  EXMO_PATH,
  startMarketFakes,
  type MarketFakes,
} from '../../helpers/market-fakes';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const MINUTE = 60_000;
let fakes: MarketFakes;
let t: TestApp;
let market: Market;

beforeAll(async () => {
  fakes = await startMarketFakes();
  const rates = loadConfig({
    RATE_SOURCES: 'coingecko,exmo,cbr',
    RATE_COINGECKO_URL: fakes.url,
    RATE_EXMO_URL: fakes.url,
    RATE_CBR_URL: fakes.url,
  });
  t = await createTestApp({
    rateSources: rates.rateSources,
    rateSourceSettings: rates.rateSourceSettings,
    rateRules: rates.rateRules,
  });
  const configured = marketFor(t.config);
  if (configured === undefined) throw new Error('the sources are configured');
  market = configured;
});
afterAll(async () => {
  await t.close();
  await fakes.stop();
});

/** CoinGecko's answer with its prices as of the test's clock. */
function coingeckoNow(rub: number): void {
  const at = Math.floor(t.clock.now() / 1000);
  fakes.coingecko({
    tether: { ...DEFAULT_COINGECKO['tether'], rub, last_updated_at: at },
    'usd-coin': { ...DEFAULT_COINGECKO['usd-coin'], rub, last_updated_at: at },
  });
}

beforeEach(async () => {
  fakes.reset();
  t.clock.advance(60 * MINUTE);
  coingeckoNow(81.2);
  // Every source due again: each test starts from a read of all three.
  await t.database.db.updateTable('rate_sources').set({ next_read_at: 0 }).execute();
});

const callsToEach = () =>
  ([COINGECKO_PATH, EXMO_PATH, CBR_PATH] as const).map((path) => fakes.calls(path));
const read = () => readDueSources(t.database.db, market.sources, t.clock.now());
const p2pBuy = (language: 'ru' | 'en' = 'en') =>
  t.app.inject({
    method: 'GET',
    url: rateUrl({
      amount: 1000,
      currency: 'RUB',
      operation: 'BUY',
      cryptoCurrency: 'USDT',
      paymentMethod: 'P2P',
    }),
    headers: { ...headersFor(ALICE), 'accept-language': language },
  });

async function spreadOf(method: 'P2P', operation: 'BUY' | 'SELL'): Promise<number> {
  const row = await t.database.db
    .selectFrom('rate_spreads')
    .select('spread_bp')
    .where('payment_method', '=', method)
    .where('operation', '=', operation)
    .executeTakeFirstOrThrow();
  return row.spread_bp;
}

describe('the quote follows the market', () => {
  it("is the median of the fresh sources with the operator's spread: 81.20 × (1 + spread)", async () => {
    const outcomes = await read();
    expect(outcomes.map((o) => [o.source, 'read' in o])).toEqual([
      ['coingecko', true],
      ['exmo', true],
      ['cbr', true],
    ]);
    const res = await p2pBuy();
    expect(res.statusCode, res.body).toBe(200);
    // CoinGecko 81.20 and EXMO's mid (81.10 + 81.30) / 2 agree; the bank's cross (1.0002 ×
    // 78.1234) is over 150 bp off and left out.
    const spread = await spreadOf('P2P', 'BUY');
    expect(res.json<RateResponse>().rate).toBe(Math.round(81.2 * (10_000 + spread)) / 10_000);
  });

  it('moves when the market moves, with no operator', async () => {
    await read();
    const before = (await p2pBuy()).json<RateResponse>().rate;
    t.clock.advance(5 * MINUTE);
    coingeckoNow(82.0);
    fakes.exmo({ ask: [['82.1', '1000']], bid: [['81.9', '1000']] });
    await read();
    const after = (await p2pBuy()).json<RateResponse>().rate;
    expect(after).toBeGreaterThan(before);
  });

  it('reads each source once per its interval, however many quotes are asked', async () => {
    await read();
    for (let i = 0; i < 20; i++) await p2pBuy();
    await read();
    t.clock.advance(20_000);
    await read();
    expect(callsToEach()).toEqual([1, 1, 1]);
    t.clock.advance(15_000);
    await read();
    // EXMO every 30 s; CoinGecko every 270 s, the bank every hour.
    expect(callsToEach()).toEqual([1, 2, 1]);
  });

  it('two instances reading at once read each source once (the lease)', async () => {
    await Promise.all([read(), read()]);
    expect(callsToEach()).toEqual([1, 1, 1]);
  });
});

describe('never a stale price', () => {
  it('a source answering 429 keeps its fault and is left alone for its Retry-After; the others still quote', async () => {
    fakes.fail(EXMO_PATH, { kind: 'status', status: 429, headers: { 'retry-after': '120' } });
    const outcomes = await read();
    const exmo = outcomes.find((o) => o.source === 'exmo');
    expect(exmo !== undefined && 'fault' in exmo ? exmo.fault.kind : undefined).toBe(
      'rate_limited',
    );
    expect(
      await t.database.db
        .selectFrom('rate_sources')
        .select(['fault_kind', 'next_read_at'])
        .where('name', '=', 'exmo')
        .executeTakeFirstOrThrow(),
    ).toEqual({ fault_kind: 'rate_limited', next_read_at: t.clock.now() + 120_000 });
    t.clock.advance(60_000);
    await read();
    expect(fakes.calls(EXMO_PATH)).toBe(1);
    // CoinGecko and the bank's cross of CoinGecko's dollar price disagree (over 150 bp): with
    // EXMO silent no two fresh sources agree.
    expectError(await p2pBuy(), 'RATE_UNAVAILABLE');
  });

  it("with no fresh read for RATE_SOURCE_MAX_AGE the pair stops quoting: 503 RATE_UNAVAILABLE in the customer's language", async () => {
    await read();
    expect((await p2pBuy()).statusCode).toBe(200);
    t.clock.advance(5 * MINUTE + 1_000);
    fakes.fail(COINGECKO_PATH, { kind: 'status', status: 500 });
    fakes.fail(EXMO_PATH, { kind: 'status', status: 503 });
    await read();
    const en = expectError(await p2pBuy('en'), 'RATE_UNAVAILABLE');
    const ru = expectError(await p2pBuy('ru'), 'RATE_UNAVAILABLE');
    expect(en.error).toBe(
      'The rate is being updated. Try again in a minute: what you entered is kept.',
    );
    expect(ru.error).toBe('Курс обновляется. Попробуйте через минуту: введённое сохранится.');
    expect(ERROR_HTTP_STATUS.RATE_UNAVAILABLE).toBe(503);
  });

  it('creating an order on a pair that stopped quoting is refused; an order created before keeps its rate', async () => {
    await read();
    const rate = (await p2pBuy()).json<RateResponse>().rate;
    const created = await send(
      t,
      'POST',
      API_PATHS.createOrder,
      ALICE,
      createPayload('p2pBuy', rate),
    );
    expect(created.statusCode, created.body).toBe(201);
    const orderId = created.json<{ orderId: string }>().orderId;
    t.clock.advance(5 * MINUTE + 1_000);
    const refused = await send(
      t,
      'POST',
      API_PATHS.createOrder,
      ALICE,
      createPayload('p2pBuy', rate),
    );
    expectError(refused, 'RATE_UNAVAILABLE');
    expect((await orderRow(t.database.db, orderId)).rate_units).toBe(Math.round(rate * 1_000_000));
  });
});

describe('the operators are told', () => {
  const alerts = (kind: 'rate_unavailable' | 'rate_back') =>
    t.database.db
      .selectFrom('notifications')
      .select(['recipient', 'payload'])
      .where('kind', '=', kind)
      .execute();
  const aboutUsdtRub = async (kind: 'rate_unavailable' | 'rate_back') =>
    (await alerts(kind)).filter((row) => {
      const facts = JSON.parse(row.payload) as { crypto: string; fiat: string };
      return facts.crypto === 'USDT' && facts.fiat === 'RUB';
    });

  it("once when a pair stops being quoted, with each source's price and state, and once when it is back", async () => {
    await read();
    await watchPairs(t.database.db, market, t.clock.now());
    const before = (await aboutUsdtRub('rate_unavailable')).length;
    t.clock.advance(5 * MINUTE + 1_000);
    expect(await watchPairs(t.database.db, market, t.clock.now())).toContainEqual({
      crypto: 'USDT',
      fiat: 'RUB',
      quoting: false,
    });
    // Looked at again, by this instance or another: told once.
    await watchPairs(t.database.db, market, t.clock.now());
    const told = await aboutUsdtRub('rate_unavailable');
    expect(told).toHaveLength(before + 1);
    expect(told.at(-1)?.recipient).toBe('operators');
    expect(JSON.parse(told.at(-1)?.payload ?? '{}')).toMatchObject({
      crypto: 'USDT',
      fiat: 'RUB',
      sources: [
        { source: 'coingecko', price: 81.2, state: 'stale' },
        { source: 'exmo', price: 81.2, state: 'stale' },
      ],
    });
    coingeckoNow(81.2);
    await t.database.db.updateTable('rate_sources').set({ next_read_at: 0 }).execute();
    await read();
    expect(await watchPairs(t.database.db, market, t.clock.now())).toContainEqual({
      crypto: 'USDT',
      fiat: 'RUB',
      quoting: true,
    });
    const back = await aboutUsdtRub('rate_back');
    expect(JSON.parse(back.at(-1)?.payload ?? '{}')).toMatchObject({ base: 81.2 });
  });
});

describe('the metrics', () => {
  it("give each source's age and fault, and each pair's base and whether it quotes", async () => {
    fakes.fail(CBR_PATH, { kind: 'status', status: 500 });
    await read();
    t.clock.advance(10_000);
    const res = await t.app.inject({
      method: 'GET',
      url: API_PATHS.metrics,
      remoteAddress: '127.0.0.1',
    });
    const value = (line: string) =>
      Number(new RegExp(`^${line.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(res.body)?.[1]);
    expect(value('exchange_rate_source_age_seconds{source="exmo"}')).toBe(10);
    expect(value('exchange_rate_source_failing{source="exmo"}')).toBe(0);
    expect(value('exchange_rate_source_failing{source="cbr"}')).toBe(1);
    expect(value('exchange_rate_quoting{crypto="USDT",fiat="RUB"}')).toBe(1);
    expect(value('exchange_rate_base{crypto="USDT",fiat="RUB"}')).toBe(81.2);
    // USDC in dollars: CoinGecko's own price and the bank's cross (CoinGecko's rouble price ÷
    // the bank's dollar, 81.15 / 78.1234) are over 150 bp apart: no two agree.
    expect(value('exchange_rate_quoting{crypto="USDC",fiat="USD"}')).toBe(0);
  });
});

describe('without sources', () => {
  it('the server quotes the rates operators set, as before', async () => {
    const plain = await createTestApp();
    try {
      expect(marketFor(plain.config)).toBeUndefined();
      const res = await get(
        plain,
        rateUrl({
          amount: 1000,
          currency: 'RUB',
          operation: 'BUY',
          cryptoCurrency: 'USDT',
          paymentMethod: 'P2P',
        }),
        ALICE,
      );
      expect(res.statusCode).toBe(200);
    } finally {
      await plain.close();
    }
  });
});
