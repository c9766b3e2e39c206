import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_LIMITS, createRateLimiter, pruneCallCounts } from '../../src/server/rate-limit';
import { ALICE, BOB, authHeader, initDataFor } from '../helpers/identity';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

describe('per-customer call limits', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.destroy();
  });

  it('allows the limit of a minute, refuses the next call with RATE_LIMITED, and opens again a minute later', async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter(database.db, () => now, CALL_LIMITS);
    for (let i = 0; i < CALL_LIMITS.create; i++) await limiter.hit(1, 'create');
    await expect(limiter.hit(1, 'create')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfter: 60 },
    });
    // Another customer, and another kind of call, have their own windows.
    await expect(limiter.hit(2, 'create')).resolves.toBeUndefined();
    await expect(limiter.hit(1, 'action')).resolves.toBeUndefined();
    now += 60_000;
    await expect(limiter.hit(1, 'create')).resolves.toBeUndefined();
  });

  it('holds across server instances: two limiters on one database share one count', async () => {
    const now = 5_000_000;
    const first = createRateLimiter(database.db, () => now, CALL_LIMITS);
    const second = createRateLimiter(database.db, () => now, CALL_LIMITS);
    const answers = await Promise.allSettled(
      Array.from({ length: CALL_LIMITS.receipt + 6 }, (_, i) =>
        (i % 2 === 0 ? first : second).hit(3, 'receipt'),
      ),
    );
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(CALL_LIMITS.receipt);
  });

  it('forgets windows that are over', async () => {
    const limiter = createRateLimiter(database.db, () => 9_000_000, CALL_LIMITS);
    await limiter.hit(4, 'action');
    const kept = () =>
      database.db.selectFrom('call_counts').select('call').where('customer_id', '=', 4).execute();
    await pruneCallCounts(database.db, 9_000_000 + 59_999);
    expect(await kept()).toHaveLength(1);
    await pruneCallCounts(database.db, 9_000_000 + 60_000);
    expect(await kept()).toHaveLength(0);
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
