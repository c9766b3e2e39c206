/**
 * The authenticator on the polling path: a polling customer is written at most about
 * once a minute, never on the request's path but by a flush, and when the memory of who was
 * recorded is full the least recently recorded one leaves it, not everyone at once (it used to
 * clear itself, and every customer then wrote again together). Init data is verified once and
 * then known by its hash until it expires.
 */
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../../src/server/platform/identity/authenticator';
import {
  DEMO_BOT_TOKEN,
  initDataVerifier,
} from '../../../src/server/platform/identity/telegram-auth';
import { initDataFor } from '../../helpers/identity';
import { TestClock } from '../../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-database';

const REMEMBER = 20;

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.destroy();
});

const authenticatorAt = (
  clock: TestClock,
  options: Partial<Parameters<typeof createAuthenticator>[0]> = {},
) =>
  createAuthenticator({
    db: database.db,
    botToken: DEMO_BOT_TOKEN,
    maxAgeSeconds: 86_400,
    now: clock.now,
    ...options,
  });

const customer = (n: number) => ({ id: 900_000_000 + n, first_name: `Customer ${n}` });

describe('who was recorded recently', () => {
  it('a full memory lets the least recently recorded customer go, one at a time', async () => {
    const clock = new TestClock();
    const authenticator = authenticatorAt(clock, { remember: REMEMBER });
    const poll = async (n: number) => {
      authenticator.verify(request(initDataFor(customer(n))));
      await authenticator.flush();
    };

    const firstSeen = clock.now();
    for (let n = 0; n < REMEMBER; n++) await poll(n);
    // Rounds of polls within the minute: nobody is written again.
    for (let round = 0; round < 3; round++) {
      clock.advance(1_000);
      for (let n = 0; n < REMEMBER; n++) await poll(n);
    }
    for (let n = 0; n < REMEMBER; n++) expect(await lastSeen(n)).toBe(firstSeen);

    // One more customer: the least recently recorded (customer 0) leaves the memory, nobody else.
    clock.advance(1_000);
    await poll(REMEMBER);
    clock.advance(1_000);
    for (let n = 1; n < REMEMBER; n++) await poll(n);
    for (let n = 1; n < REMEMBER; n++) expect(await lastSeen(n)).toBe(firstSeen);
    await poll(0);
    expect(await lastSeen(0)).toBe(clock.now());
    await authenticator.close();
  });

  it('writes nobody on the request: the customers seen are written together by the next flush', async () => {
    const clock = new TestClock();
    const authenticator = authenticatorAt(clock);
    const seen = [customer(100), customer(101)];
    for (const user of seen) {
      const caller = authenticator.verify(request(initDataFor(user), 'en'));
      expect(caller).toMatchObject({
        telegramId: user.id,
        firstName: user.first_name,
        language: 'en',
      });
    }
    for (const user of seen) expect(await row(user.id)).toBeUndefined();
    await authenticator.flush();
    for (const user of seen) {
      expect(await row(user.id)).toMatchObject({ last_seen_at: clock.now(), language: 'en' });
    }
    // Closing writes whoever is still waiting.
    authenticator.verify(request(initDataFor(customer(102))));
    await authenticator.close();
    expect(await row(customer(102).id)).toBeDefined();
  });

  it('verifies init data once, then knows it by its hash until it expires', async () => {
    const clock = new TestClock();
    const check = initDataVerifier(DEMO_BOT_TOKEN, 60);
    let checks = 0;
    const authenticator = authenticatorAt(clock, {
      maxAgeSeconds: 60,
      check: (raw, now) => {
        checks++;
        return check(raw, now);
      },
    });
    const raw = initDataFor(customer(200), { authDate: new Date(clock.now()) });
    expect(checks).toBe(0);
    // Verified once, then known by its hash with the whole of it the same.
    for (let poll = 0; poll < 3; poll++) {
      expect(authenticator.verify(request(raw)).telegramId).toBe(customer(200).id);
    }
    expect(checks).toBe(1);
    // A copy under the same hash with a field changed is checked, and refused.
    const changed = raw.replace(
      /user=[^&]*/,
      `user=${encodeURIComponent(JSON.stringify(customer(201)))}`,
    );
    expect(() => authenticator.verify(request(changed))).toThrow(
      expect.objectContaining({ code: 'AUTH_INVALID' }),
    );
    // Another hash is checked, and refused.
    const forged = raw.replace(/hash=[0-9a-f]{64}/, `hash=${'0'.repeat(64)}`);
    expect(() => authenticator.verify(request(forged))).toThrow(
      expect.objectContaining({ code: 'AUTH_INVALID' }),
    );
    // Past its age it is checked again, and is expired.
    clock.advance(61_000);
    expect(() => authenticator.verify(request(raw))).toThrow(
      expect.objectContaining({ code: 'AUTH_EXPIRED' }),
    );
    await authenticator.close();
  });
});

const request = (raw: string, language?: string) =>
  ({
    headers: {
      authorization: `tma ${raw}`,
      ...(language === undefined ? {} : { 'accept-language': language }),
    },
  }) as FastifyRequest;

const row = (id: number) =>
  database.db.selectFrom('users').selectAll().where('telegram_id', '=', id).executeTakeFirst();

const lastSeen = async (n: number) => (await row(customer(n).id))?.last_seen_at;
