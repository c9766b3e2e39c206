import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADDRESS_LIMITS,
  CALL_LIMITS,
  addressKey,
  createRateLimiter,
  pruneCallCounts,
} from '../../../src/server/platform/limits/rate-limit';
import { API_PATHS } from '../../../src/shared/api';
import { ALICE, BOB, authHeader, initDataFor } from '../../helpers/identity';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-database';

/** A token in BotFather's shape for the tests in real mode. */
const REAL_TOKEN = '7000000001:AAHk3rZ9mQx2VbT8nP4sLw6yJcD1eFgH0iK';

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

describe('per-address call limits: what anyone can do without an identity', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.destroy();
  });

  it('an address is counted as written IPv4, mapped or not, and an IPv6 address by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    // An IPv4 tail is two groups: `a::b:c:d:e:<v4>` leaves one group out, after `a`.
    expect(addressKey('2001::b:c:d:e:192.0.2.1')).toBe('2001:0:b:c::/64');
  });

  it('allows the limit of a minute per address, refuses the next with RATE_LIMITED, and opens again a minute later', async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter(database.db, () => now, CALL_LIMITS, ADDRESS_LIMITS);
    for (let i = 0; i < ADDRESS_LIMITS.demoSession; i++) {
      await limiter.hitAddress('198.51.100.1', 'demoSession');
    }
    await expect(limiter.hitAddress('198.51.100.1', 'demoSession')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfter: 60 },
    });
    // The same address written IPv4-mapped is the same count; another address, and another
    // kind of call, have their own.
    await expect(limiter.hitAddress('::ffff:198.51.100.1', 'demoSession')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
    await expect(limiter.hitAddress('198.51.100.2', 'demoSession')).resolves.toBeUndefined();
    await expect(limiter.hitAddress('198.51.100.1', 'refusedIdentity')).resolves.toBeUndefined();
    now += 60_000;
    await expect(limiter.hitAddress('198.51.100.1', 'demoSession')).resolves.toBeUndefined();
  });

  it('one IPv6 network is one count, whichever of its addresses calls', async () => {
    const limiter = createRateLimiter(database.db, () => 2_000_000, CALL_LIMITS, ADDRESS_LIMITS);
    const answers = await Promise.allSettled(
      Array.from({ length: ADDRESS_LIMITS.demoSession + 3 }, (_, i) =>
        limiter.hitAddress(`2001:db8:7:7::${(i + 1).toString(16)}`, 'demoSession'),
      ),
    );
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(
      ADDRESS_LIMITS.demoSession,
    );
  });

  it('holds across server instances: two limiters on one database share one count per address', async () => {
    const first = createRateLimiter(database.db, () => 3_000_000, CALL_LIMITS, ADDRESS_LIMITS);
    const second = createRateLimiter(database.db, () => 3_000_000, CALL_LIMITS, ADDRESS_LIMITS);
    const answers = await Promise.allSettled(
      Array.from({ length: ADDRESS_LIMITS.refusedIdentity + 4 }, (_, i) =>
        (i % 2 === 0 ? first : second).hitAddress('192.0.2.44', 'refusedIdentity'),
      ),
    );
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(
      ADDRESS_LIMITS.refusedIdentity,
    );
  });

  it("forgets an address's windows that are over", async () => {
    const limiter = createRateLimiter(database.db, () => 9_000_000, CALL_LIMITS, ADDRESS_LIMITS);
    await limiter.hitAddress('192.0.2.99', 'demoSession');
    const kept = () =>
      database.db
        .selectFrom('address_call_counts')
        .select('call')
        .where('address', '=', '192.0.2.99')
        .execute();
    await pruneCallCounts(database.db, 9_000_000 + 59_999);
    expect(await kept()).toHaveLength(1);
    await pruneCallCounts(database.db, 9_000_000 + 60_000);
    expect(await kept()).toHaveLength(0);
  });
});

describe('per-address call limits through HTTP, and whose address counts', () => {
  const PROXY = '127.0.0.1';
  const CLIENT = '203.0.113.10';
  let demo: TestApp;
  let real: TestApp;
  beforeAll(async () => {
    const limits = { callLimits: CALL_LIMITS, addressLimits: ADDRESS_LIMITS };
    demo = await createTestApp(limits, { realClock: true });
    // Real mode: identities are checked with a bot token, and the demo session is off.
    real = await createTestApp({ ...limits, botToken: REAL_TOKEN }, { realClock: true });
  });
  afterAll(async () => {
    await demo.close();
    await real.close();
  });

  const demoSession = (remoteAddress: string, forwardedFor?: string) =>
    demo.app.inject({
      method: 'GET',
      url: `${API_PATHS.demoSession}?browser=${crypto.randomUUID()}`,
      remoteAddress,
      headers: {
        'accept-language': 'en',
        ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
      },
    });

  it(`a client address gets ${ADDRESS_LIMITS.demoSession} demo sessions a minute, then 429 RATE_LIMITED in its language; another address is not held back`, async () => {
    for (let i = 0; i < ADDRESS_LIMITS.demoSession; i++) {
      expect((await demoSession(PROXY, CLIENT)).statusCode).toBe(200);
    }
    const limited = await demoSession(PROXY, CLIENT);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      code: 'RATE_LIMITED',
      error: 'Too many requests. Please try again shortly.',
    });
    expect((await demoSession(PROXY, '203.0.113.11')).statusCode).toBe(200);
  });

  it('X-Forwarded-For is believed from a proxy on a trusted address only: a client elsewhere cannot name another address', async () => {
    // CLIENT is over its limit (the test before). Connecting itself, from a public address,
    // and naming a fresh one changes nothing: its own address is counted.
    const forged = await demoSession(CLIENT, '192.0.2.200');
    expect(forged.statusCode).toBe(429);
    // The same header from the loopback proxy is the client the proxy saw.
    expect((await demoSession(PROXY, '192.0.2.200')).statusCode).toBe(200);
  });

  it('refused init data is counted per address: 401 up to the limit, then 429; a valid identity from that address still passes', async () => {
    const forged = initDataFor(ALICE, { token: '7000000009:AAForgedTokenNobodyGaveUsAtAll_x1' });
    const call = (initData: string, remoteAddress: string) =>
      real.app.inject({
        method: 'GET',
        url: API_PATHS.activeOrders,
        remoteAddress,
        headers: { ...authHeader(initData), 'accept-language': 'en' },
      });
    for (let i = 0; i < ADDRESS_LIMITS.refusedIdentity; i++) {
      const refused = await call(forged, CLIENT);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ code: 'AUTH_INVALID' });
    }
    const limited = await call(forged, CLIENT);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await call(initDataFor(ALICE, { token: REAL_TOKEN }), CLIENT)).statusCode).toBe(200);
    expect((await call(forged, '203.0.113.12')).statusCode).toBe(401);
  });

  it('a call with no init data at all is answered 401 and not counted', async () => {
    for (let i = 0; i < ADDRESS_LIMITS.refusedIdentity + 2; i++) {
      const res = await real.app.inject({
        method: 'GET',
        url: API_PATHS.activeOrders,
        remoteAddress: '203.0.113.13',
      });
      expect(res.statusCode).toBe(401);
    }
  });

  it('the demo session of a real bot mints nothing and counts nothing: DEMO_DISABLED every time', async () => {
    for (let i = 0; i < ADDRESS_LIMITS.demoSession + 2; i++) {
      const res = await real.app.inject({
        method: 'GET',
        url: API_PATHS.demoSession,
        remoteAddress: '203.0.113.14',
      });
      expect(res.json()).toMatchObject({ code: 'DEMO_DISABLED' });
    }
  });

  it('TRUST_PROXY names a proxy on a public address: its X-Forwarded-For is then believed', async () => {
    const proxied = await createTestApp(
      { addressLimits: ADDRESS_LIMITS, trustProxy: ['198.51.100.77'] },
      { realClock: true },
    );
    try {
      const ips: string[] = [];
      proxied.app.get('/test/ip', (request) => {
        ips.push(request.ip);
        return {};
      });
      await proxied.app.inject({
        url: '/test/ip',
        remoteAddress: '198.51.100.77',
        headers: { 'x-forwarded-for': '192.0.2.5' },
      });
      // The loopback is no longer trusted: a local client's header is ignored.
      await proxied.app.inject({
        url: '/test/ip',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': '192.0.2.6' },
      });
      expect(ips).toEqual(['192.0.2.5', '127.0.0.1']);
    } finally {
      await proxied.close();
    }
  });
});
