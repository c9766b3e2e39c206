/**
 * The memory of customers recorded recently (issue 14): a polling customer is written at most
 * once a minute, and when the memory is full the least recently recorded one leaves it, not
 * everyone at once (it used to clear itself, and every customer then wrote again together).
 */
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../src/server/auth/authenticator';
import { DEMO_BOT_TOKEN } from '../../src/server/auth/telegram-auth';
import { initDataFor } from '../helpers/identity';
import { TestClock } from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

const REMEMBER = 20;

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.destroy();
});

const customer = (n: number) => ({ id: 900_000_000 + n, first_name: `Customer ${n}` });

describe('who was recorded recently', () => {
  it('a full memory lets the least recently recorded customer go, one at a time', async () => {
    const clock = new TestClock();
    const authenticate = createAuthenticator({
      db: database.db,
      botToken: DEMO_BOT_TOKEN,
      maxAgeSeconds: 86_400,
      now: clock.now,
      remember: REMEMBER,
    });
    const poll = (n: number) =>
      authenticate({
        headers: { authorization: `tma ${initDataFor(customer(n))}` },
      } as FastifyRequest);
    const lastSeen = async (n: number) =>
      (
        await database.db
          .selectFrom('users')
          .select('last_seen_at')
          .where('telegram_id', '=', customer(n).id)
          .executeTakeFirstOrThrow()
      ).last_seen_at;

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
  });
});
