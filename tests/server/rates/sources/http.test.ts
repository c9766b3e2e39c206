/**
 * The GET every rate source makes (rates/sources/http.ts) and Retry-After's reading, against the
 * local fakes and a port nothing listens on.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../../src/server/platform/http/retry-after';
import { getBytes, getJson } from '../../../../src/server/rates/sources/http';
import { SourceFault } from '../../../../src/server/rates/sources/source';
import {
  COINGECKO_PATH,
  deadPort,
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

const url = () => `${fakes.url}${COINGECKO_PATH}`;

describe('parseRetryAfter', () => {
  it('reads delay-seconds and an HTTP date as ms from now, and nothing else', () => {
    const now = Date.parse('Wed, 02 Dec 2026 03:00:00 GMT');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 02 Dec 2026 03:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('Wed, 02 Dec 2026 02:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('getJson / getBytes', () => {
  it('answers the parsed body of a 2xx', async () => {
    const json = await getJson(url(), { signal: AbortSignal.timeout(5_000) });
    expect(json).toHaveProperty('tether');
  });

  it('turns a refused connection into unreachable', async () => {
    const port = await deadPort();
    const fault = await faultOf(
      getBytes(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(5_000) }),
    );
    expect(fault.kind).toBe('unreachable');
  });

  it("turns the caller's own timeout into timeout too", async () => {
    fakes.fail(COINGECKO_PATH, { kind: 'slow', ms: 2_000 });
    const fault = await faultOf(getBytes(url(), { signal: AbortSignal.timeout(100) }));
    expect(fault.kind).toBe('timeout');
  });

  it("rethrows the caller's abort (the server stopping) as it is, not as a fault", async () => {
    fakes.fail(COINGECKO_PATH, { kind: 'slow', ms: 2_000 });
    const controller = new AbortController();
    const reason = new Error('stopping');
    setTimeout(() => controller.abort(reason), 50);
    await expect(getBytes(url(), { signal: controller.signal })).rejects.toBe(reason);
  });

  it('refuses as malformed a body past the size any price answer has', async () => {
    fakes.fail(COINGECKO_PATH, { kind: 'body', text: 'x'.repeat(1_000_001) });
    const fault = await faultOf(getBytes(url(), { signal: AbortSignal.timeout(5_000) }));
    expect(fault.kind).toBe('malformed');
  });

  it('turns 429 and 503 into rate_limited, any other non-2xx into http_status', async () => {
    for (const [status, kind] of [
      [429, 'rate_limited'],
      [503, 'rate_limited'],
      [404, 'http_status'],
      [502, 'http_status'],
    ] as const) {
      fakes.fail(COINGECKO_PATH, { kind: 'status', status }, 1);
      const fault = await faultOf(getJson(url(), { signal: AbortSignal.timeout(5_000) }));
      expect(fault).toBeInstanceOf(SourceFault);
      expect(fault.kind, String(status)).toBe(kind);
    }
  });
});
