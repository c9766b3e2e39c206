/**
 * A benchmark of the bot's notifications against the local fake Bot API, with the
 * server's own outbox worker and Telegram's limits kept by grammY's throttler:
 * - throughput: MESSAGES messages to as many customers, all due at once: messages per second, and
 *   the most that reached the fake Bot API in any sliding second (Telegram allows about 30);
 * - a customer behind the operators' backlog: OPERATOR_ALERTS alerts queued
 *   for the operators' chat, then CUSTOMER_CHANGES operators' requisites one after another: the
 *   time from each change's answer to the customer's message (the goal: under 2 s);
 * - lag: status changes at CHANGES_PER_SECOND for BENCH_SECONDS, through the operators' and the
 *   customers' HTTP calls, half of them telling the customer something (an operator's
 *   requisites) and half not (the customer's 'I have paid'): the time from each change's answer
 *   to its message reaching the fake Bot API, p50, p99 and max.
 * Prints numbers; nothing is asserted. Run: `npm run bench` (TEST_DB=postgres for PostgreSQL).
 */
import { performance } from 'node:perf_hooks';
import { API_PATHS } from '../../src/shared/api';
import { OPERATOR_PATHS } from '../../src/shared/operator-api';
import { FAKE_TOKEN, FakeBotApi } from '../helpers/fake-bot-api';
import {
  CARD_REQUISITES,
  OPERATOR,
  createLifecycleApp,
  rowOf,
  send,
  type TestUser,
} from '../helpers/lifecycle';
import { insertOrder } from '../helpers/orders';
import { madeUpFacts } from '../helpers/outbox-facts';
import { testDatabaseKind } from '../helpers/test-database';

const MESSAGES = Number(process.env['BENCH_MESSAGES'] ?? 300);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const CHANGES_PER_SECOND = Number(process.env['BENCH_CHANGES_PER_SECOND'] ?? 50);
const OPERATOR_ALERTS = Number(process.env['BENCH_OPERATOR_ALERTS'] ?? 100);
const CUSTOMER_CHANGES = 10;
const OPERATOR_CHAT = -1_009_999_999_999;

/** The most calls that reached the fake Bot API within any 1 000 ms. */
function busiestSecond(calls: readonly { readonly at: number }[]): number {
  const at = calls.map((c) => c.at).sort((a, b) => a - b);
  let most = 0;
  let first = 0;
  for (let last = 0; last < at.length; last++) {
    while ((at[last] ?? 0) - (at[first] ?? 0) >= 1_000) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;

async function main(): Promise<void> {
  const api = await new FakeBotApi(FAKE_TOKEN).start();
  const t = await createLifecycleApp(
    {
      botToken: FAKE_TOKEN,
      telegramApiRoot: api.url,
      maxActiveOrders: 100,
      operatorChatId: OPERATOR_CHAT,
    },
    { realClock: true, jobs: true },
  );
  await t.app.ready();
  console.log(
    `notifications on ${testDatabaseKind()}: fake Bot API on loopback, Telegram's limits (30 in any sliding second overall, 1/s per chat, 20/min per group)`,
  );

  // Throughput: rows due at once, one per customer.
  const now = Date.now();
  await t.database.db
    .insertInto('notifications')
    .values(
      Array.from({ length: MESSAGES }, (_, i) => ({
        dedupe_key: `bench:${i}`,
        recipient: `customer:${600_000_000 + i}`,
        order_id: null,
        kind: 'payment_reminder' as const,
        language: 'en' as const,
        payload: madeUpFacts(`bench-${String(i).padStart(8, '0')}`, { deadline: now + 300_000 }),
        status: 'pending' as const,
        next_attempt_at: now,
        created_at: now,
      })),
    )
    .execute();
  const started = performance.now();
  const sent = await api.waitFor('sendMessage', MESSAGES, 120_000);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `throughput: ${MESSAGES} messages in ${seconds.toFixed(1)} s = ${(MESSAGES / seconds).toFixed(1)} messages/s; ` +
      `at most ${busiestSecond(sent)} in any sliding second`,
  );

  // A customer behind the operators' backlog: alerts of every kind queued for their chat.
  const kinds = ['new_order', 'receipt_uploaded', 'tx_submitted', 'flag_waiting', 'flag_paid_late'];
  const queuedAt = Date.now();
  await t.database.db
    .insertInto('notifications')
    .values(
      Array.from({ length: OPERATOR_ALERTS }, (_, i) => ({
        dedupe_key: `bench:operators:${i}`,
        recipient: 'operators',
        order_id: null,
        kind: kinds[i % kinds.length] as 'new_order',
        language: null,
        payload: madeUpFacts(`a${String(i).padStart(7, '0')}-0000-4000-8000-000000000000`, {
          deadline: queuedAt + 300_000,
          txHash: 'a'.repeat(64),
          customer: null,
        }),
        status: 'pending' as const,
        next_attempt_at: queuedAt,
        created_at: queuedAt,
      })),
    )
    .execute();
  const waiting: TestUser[] = Array.from({ length: CUSTOMER_CHANGES }, (_, i) => ({
    id: 620_000_000 + i,
    first_name: `Waiting ${i}`,
  }));
  const waitingOrders = await Promise.all(
    waiting.map((customer) =>
      insertOrder(t.database.db, customer, {
        ...rowOf('p2pBuy'),
        status: 'WAITING_REQUISITES',
        expires_at: Date.now() + 3_600_000,
      }),
    ),
  );
  const behind: number[] = [];
  for (const [i, id] of waitingOrders.entries()) {
    const res = await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES);
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
    const changed = Date.now();
    const message = await api.waitForMessage((waiting[i] as TestUser).id, () => true, 30_000);
    behind.push(message.at - changed);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  behind.sort((a, b) => a - b);
  const operatorMessages = api
    .callsOf('sendMessage')
    .filter((call) => call.payload['chat_id'] === OPERATOR_CHAT).length;
  console.log(
    `a customer's message behind ${OPERATOR_ALERTS} operator alerts (${CUSTOMER_CHANGES} requisites, one at a time): ` +
      `p50 ${percentile(behind, 0.5)} ms  max ${behind.at(-1) ?? 0} ms; the operators' chat got ${operatorMessages} messages for them (floods summed up)`,
  );

  // Lag: status changes at a steady rate, half of which tell the customer.
  const changes = SECONDS * CHANGES_PER_SECOND;
  const customers: TestUser[] = Array.from({ length: changes }, (_, i) => ({
    id: 610_000_000 + i,
    first_name: `Customer ${i}`,
  }));
  const orders = await Promise.all(
    customers.map((customer, i) =>
      insertOrder(t.database.db, customer, {
        ...rowOf('p2pBuy'),
        status: i % 2 === 0 ? 'WAITING_REQUISITES' : 'REQUISITES_READY',
        expires_at: Date.now() + 3_600_000,
      }),
    ),
  );
  const changedAt = new Map<string, number>();
  const sentBefore = api.callsOf('sendMessage').length;
  const begin = performance.now();
  const calls: Promise<unknown>[] = [];
  for (let i = 0; i < changes; i++) {
    const due = begin + (i * 1000) / CHANGES_PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const id = orders[i] ?? '';
    const customer = customers[i] as TestUser;
    calls.push(
      (i % 2 === 0
        ? send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES)
        : send(t, 'POST', API_PATHS.paymentConfirm(id), customer, {})
      ).then((res) => {
        if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
        if (i % 2 === 0) changedAt.set(id.slice(0, 8), Date.now());
      }),
    );
  }
  await Promise.all(calls);
  const achieved = changes / ((performance.now() - begin) / 1000);
  const told = changedAt.size;
  await api.waitFor('sendMessage', sentBefore + told, 120_000);
  const lags: number[] = [];
  for (const call of api.callsOf('sendMessage').slice(sentBefore)) {
    const number = /[#№]([0-9a-f]{8})/.exec(String(call.payload['text']))?.[1];
    const at = number === undefined ? undefined : changedAt.get(number);
    if (at !== undefined) lags.push(call.at - at);
  }
  lags.sort((a, b) => a - b);
  console.log(
    `lag at ${achieved.toFixed(0)} status changes/s for ${SECONDS} s (${told} messages): ` +
      `p50 ${percentile(lags, 0.5)} ms  p99 ${percentile(lags, 0.99)} ms  max ${lags.at(-1) ?? 0} ms`,
  );

  await t.close();
  await api.stop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
