/**
 * The outbox as the server runs it, against the local fake Bot API, in real time:
 * - each chat is its own queue: with 100 operator alerts queued and the operators' chat slow, a
 *   customer's message leaves within 2 s of its change;
 * - no more than 30 messages reach Telegram in any sliding second;
 * - a server that closes stops claiming, lets the sends on their way finish and leaves the rest,
 *   unclaimed, for the next start (the outbox's part in a clean stop).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  TELEGRAM_LIMITS,
  TelegramLimiter,
} from '../../../src/server/notifications/telegram-limits';
import { FAKE_TOKEN, FakeBotApi, type BotApiCall } from '../../helpers/fake-bot-api';
import {
  CARD_REQUISITES,
  OPERATOR,
  OPERATOR_PATHS,
  createLifecycleApp,
  createOrderViaHttp,
  send,
  type TestUser,
} from '../../helpers/lifecycle';
import { madeUpFacts } from '../../helpers/outbox-facts';
import type { TestApp } from '../../helpers/test-app';

const OPERATOR_CHAT = -1_007_777_777_777;

let api: FakeBotApi;
let t: TestApp | undefined;
beforeEach(async () => {
  api = await new FakeBotApi(FAKE_TOKEN).start();
});
afterEach(async () => {
  await t?.close();
  t = undefined;
  await api.stop();
});

async function startApp(): Promise<TestApp> {
  t = await createLifecycleApp(
    {
      botToken: FAKE_TOKEN,
      telegramApiRoot: api.url,
      operatorChatId: OPERATOR_CHAT,
      maxActiveOrders: 100,
    },
    { realClock: true, jobs: true },
  );
  await t.app.ready();
  return t;
}

/** Rows due now: `count` to `recipient(i)` each, of `kind`. */
async function queue(
  app: TestApp,
  count: number,
  recipient: (i: number) => string,
  kind: 'new_order' | 'flag_waiting' | 'receipt_uploaded' | 'payment_reminder',
) {
  const now = Date.now();
  await app.database.db
    .insertInto('notifications')
    .values(
      Array.from({ length: count }, (_, i) => {
        const orderId = `${i.toString(16).padStart(8, '0')}-0000-4000-8000-${kind.length.toString().padStart(12, '0')}`;
        return {
          dedupe_key: `${kind}:${i}:${recipient(i)}`,
          recipient: recipient(i),
          order_id: null,
          kind,
          language: 'en' as const,
          payload: madeUpFacts(orderId),
          status: 'pending' as const,
          next_attempt_at: now,
          created_at: now,
        };
      }),
    )
    .execute();
}

/** The most calls that arrived within any `windowMs`. */
function busiestWindow(calls: readonly BotApiCall[], windowMs: number): number {
  const at = calls.map((c) => c.at).sort((a, b) => a - b);
  let most = 0;
  let first = 0;
  for (let last = 0; last < at.length; last++) {
    while ((at[last] ?? 0) - (at[first] ?? 0) >= windowMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

describe('each chat is its own queue', () => {
  it("with 100 operator alerts queued and the operators' chat slow, a customer's requisites leave within 2 s of the operator's action", async () => {
    const app = await startApp();
    // The operators' group answers slowly (each of its calls takes 3 s).
    api.delay = (call) => (call.payload['chat_id'] === OPERATOR_CHAT ? 3_000 : 0);
    const customer: TestUser = { id: 530_000_001, first_name: 'Вера', language_code: 'en' };
    const id = await createOrderViaHttp(app, customer, 'p2pBuy');
    await queue(app, 34, () => 'operators', 'new_order');
    await queue(app, 33, () => 'operators', 'flag_waiting');
    await queue(app, 33, () => 'operators', 'receipt_uploaded');
    // The operators' chat is busy with its backlog.
    await api.waitFor('sendMessage', 2);
    const res = await send(app, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES);
    expect(res.statusCode).toBe(200);
    const changed = Date.now();
    const message = await api.waitForMessage(customer.id, () => true);
    expect(message.at - changed).toBeLessThan(2_000);
  });

  it(
    'no more than 30 messages reach Telegram in any sliding second (300 due at once)',
    { timeout: 40_000 },
    async () => {
      const app = await startApp();
      await queue(app, 300, (i) => `customer:${540_000_000 + i}`, 'payment_reminder');
      const calls = await api.waitFor('sendMessage', 300, 30_000);
      expect(busiestWindow(calls, 1_000)).toBeLessThanOrEqual(TELEGRAM_LIMITS.overall.limit);
      // And the limit is used: 300 messages in about 10 s, not trickled.
      const spread = (calls.at(-1)?.at ?? 0) - (calls[0]?.at ?? 0);
      expect(spread).toBeLessThan(12_500);
    },
  );
});

describe("Telegram's limits as sliding windows (telegram-limits.ts)", () => {
  /** Takes `count` places for the chats `chatOf(i)`, the clock moving as the limiter asks. */
  function departures(count: number, chatOf: (i: number) => number) {
    let now = 0;
    const limiter = new TelegramLimiter(TELEGRAM_LIMITS, () => now);
    const left: { chat: number; at: number }[] = [];
    for (let i = 0; i < count; i++) {
      for (;;) {
        const place = limiter.tryReserve(chatOf(i));
        if (typeof place === 'number') {
          now += place;
          continue;
        }
        place.leave();
        left.push({ chat: chatOf(i), at: now });
        break;
      }
    }
    return left;
  }
  const most = (times: readonly number[], windowMs: number) =>
    busiestWindow(
      times.map((at) => ({ method: 'sendMessage', payload: {}, at })),
      windowMs,
    );

  it('overall: 30 in any second, however the seconds are cut, and no burst', () => {
    const left = departures(600, (i) => 1_000_000 + i);
    expect(
      most(
        left.map((l) => l.at),
        1_000,
      ),
    ).toBeLessThanOrEqual(30);
    expect(left.at(-1)?.at).toBeLessThan(600 * 36);
  });

  it('a private chat: one a second; a group: 20 in any minute', () => {
    const alone = departures(5, () => 7).map((l) => l.at);
    expect(alone.slice(1).map((at, i) => at - (alone[i] ?? 0))).toEqual(
      Array.from({ length: 4 }, () => TELEGRAM_LIMITS.privateChat.ms),
    );
    const group = departures(45, () => -100).map((l) => l.at);
    expect(most(group, 60_000)).toBe(20);
  });

  it('a place given back before its call leaves frees it; one not yet left counts as leaving now', () => {
    let now = 0;
    const limiter = new TelegramLimiter(TELEGRAM_LIMITS, () => now);
    const first = limiter.tryReserve(5);
    if (typeof first === 'number') throw new Error('no place');
    now += 2_000;
    // Not left yet, two seconds on: the chat's window is still taken.
    expect(limiter.tryReserve(5)).toBeGreaterThan(0);
    first.release();
    expect(typeof limiter.tryReserve(5)).toBe('object');
  });
});

describe("a clean stop: the outbox's part", () => {
  it('closing the server lets the sends on their way finish, claims nothing more and leaves the rest unclaimed', async () => {
    const app = await startApp();
    // Every call takes 800 ms to be answered: sends are in flight when the server closes.
    api.delay = () => 800;
    await queue(app, 3, (i) => `customer:${550_000_000 + i}`, 'payment_reminder');
    // A second message to the first customer: it waits for its chat's second.
    await app.database.db
      .insertInto('notifications')
      .values({
        dedupe_key: 'second:550000000',
        recipient: 'customer:550000000',
        order_id: null,
        kind: 'payment_reminder',
        language: 'en',
        payload: madeUpFacts('aaaaaaaa-0000-4000-8000-000000000000'),
        status: 'pending',
        next_attempt_at: Date.now(),
        created_at: Date.now(),
      })
      .execute();
    await api.waitFor('sendMessage', 3);
    const started = Date.now();
    await app.app.close();
    // It waited for the answers in flight (800 ms from their start), not for the second message.
    expect(Date.now() - started).toBeLessThan(2_000);
    const rows = await app.database.db
      .selectFrom('notifications')
      .select(['dedupe_key', 'status', 'claimed_until'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.status, r.claimed_until])).toEqual([
      ['sent', null],
      ['sent', null],
      ['sent', null],
      ['pending', null],
    ]);
    const calls = api.callsOf('sendMessage').length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(api.callsOf('sendMessage')).toHaveLength(calls);
  });
});
