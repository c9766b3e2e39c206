/**
 * The CoinGecko source against a fake of `simple/price` in its documented format
 * (tests/helpers/market-fakes.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  coinGeckoSource,
  type CoinGeckoOptions,
} from '../../../../src/server/rates/sources/coingecko';
import {
  COINGECKO_PATH,
  faultOf,
  startMarketFakes,
  type MarketFakes,
} from '../../../helpers/market-fakes';

let fakes: MarketFakes;

beforeAll(async () => {
  fakes = await startMarketFakes();
});
afterAll(async () => {
  await fakes.stop();
});
beforeEach(() => {
  fakes.reset();
});

function read(options: Partial<CoinGeckoOptions> = {}) {
  return coinGeckoSource({ url: fakes.url, timeoutMs: 2_000, ...options }).read(
    AbortSignal.timeout(10_000),
    Date.now(),
  );
}

describe('coingecko: a normal answer', () => {
  it('answers both coins in every listed currency, in millionths, at the time CoinGecko gives', async () => {
    const prices = await read();
    expect(prices).toHaveLength(10);
    expect(prices).toContainEqual({
      base: 'USDT',
      quote: 'RUB',
      units: 81_200_000,
      at: 1711356300_000,
    });
    expect(prices).toContainEqual({
      base: 'USDT',
      quote: 'KZT',
      units: 512_370_000,
      at: 1711356300_000,
    });
    expect(prices).toContainEqual({
      base: 'USDC',
      quote: 'AED',
      units: 3_672_000,
      at: 1711356290_000,
    });
    expect(prices).toContainEqual({
      base: 'USDC',
      quote: 'USD',
      units: 999_900,
      at: 1711356290_000,
    });
  });

  it('asks for tether and usd-coin in rub, usd, eur, aed and kzt with their update time, once', async () => {
    await read();
    expect(fakes.calls(COINGECKO_PATH)).toBe(1);
    const [request] = fakes.requests(COINGECKO_PATH);
    expect(request?.query.get('ids')).toBe('tether,usd-coin');
    expect(request?.query.get('vs_currencies')).toBe('rub,usd,eur,aed,kzt');
    expect(request?.query.get('include_last_updated_at')).toBe('true');
    expect(request?.headers['x-cg-demo-api-key']).toBeUndefined();
  });

  it('sends a demo key in x-cg-demo-api-key and a pro key in x-cg-pro-api-key', async () => {
    await read({ apiKey: 'CG-demo' });
    await read({ apiKey: 'CG-pro', plan: 'pro' });
    const [demo, pro] = fakes.requests(COINGECKO_PATH);
    expect(demo?.headers['x-cg-demo-api-key']).toBe('CG-demo');
    expect(demo?.headers['x-cg-pro-api-key']).toBeUndefined();
    expect(pro?.headers['x-cg-pro-api-key']).toBe('CG-pro');
    expect(pro?.headers['x-cg-demo-api-key']).toBeUndefined();
  });

  it('leaves out a coin or currency the answer lacks, or gives as null, without a fault', async () => {
    fakes.coingecko({ tether: { rub: 80.5, usd: null, last_updated_at: 1711356300 } });
    expect(await read()).toEqual([
      { base: 'USDT', quote: 'RUB', units: 80_500_000, at: 1711356300_000 },
    ]);
  });

  it('dates a coin that gives no update time when it was read', async () => {
    fakes.coingecko({ 'usd-coin': { eur: 0.94 } });
    const before = Date.now();
    const [price] = await read();
    expect(price?.units).toBe(940_000);
    expect(price?.at).toBeGreaterThanOrEqual(before);
    expect(price?.at).toBeLessThanOrEqual(Date.now());
  });
});

describe('coingecko: answers refused', () => {
  it('refuses as malformed an answer holding none of the coins asked for (another coin)', async () => {
    fakes.coingecko({ bitcoin: { rub: 6_500_000, usd: 80_000 } });
    const fault = await faultOf(read());
    expect(fault.kind).toBe('malformed');
  });

  it('refuses as malformed an answer holding the coins in none of the currencies asked for', async () => {
    fakes.coingecko({ tether: { cny: 7.2, last_updated_at: 1711356300 } });
    expect((await faultOf(read())).kind).toBe('malformed');
  });

  it('refuses as malformed a body that is not JSON (a proxy page, a cut answer)', async () => {
    fakes.fail(COINGECKO_PATH, { kind: 'body', text: '{"tether": {"rub": 81.' });
    expect((await faultOf(read())).kind).toBe('malformed');
    fakes.fail(COINGECKO_PATH, { kind: 'body', text: '<html>Just a moment…</html>' });
    expect((await faultOf(read())).kind).toBe('malformed');
  });

  it('refuses as malformed a price given as a string, not the documented number', async () => {
    fakes.coingecko({ tether: { rub: '81.2', last_updated_at: 1711356300 } });
    expect((await faultOf(read())).kind).toBe('malformed');
  });

  it('refuses the whole read as absurd when one price is outside its band', async () => {
    for (const rub of [8120, 0, -81.2, 1e-9]) {
      fakes.coingecko({ tether: { rub, usd: 1, last_updated_at: 1711356300 } });
      const fault = await faultOf(read());
      expect(fault.kind, String(rub)).toBe('absurd');
    }
  });

  it('holds USDC to the dollar band of USDT: 2.5 USD for one is absurd', async () => {
    fakes.coingecko({ 'usd-coin': { usd: 2.5, last_updated_at: 1711356300 } });
    expect((await faultOf(read())).kind).toBe('absurd');
  });
});

describe('coingecko: the API failing', () => {
  it('turns 429 with Retry-After into rate_limited with the wait in ms', async () => {
    fakes.fail(
      COINGECKO_PATH,
      { kind: 'status', status: 429, headers: { 'retry-after': '119' } },
      1,
    );
    const fault = await faultOf(read());
    expect(fault.kind).toBe('rate_limited');
    expect(fault.retryAfterMs).toBe(119_000);
    expect(await read()).toHaveLength(10);
  });

  it('turns a 500 into http_status', async () => {
    fakes.fail(COINGECKO_PATH, { kind: 'status', status: 500 });
    const fault = await faultOf(read());
    expect(fault.kind).toBe('http_status');
    expect(fault.message).toContain('500');
  });

  it('gives up as timeout when no answer comes within timeoutMs', async () => {
    fakes.fail(COINGECKO_PATH, { kind: 'slow', ms: 2_000 });
    const started = Date.now();
    const fault = await faultOf(read({ timeoutMs: 150 }));
    expect(fault.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
