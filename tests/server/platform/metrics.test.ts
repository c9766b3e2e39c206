/**
 * The metrics: `GET /api/metrics` in the Prometheus format, closed to the
 * public (a bearer METRICS_TOKEN, else loopback and private addresses only; anyone else gets the
 * 404 of an unknown path), with request durations by route pattern, the outbox's backlog and
 * sends, the sweeper's lag, the jobs' failures and last runs, and the bot's errors. Everything
 * counted happens for real: requests, rows written, a job whose database refuses it, a fake Bot
 * API that drops the connection or says the chat blocked the bot.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { openDatabase } from '../../../src/server/platform/db/database';
import { sweepOnce } from '../../../src/server/orders/sweeper';
import { API_PATHS } from '../../../src/shared/api';
import { ALICE, BOB } from '../../helpers/identity';
import { FAKE_TOKEN, FAULTS, FakeBotApi } from '../../helpers/fake-bot-api';
import { createLifecycleApp, headersFor, rowOf } from '../../helpers/lifecycle';
import { insertOrder } from '../../helpers/orders';
import { madeUpFacts } from '../../helpers/outbox-facts';
import type { TestApp } from '../../helpers/test-app';
import type { TestDatabase } from '../../helpers/test-database';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const TOKEN = 'f3b1c2d4e5a6978812345678deadbeefcafe0123456789abcdef0123456789ab';
/** An address on the internet (TEST-NET-3, RFC 5737). */
const PUBLIC_ADDRESS = '203.0.113.7';

/** The value of the sample `name{labels}` in a scrape (labels exactly those), if there is one. */
function sample(
  text: string,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const found: Record<string, string> = {};
    for (const [, label = '', value = ''] of (match[2] ?? '').matchAll(
      /(\w+)="((?:[^"\\]|\\.)*)"/g,
    )) {
      found[label] = value;
    }
    if (sortedJson(found) !== sortedJson(labels)) continue;
    return Number(match[3]);
  }
  return undefined;
}
const sortedJson = (labels: Readonly<Record<string, string>>) =>
  JSON.stringify(labels, Object.keys(labels).sort());

let t: TestApp;
beforeAll(async () => {
  t = await createLifecycleApp();
});
afterAll(async () => {
  await t.close();
});

/** A scrape as Prometheus on this machine makes it. */
async function scrape(app = t.app): Promise<string> {
  const res = await app.inject({
    method: 'GET',
    url: API_PATHS.metrics,
    remoteAddress: '127.0.0.1',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

describe('GET /api/metrics is closed to the public', () => {
  it('without METRICS_TOKEN: an internet address gets the 404 of an unknown path, in its language', async () => {
    const refused = await t.app.inject({
      method: 'GET',
      url: API_PATHS.metrics,
      remoteAddress: PUBLIC_ADDRESS,
      headers: { 'accept-language': 'en' },
    });
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/no-such-call',
      remoteAddress: PUBLIC_ADDRESS,
      headers: { 'accept-language': 'en' },
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ code: 'NOT_FOUND', error: 'Not found' });
    expect(refused.json()).toEqual(unknown.json());
    expect(refused.body).not.toContain('exchange_');
  });

  it.each([
    '127.0.0.1',
    '::1',
    '10.1.2.3',
    '172.20.0.5',
    '192.168.1.10',
    '::ffff:10.0.0.9',
    'fd00::7',
  ])(
    'without METRICS_TOKEN: loopback and private addresses read it (%s), in the text format, never cached',
    async (address) => {
      const res = await t.app.inject({
        method: 'GET',
        url: API_PATHS.metrics,
        remoteAddress: address,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toContain('# TYPE exchange_http_request_duration_seconds histogram');
      expect(res.body).toContain('# TYPE process_resident_memory_bytes gauge');
    },
  );

  it('without METRICS_TOKEN: an internet client behind the reverse proxy (X-Forwarded-For from loopback) is refused', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: API_PATHS.metrics,
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': PUBLIC_ADDRESS },
    });
    expect(res.statusCode).toBe(404);
  });

  it('with METRICS_TOKEN: only `Authorization: Bearer <token>` reads it, from any address; no token or a wrong one gets 404', async () => {
    const app = await buildApp(
      { ...t.config, metricsToken: TOKEN },
      { db: t.database.db, now: t.clock.now },
    );
    try {
      const asked = (remoteAddress: string, authorization?: string) =>
        app.inject({
          method: 'GET',
          url: API_PATHS.metrics,
          remoteAddress,
          headers: authorization === undefined ? {} : { authorization },
        });
      expect((await asked(PUBLIC_ADDRESS, `Bearer ${TOKEN}`)).statusCode).toBe(200);
      expect((await asked('127.0.0.1', `bearer ${TOKEN}`)).statusCode).toBe(200);
      expect((await asked('127.0.0.1')).statusCode).toBe(404);
      expect((await asked(PUBLIC_ADDRESS, `Bearer ${TOKEN.slice(0, -1)}0`)).statusCode).toBe(404);
      expect((await asked(PUBLIC_ADDRESS, `Bearer ${TOKEN}x`)).statusCode).toBe(404);
      expect((await asked(PUBLIC_ADDRESS, `Basic ${TOKEN}`)).statusCode).toBe(404);
      expect((await asked(PUBLIC_ADDRESS, `tma ${TOKEN}`)).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});

describe('requests: durations by method, route pattern and status', () => {
  it('counts a status poll under its route pattern, never its order id, and unknown paths under one label', async () => {
    const route = '/api/orders/:id/status';
    const labels = { method: 'GET', route, status: '200' };
    const before = sample(await scrape(), 'exchange_http_request_duration_seconds_count', labels);
    const ids = [
      await insertOrder(t.database.db, ALICE, { status: 'WAITING_REQUISITES' }),
      await insertOrder(t.database.db, ALICE, { status: 'WAITING_REQUISITES' }),
    ];
    for (const id of [...ids, ...ids, ids[0] ?? '']) {
      const res = await t.app.inject({
        method: 'GET',
        url: API_PATHS.orderStatus(id),
        headers: headersFor(ALICE),
      });
      expect(res.statusCode).toBe(200);
    }
    const foreign = await t.app.inject({
      method: 'GET',
      url: API_PATHS.orderStatus(ids[0] ?? ''),
      headers: headersFor(BOB),
    });
    expect(foreign.statusCode).toBe(404);
    await t.app.inject({ method: 'GET', url: `/api/${randomUUID()}` });

    const text = await scrape();
    expect(sample(text, 'exchange_http_request_duration_seconds_count', labels)).toBe(
      (before ?? 0) + 5,
    );
    expect(
      sample(text, 'exchange_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }),
    ).toBe((before ?? 0) + 5);
    expect(
      sample(text, 'exchange_http_request_duration_seconds_count', { ...labels, status: '404' }),
    ).toBe(1);
    expect(
      sample(text, 'exchange_http_request_duration_seconds_count', {
        method: 'GET',
        route: 'unmatched',
        status: '404',
      }),
    ).toBeGreaterThanOrEqual(1);
    for (const id of ids) expect(text).not.toContain(id);
  });
});

describe("the outbox's backlog, read at each scrape", () => {
  it('counts the rows waiting (pending or being sent) per kind of chat, and how long the most overdue has been due', async () => {
    await t.database.db.deleteFrom('notifications').execute();
    const now = t.clock.now();
    const orderId = await insertOrder(t.database.db, ALICE, { status: 'WAITING_REQUISITES' });
    const row = (n: number, recipient: string, status: string, nextAttemptAt: number) => ({
      dedupe_key: `metrics:${n}`,
      recipient,
      order_id: orderId,
      kind: recipient === 'operators' ? ('new_order' as const) : ('requisites_ready' as const),
      language: recipient === 'operators' ? null : ('en' as const),
      payload: madeUpFacts(orderId),
      status: status as 'pending' | 'sending' | 'sent',
      next_attempt_at: nextAttemptAt,
      created_at: now - 5 * MINUTE,
    });
    await t.database.db
      .insertInto('notifications')
      .values([
        row(1, `customer:${ALICE.id}`, 'pending', now - 45 * SECOND),
        row(2, `customer:${ALICE.id}`, 'sending', now - 10 * SECOND),
        // Waiting for a retry: in the backlog, not due.
        row(3, `customer:${BOB.id}`, 'pending', now + MINUTE),
        row(4, 'operators', 'pending', now - 5 * SECOND),
        // Sent long ago: no longer waiting.
        row(5, `customer:${BOB.id}`, 'sent', now - 10 * MINUTE),
        row(6, 'operators', 'sent', now - 10 * MINUTE),
      ])
      .execute();
    const text = await scrape();
    expect(sample(text, 'exchange_outbox_backlog', { recipient: 'customer' })).toBe(3);
    expect(sample(text, 'exchange_outbox_backlog', { recipient: 'operators' })).toBe(1);
    expect(sample(text, 'exchange_outbox_oldest_due_seconds')).toBe(45);

    await t.database.db.updateTable('notifications').set({ status: 'sent' }).execute();
    const emptied = await scrape();
    expect(sample(emptied, 'exchange_outbox_backlog', { recipient: 'customer' })).toBe(0);
    expect(sample(emptied, 'exchange_outbox_oldest_due_seconds')).toBe(0);
    await t.database.db.deleteFrom('notifications').execute();
  });

  it("a scrape while the database fails still answers: the database's gauges are left out, the rest is there", async () => {
    const broken = openDatabase(t.database.config);
    await sql`select 1`.execute(broken.db);
    await broken.db.destroy();
    const app = await buildApp(t.config, { db: broken.db });
    try {
      const text = await scrape(app);
      expect(text).toContain('# TYPE exchange_outbox_backlog gauge');
      expect(sample(text, 'exchange_outbox_backlog', { recipient: 'customer' })).toBeUndefined();
      expect(sample(text, 'exchange_sweeper_lag_seconds', { task: 'expire' })).toBeUndefined();
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});

describe("the sweeper's lag, read at each scrape", () => {
  it('is how long the most overdue order has waited for each part of the pass, and 0 once a pass has done them', async () => {
    const now = t.clock.now();
    const { db } = t.database;
    // The database holds only what this test writes for the sweeper.
    await db.updateTable('orders').set({ status: 'COMPLETED', deadline_alerted_at: now }).execute();
    await insertOrder(db, ALICE, {
      ...rowOf('p2pBuy'),
      status: 'REQUISITES_READY',
      created_at: now - 40 * MINUTE,
      expires_at: now - 60 * SECOND,
    });
    await insertOrder(db, ALICE, {
      ...rowOf('officeBuy'),
      status: 'OFFICE_READY',
      created_at: now - 4 * 60 * MINUTE,
      reserved_until: now - 90 * SECOND,
    });
    await insertOrder(db, ALICE, {
      ...rowOf('p2pBuy'),
      status: 'WAITING_REQUISITES',
      created_at: now - 15 * MINUTE,
      expires_at: now + 45 * MINUTE,
    });
    await insertOrder(db, ALICE, {
      ...rowOf('p2pBuy'),
      status: 'RECEIPT_UPLOADED',
      created_at: now - 40 * MINUTE,
      expires_at: now - 20 * SECOND,
    });
    await insertOrder(db, ALICE, {
      ...rowOf('sell'),
      status: 'WAITING_CRYPTO',
      created_at: now - 25 * MINUTE,
      expires_at: now + 4 * MINUTE,
    });
    const lag = (text: string, task: string) =>
      sample(text, 'exchange_sweeper_lag_seconds', { task });

    const behind = await scrape();
    expect(lag(behind, 'expire')).toBe(90);
    expect(lag(behind, 'flag_waiting')).toBe(5 * 60);
    expect(lag(behind, 'flag_paid_late')).toBe(20);
    expect(lag(behind, 'remind')).toBe(60);

    const pass = await sweepOnce(t.database, now);
    expect(pass.expired).toHaveLength(2);
    expect(pass.flagged).toHaveLength(2);
    expect(pass.reminded).toHaveLength(1);
    const caughtUp = await scrape();
    for (const task of ['expire', 'flag_waiting', 'flag_paid_late', 'remind']) {
      expect(lag(caughtUp, task), task).toBe(0);
    }
  });
});

/**
 * Makes the database refuse every change of one order (a trigger, as a broken row would): its
 * expiry throws, and so does the sweeper's flag on it afterwards, which fails the run.
 */
async function refuseChangesOf(database: TestDatabase, id: string): Promise<void> {
  const { db, dialect } = database;
  if (dialect === 'sqlite') {
    await sql`create trigger refuse_changes before update on orders
      when old.id = ${sql.lit(id)}
      begin select raise(abort, 'the test refuses this change'); end`.execute(db);
    return;
  }
  await sql`create function refuse_changes() returns trigger language plpgsql as $$
    begin raise exception 'the test refuses this change'; end $$`.execute(db);
  await sql`create trigger refuse_changes before update on orders for each row
    when (old.id = ${sql.lit(id)}) execute function refuse_changes()`.execute(db);
}

/** Scrapes until `test` passes (the jobs run on their own timers). */
async function scrapeUntil(app: TestApp['app'], test: (text: string) => boolean): Promise<string> {
  // Within the test's own time-out (5 s), so that a failure shows the last scrape.
  const deadline = Date.now() + 4_000;
  for (;;) {
    const text = await scrape(app);
    if (test(text)) return text;
    if (Date.now() > deadline) throw new Error(`never came:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the jobs' runs", () => {
  it('an order whose expiry the database refuses counts as an item failure, the run that then fails as a job failure; the runs that end well set their time', async () => {
    const jobs = await createLifecycleApp({}, { jobs: true });
    const now = jobs.clock.now();
    const bad = await insertOrder(jobs.database.db, ALICE, {
      ...rowOf('p2pBuy'),
      status: 'REQUISITES_READY',
      created_at: now - 40 * MINUTE,
      expires_at: now - SECOND,
    });
    // The app's database, dropped with it: the trigger goes too.
    await refuseChangesOf(jobs.database, bad);
    try {
      await jobs.app.ready();
      const sweep = { job: 'expiry sweep' };
      const text = await scrapeUntil(
        jobs.app,
        (s) =>
          sample(s, 'exchange_job_failures_total', sweep) === 1 &&
          sample(s, 'exchange_job_last_success_timestamp_seconds', { job: 'housekeeping' }) !==
            undefined,
      );
      // Once, or once per lane that met it in the same instant (PostgreSQL's lanes side by side).
      expect(sample(text, 'exchange_job_item_failures_total', sweep)).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'exchange_job_failures_total', { job: 'housekeeping' })).toBe(0);
      expect(
        sample(text, 'exchange_job_last_success_timestamp_seconds', { job: 'housekeeping' }),
      ).toBe(now / 1000);
      // The order is still open past its deadline: the lag says so.
      expect(sample(text, 'exchange_sweeper_lag_seconds', { task: 'expire' })).toBe(1);
    } finally {
      await jobs.close();
    }
  });
});

describe("the bot's errors and the outbox's sends, against a fake Bot API", () => {
  const OPERATOR_CHAT = -1_004_444_444_444;
  const botApp = async (api: FakeBotApi, webhookUrl?: string) =>
    createLifecycleApp(
      {
        botToken: FAKE_TOKEN,
        telegramApiRoot: api.url,
        operatorChatId: OPERATOR_CHAT,
        ...(webhookUrl === undefined ? {} : { webhookUrl }),
      },
      { realClock: true, jobs: true },
    );

  it('an update whose reply meets a dropped connection counts as a failed update and a failed sendMessage', async () => {
    const api = await new FakeBotApi(FAKE_TOKEN).start();
    api.script.push((call) => (call.method === 'sendMessage' ? FAULTS.hangUp() : undefined));
    const b = await botApp(api);
    try {
      await b.app.ready();
      const before = await scrape(b.app);
      expect(sample(before, 'exchange_bot_errors_total', { kind: 'update' })).toBe(0);
      api.pushMessage({ id: ALICE.id, first_name: ALICE.first_name }, '/help');
      const text = await scrapeUntil(
        b.app,
        (s) => sample(s, 'exchange_bot_errors_total', { kind: 'update' }) === 1,
      );
      expect(
        sample(text, 'exchange_bot_api_failures_total', {
          method: 'sendMessage',
          kind: 'transient',
        }),
      ).toBe(1);
      expect(sample(text, 'exchange_bot_errors_total', { kind: 'start' })).toBe(0);
    } finally {
      await b.close();
      await api.stop();
    }
  });

  it('a bot that cannot set its webhook counts a failed start and a failed setWebhook', async () => {
    const api = await new FakeBotApi(FAKE_TOKEN).start();
    api.script.push((call) => (call.method === 'setWebhook' ? FAULTS.hangUp() : undefined));
    const b = await botApp(api, 'https://exchange.example/telegram/hook');
    try {
      await b.app.ready();
      const text = await scrapeUntil(
        b.app,
        (s) => sample(s, 'exchange_bot_errors_total', { kind: 'start' }) === 1,
      );
      expect(
        sample(text, 'exchange_bot_api_failures_total', {
          method: 'setWebhook',
          kind: 'transient',
        }),
      ).toBe(1);
    } finally {
      await b.close();
      await api.stop();
    }
  });

  it("the outbox's sends are counted by kind of chat and outcome: the operators' alert sent, a customer who blocked the bot", async () => {
    const api = await new FakeBotApi(FAKE_TOKEN).start();
    api.blockedChats.add(BOB.id);
    const b = await botApp(api);
    try {
      const now = Date.now();
      const orderId = randomUUID();
      const row = (recipient: string, kind: 'payment_reminder' | 'new_order') => ({
        dedupe_key: `metrics:${recipient}`,
        recipient,
        order_id: null,
        kind,
        language: kind === 'new_order' ? null : ('en' as const),
        payload: madeUpFacts(orderId, { deadline: now + 5 * MINUTE }),
        status: 'pending' as const,
        next_attempt_at: now,
        created_at: now,
      });
      await b.database.db
        .insertInto('notifications')
        .values([row(`customer:${BOB.id}`, 'payment_reminder'), row('operators', 'new_order')])
        .execute();
      await b.app.ready();
      const text = await scrapeUntil(
        b.app,
        (s) =>
          sample(s, 'exchange_outbox_sends_total', { recipient: 'operators', outcome: 'sent' }) ===
            1 &&
          sample(s, 'exchange_outbox_sends_total', {
            recipient: 'customer',
            outcome: 'blocked',
          }) === 1,
      );
      expect(
        sample(text, 'exchange_outbox_sends_total', { recipient: 'customer', outcome: 'sent' }),
      ).toBeUndefined();
      expect(sample(text, 'exchange_outbox_backlog', { recipient: 'customer' })).toBe(0);
      expect(sample(text, 'exchange_outbox_backlog', { recipient: 'operators' })).toBe(0);
      expect(
        sample(text, 'exchange_job_last_success_timestamp_seconds', { job: 'notification outbox' }),
      ).toBeGreaterThan(now / 1000 - 1);
    } finally {
      await b.close();
      await api.stop();
    }
  });
});
