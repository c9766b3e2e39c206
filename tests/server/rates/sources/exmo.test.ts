/**
 * The EXMO USDT/RUB order-book source against a fake of `order_book` in its documented format
 * (tests/helpers/market-fakes.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exmoSource, type ExmoOptions } from '../../../../src/server/rates/sources/exmo';
import {
  EXMO_PATH,
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

function read(options: Partial<ExmoOptions> = {}) {
  return exmoSource({ url: fakes.url, timeoutMs: 2_000, ...options }).read(
    AbortSignal.timeout(10_000),
    Date.now(),
  );
}

const json = (value: unknown) => ({
  kind: 'body' as const,
  text: JSON.stringify(value),
  contentType: 'application/json',
});

describe('exmo: a normal answer', () => {
  it('answers the mid of the best bid and ask in millionths, dated when read', async () => {
    const before = Date.now();
    const prices = await read();
    expect(prices).toHaveLength(1);
    const [price] = prices;
    expect(price).toMatchObject({ base: 'USDT', quote: 'RUB', units: 81_200_000 });
    expect(price?.at).toBeGreaterThanOrEqual(before);
    expect(price?.at).toBeLessThanOrEqual(Date.now());
  });

  it('gives the best prices and the USDT on each side of the levels read in detail', async () => {
    const [price] = await read();
    expect(price?.detail).toBe(
      'bid 81.1 / ask 81.3 RUB; top 2 levels: 4000.00 USDT bid, 4000.50 USDT ask',
    );
  });

  it('asks once for the USDT_RUB book, 20 levels unless told', async () => {
    await read();
    await read({ levels: 5000 });
    expect(fakes.calls(EXMO_PATH)).toBe(2);
    const [first, second] = fakes.requests(EXMO_PATH);
    expect(first?.query.get('pair')).toBe('USDT_RUB');
    expect(first?.query.get('limit')).toBe('20');
    expect(second?.query.get('limit')).toBe('1000');
  });

  it('rounds a mid that falls between millionths half up', async () => {
    fakes.exmo({ ask: [['81.000001', '1']], bid: [['81', '1']] });
    const [price] = await read();
    expect(price?.units).toBe(81_000_001);
  });

  it('takes prices given as numbers, as the documentation also shows them', async () => {
    fakes.fail(
      EXMO_PATH,
      json({
        USDT_RUB: { ask_top: 81.3, bid_top: 81.1, ask: [[81.3, 2, 162.6]], bid: [[81.1, 1, 81.1]] },
      }),
    );
    const [price] = await read();
    expect(price?.units).toBe(81_200_000);
  });
});

describe('exmo: answers refused', () => {
  it('refuses as malformed the book of another pair', async () => {
    fakes.exmo({ pair: 'BTC_RUB', ask: [['6500000', '0.1']], bid: [['6490000', '0.2']] });
    const fault = await faultOf(read());
    expect(fault.kind).toBe('malformed');
    expect(fault.message).toContain('BTC_RUB');
  });

  it("refuses as malformed EXMO's refusal, with its message", async () => {
    fakes.fail(EXMO_PATH, json({ result: false, error: 'Error 40005: Authorization error' }));
    const fault = await faultOf(read());
    expect(fault.kind).toBe('malformed');
    expect(fault.message).toContain('40005');
  });

  it('refuses as malformed a body that is not JSON, or a book with an empty side', async () => {
    fakes.fail(EXMO_PATH, { kind: 'body', text: '<html>502 Bad Gateway</html>' }, 1);
    expect((await faultOf(read())).kind).toBe('malformed');
    fakes.exmo({ ask: [], bid: [['81.1', '1']], askTop: '81.3' });
    expect((await faultOf(read())).kind).toBe('malformed');
  });

  it('refuses as absurd a price in kopecks, a zero or a negative price', async () => {
    for (const bidTop of ['8110', '0', '-81.1']) {
      fakes.exmo({ ask: [['81.3', '1']], bid: [['81.1', '1']], bidTop });
      expect((await faultOf(read())).kind, bidTop).toBe('absurd');
    }
  });

  it('refuses as absurd a crossed book (best bid above best ask)', async () => {
    fakes.exmo({ ask: [['81.1', '1']], bid: [['81.3', '1']] });
    const fault = await faultOf(read());
    expect(fault.kind).toBe('absurd');
    expect(fault.message).toContain('crossed');
  });
});

describe('exmo: the API failing', () => {
  it('turns 429 with an HTTP-date Retry-After into rate_limited with the wait in ms', async () => {
    const when = new Date(Date.now() + 60_000).toUTCString();
    fakes.fail(EXMO_PATH, { kind: 'status', status: 429, headers: { 'retry-after': when } });
    const fault = await faultOf(read());
    expect(fault.kind).toBe('rate_limited');
    expect(fault.retryAfterMs).toBeGreaterThan(55_000);
    expect(fault.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('turns a 503 without Retry-After into rate_limited with no wait given', async () => {
    fakes.fail(EXMO_PATH, { kind: 'status', status: 503 });
    const fault = await faultOf(read());
    expect(fault.kind).toBe('rate_limited');
    expect(fault.retryAfterMs).toBeUndefined();
  });

  it('gives up as timeout when no answer comes within timeoutMs', async () => {
    fakes.fail(EXMO_PATH, { kind: 'slow', ms: 2_000 });
    expect((await faultOf(read({ timeoutMs: 150 }))).kind).toBe('timeout');
  });
});
