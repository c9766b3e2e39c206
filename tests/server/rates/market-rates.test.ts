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
import { OPERATOR_PATHS, type OperatorRatesResponse } from '../../../src/shared/operator-api';
import { pruneRateHistory, RATE_HISTORY_KEPT_MS } from '../../../src/server/rates/rate-history';
import { ERROR_HTTP_STATUS } from '../../../src/shared/errors';
import { applyBasisPoints, fromUnits } from '../../../src/shared/money';
import { expectError, get, headersFor, rateUrl } from '../../helpers/api';
import { ALICE } from '../../helpers/identity';
import { createPayload, OPERATOR, orderRow, send } from '../../helpers/lifecycle';
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
    operatorIds: [OPERATOR.id],
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
/** What the job does each tick: read the sources due, then look at every pair. */
async function read() {
  const outcomes = await readDueSources(t.database.db, market.sources, t.clock.now());
  await watchPairs(t.database.db, market, t.clock.now());
  return outcomes;
}
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
      events: [],
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
    await readDueSources(t.database.db, market.sources, t.clock.now());
    expect(await watchPairs(t.database.db, market, t.clock.now())).toContainEqual({
      crypto: 'USDT',
      fiat: 'RUB',
      quoting: true,
      events: [],
    });
    const back = await aboutUsdtRub('rate_back');
    expect(JSON.parse(back.at(-1)?.payload ?? '{}')).toMatchObject({ base: 81.2 });
  });
});

/** Both market sources quote USDT at `rub` now (EXMO's mid of a tight book around it). */
function marketAt(rub: number): void {
  coingeckoNow(rub);
  fakes.exmo({ ask: [[(rub + 0.1).toFixed(2), '1000']], bid: [[(rub - 0.1).toFixed(2), '1000']] });
}

/** Every source due again, as its interval passed. */
const due = () => t.database.db.updateTable('rate_sources').set({ next_read_at: 0 }).execute();

const ratesScreen = async () =>
  (await send(t, 'GET', OPERATOR_PATHS.rates, OPERATOR)).json<OperatorRatesResponse>();
const usdtRub = async () => {
  const pair = (await ratesScreen()).market?.pairs.find(
    (p) => p.crypto === 'USDT' && p.fiat === 'RUB',
  );
  if (pair === undefined) throw new Error('USDT/RUB is listed');
  return pair;
};
const changesOf = async (kind: string) =>
  (await ratesScreen()).changes.filter((c) => c.kind === kind && c.subject === 'USDT/RUB');
const jumpAlerts = async () =>
  (
    await t.database.db
      .selectFrom('notifications')
      .select('payload')
      .where('kind', '=', 'rate_jump')
      .execute()
  )
    .map(
      (row) =>
        JSON.parse(row.payload) as { crypto: string; fiat: string; from: number; to: number },
    )
    .filter((facts) => facts.crypto === 'USDT' && facts.fiat === 'RUB');
const quotedAt = async () => {
  const res = await p2pBuy();
  return res.statusCode === 200 ? res.json<RateResponse>().rate : res.json<{ code: string }>().code;
};
/** The customer's P2P buy quote at `base`, as the server rounds it. */
const withSpread = async (base: number) =>
  fromUnits(applyBasisPoints(base * 1_000_000, await spreadOf('P2P', 'BUY')));

describe('a jump is held (RATE_JUMP_BP within 10 minutes)', () => {
  /** The market at 81.20, then 4 % higher a minute later: a jump. */
  async function jump(): Promise<void> {
    marketAt(81.2);
    await read();
    expect(await quotedAt()).toBe(await withSpread(81.2));
    t.clock.advance(MINUTE);
    marketAt(84.5);
    await due();
    await read();
  }

  it('stops the quote and alerts the operators with the figures; an operator confirming it quotes the new base, audited', async () => {
    const before = (await jumpAlerts()).length;
    await jump();
    expect(await quotedAt()).toBe('RATE_UNAVAILABLE');
    const alerts = await jumpAlerts();
    expect(alerts).toHaveLength(before + 1);
    expect(alerts.at(-1)).toMatchObject({ crypto: 'USDT', fiat: 'RUB', from: 81.2, to: 84.5 });
    const held = await usdtRub();
    expect(held).toMatchObject({
      base: null,
      unquoted: 'jump_held',
      median: 84.5,
      accepted: 81.2,
      held: { rate: 84.5, from: 81.2 },
      quotes: [],
    });
    // Looked at again: held still, told once.
    await read();
    expect(await jumpAlerts()).toHaveLength(before + 1);

    const confirmed = await send(t, 'POST', OPERATOR_PATHS.rateJump, OPERATOR, {
      crypto: 'USDT',
      fiat: 'RUB',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await quotedAt()).toBe(await withSpread(84.5));
    expect((await changesOf('jump_confirmed'))[0]).toMatchObject({
      operatorId: OPERATOR.id,
      before: 81.2,
      after: 84.5,
    });
    // Nothing waits any more: a second confirmation is told so.
    const again = await send(t, 'POST', OPERATOR_PATHS.rateJump, OPERATOR, {
      crypto: 'USDT',
      fiat: 'RUB',
    });
    expectError(again, 'RATE_JUMP_NOT_HELD');
  });

  it('is taken by itself once the sources agreed on it for RATE_JUMP_AGREE, audited as the server’s', async () => {
    await jump();
    for (let waited = 0; waited < t.config.rateRules.jumpAgreeMs; waited += 2 * MINUTE) {
      expect(await quotedAt()).toBe('RATE_UNAVAILABLE');
      t.clock.advance(2 * MINUTE);
      marketAt(84.5);
      await due();
      await read();
    }
    expect(await quotedAt()).toBe(await withSpread(84.5));
    expect((await changesOf('jump_agreed'))[0]).toMatchObject({
      operatorId: null,
      before: 81.2,
      after: 84.5,
    });
  });

  it('ends by itself when the market comes back near the base it had', async () => {
    await jump();
    t.clock.advance(MINUTE);
    marketAt(81.3);
    await due();
    await read();
    expect(await quotedAt()).toBe(await withSpread(81.3));
    expect((await usdtRub()).held).toBeNull();
  });

  it('a move within the band is followed at once, with no one asked', async () => {
    marketAt(81.2);
    await read();
    t.clock.advance(MINUTE);
    marketAt(83.2); // 2.5 %
    await due();
    await read();
    expect(await quotedAt()).toBe(await withSpread(83.2));
  });
});

describe('an operator fixes a pair’s rate for a time', () => {
  const fix = (baseRate: number | null, extra: Record<string, unknown> = {}) =>
    send(t, 'PUT', OPERATOR_PATHS.rateFix, OPERATOR, {
      crypto: 'USDT',
      fiat: 'RUB',
      baseRate,
      ...extra,
    });

  it('quotes the fixed base until it expires, even with every source down; then the market again, told and audited', async () => {
    marketAt(81.2);
    await read();
    const fixed = await fix(82, { hours: 1 });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(await quotedAt()).toBe(await withSpread(82));
    expect((await usdtRub()).fixed).toMatchObject({ rate: 82, by: OPERATOR.id });
    expect((await changesOf('fixed'))[0]).toMatchObject({ before: 81.2, after: 82 });

    // The market gone: the fixed base still quotes.
    t.clock.advance(30 * MINUTE);
    fakes.fail(COINGECKO_PATH, { kind: 'status', status: 500 });
    fakes.fail(EXMO_PATH, { kind: 'status', status: 500 });
    await due();
    await read();
    expect(await quotedAt()).toBe(await withSpread(82));

    // The hour over, the market back: it follows the market, and the operators are told.
    t.clock.advance(31 * MINUTE);
    fakes.reset();
    marketAt(81.4);
    await due();
    await read();
    expect(await quotedAt()).toBe(await withSpread(81.4));
    expect((await usdtRub()).fixed).toBeNull();
    expect((await changesOf('fix_expired'))[0]).toMatchObject({ operatorId: null, before: 82 });
    const ended = await t.database.db
      .selectFrom('notifications')
      .select('payload')
      .where('kind', '=', 'rate_fix_ended')
      .execute();
    expect(JSON.parse(ended.at(-1)?.payload ?? '{}')).toMatchObject({ fixed: 82, base: 81.4 });
  });

  it('a fixed base more than 5 % from the quoted one needs the second confirmation; ended early, it is audited', async () => {
    marketAt(81.2);
    await read();
    expectError(await fix(90), 'RATE_CHANGE_UNCONFIRMED');
    expect(await quotedAt()).toBe(await withSpread(81.2));
    expect((await fix(90, { confirmLargeChange: true })).statusCode).toBe(200);
    expect(await quotedAt()).toBe(await withSpread(90));
    expect((await fix(null)).statusCode).toBe(200);
    expect(await quotedAt()).toBe(await withSpread(81.2));
    expect((await changesOf('unfixed'))[0]).toMatchObject({ operatorId: OPERATOR.id, before: 90 });
  });
});

describe('the history', () => {
  it('keeps RATE_HISTORY_KEPT_MS: older prices and bases are removed, newer ones kept', async () => {
    await read();
    const now = t.clock.now();
    await t.database.db
      .insertInto('rate_history')
      .values(
        Array.from({ length: 250 }, (_, i) => ({
          source: 'exmo',
          base: 'USDT' as const,
          quote: 'RUB' as const,
          units: 81_200_000,
          read_at: now - RATE_HISTORY_KEPT_MS - 1_000 - i,
        })),
      )
      .execute();
    const count = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('rate_history')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect(await pruneRateHistory(t.database.db, now)).toBeGreaterThanOrEqual(250);
    expect(await count()).toBeLessThanOrEqual(before - 250);
    expect(await count()).toBeGreaterThan(0);
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
