import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_LIMITS, createRateLimiter } from '../../src/server/rate-limit';
import { ALICE, BOB, authHeader, initDataFor } from '../helpers/identity';
import { createTestApp, type TestApp } from '../helpers/test-app';

describe('per-customer call limits', () => {
  it('allows the limit of a minute, refuses the next call with RATE_LIMITED, and opens again a minute later', () => {
    let now = 1_000_000;
    const limiter = createRateLimiter(() => now, CALL_LIMITS);
    for (let i = 0; i < CALL_LIMITS.create; i++) limiter.hit(1, 'create');
    expect(() => limiter.hit(1, 'create')).toThrow(
      expect.objectContaining({ code: 'RATE_LIMITED' }),
    );
    // Another customer, and another kind of call, have their own windows.
    expect(() => limiter.hit(2, 'create')).not.toThrow();
    expect(() => limiter.hit(1, 'action')).not.toThrow();
    now += 60_000;
    expect(() => limiter.hit(1, 'create')).not.toThrow();
  });

  describe('through HTTP', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ callLimits: CALL_LIMITS }, { realClock: true });
    });
    afterAll(async () => {
      await t.close();
    });

    it(`answers the ${CALL_LIMITS.create + 1}th create of a minute with 429 RATE_LIMITED, in the caller's language`, async () => {
      const create = (user: typeof ALICE) =>
        t.app.inject({
          method: 'POST',
          url: '/api/orders/create',
          headers: { ...authHeader(initDataFor(user)), 'accept-language': 'en' },
          payload: {},
        });
      for (let i = 0; i < CALL_LIMITS.create; i++) {
        expect((await create(ALICE)).statusCode).toBe(400);
      }
      const limited = await create(ALICE);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({
        code: 'RATE_LIMITED',
        error: 'Too many requests. Please try again shortly.',
      });
      expect((await create(BOB)).statusCode).toBe(400);
    });
  });
});
