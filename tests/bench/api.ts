/**
 * The API benchmark, measured from outside: the server is started the way `npm start`
 * starts it (from BENCH_SERVER_DIR, default this checkout, after `npm run build` unless
 * BENCH_NO_BUILD=1), logging to a file as in production, on a database of its own; the load
 * comes from other processes (autocannon for the closed loop, tests/bench/open-loop.ts for the
 * open one); a bare `node:http` server answering a real status body is measured in the same run
 * as the yardstick. Every customer signs its own init data, each with an order; each request
 * picks a random one.
 *
 * Prints one table: requests a second, p99 latency, the server's CPU time per request (from
 * /proc), its RSS and its log bytes per request, for every call and for receipts of 10 MB
 * uploaded three at a time; the SQLite server's peak RSS through the open loop and through its
 * whole run; then the status/bare ratios on the last line. The status poll is measured in pairs
 * of runs taken in turn with the bare server's sent the same requests (BENCH_PAIRS, 3), so a
 * machine whose speed drifts moves both sides of each ratio; the median pair is reported with the
 * spread, and beside it the ratio against the bare server sent `GET /` without headers.
 * Then an open chat (its poll with the version it holds, answered 304) is measured beside the
 * status poll sent the same way, in pairs of runs taken in turn, and its cost over the poll's is
 * printed under the status/bare ratios. BENCH_STATUS_ONLY=1 measures only those pairs, on SQLite.
 * Nothing is asserted. PostgreSQL is measured too when TEST_DATABASE_URL names a server (a
 * database of its own is created and dropped). BENCH_SECONDS sets each run's length (8).
 *
 * Then the backlog (tests/helpers/backlog.ts): the server starts on a database
 * holding 40 000 orders to flag and 30 000 overdue orders while 8 apps poll their orders' status;
 * prints the polls' p50/p99/max and how long until every overdue order is cancelled and every
 * waiting one flagged (the goal: no poll over 500 ms, p99 under 100 ms, all cancelled within
 * 45 s). BENCH_BACKLOG_ONLY=1 runs this part alone; BENCH_BACKLOG_MAX_S stops waiting (120).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { DEMO_BOT_TOKEN, signInitData } from '../../src/server/platform/identity/telegram-auth';
import type { DatabaseConfig } from '../../src/server/platform/config/config';
import { openDatabase } from '../../src/server/platform/db/database';
import type { Database, NewOrderRow } from '../../src/server/platform/db/schema';
import { API_PATHS } from '../../src/shared/api';
import { RECEIPT_MAX_BYTES } from '../../src/shared/limits';
import { fiatTotalMinor, fromMinor, toUnits } from '../../src/shared/money';
import type { OrderStatus } from '../../src/shared/order-status';
import { BACKLOG, BACKLOG_GOAL, backlogLeft, pollWhile, seedBacklog } from '../helpers/backlog';
import { ORDER_DEFAULTS } from '../helpers/orders';
import type { LoadJob, LoadResult, LoadTarget } from './load-job';
import {
  NotReady,
  ROOT,
  type Running,
  SERVER_DIR,
  WORK,
  cpuMicros,
  memory,
  removeWork,
  startBare,
  startServer,
  stop,
} from './server-under-test';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 8);
const PG_URL = process.env['TEST_DATABASE_URL'];

/** Customers of the closed-loop runs, each with an order; the open loop polls as 10 000. */
const CUSTOMERS = 1_000;
const OPEN_LOOP_CUSTOMERS = 10_000;
const OPEN_LOOP_RATE = 5_000;
/** The growth runs: the same calls once the database holds this many orders. */
const GROWN_ORDERS = 100_000;
/** The customer whose deep history page is read: page 100 of 20. */
const HEAVY_ORDERS = 2_000;
const CUSTOMER_ID_BASE = 7_000_000_000;
const HEAVY_CUSTOMER = CUSTOMER_ID_BASE - 1;
/** The receipts run: this many uploads of 10 MB, so many at a time, by customers of their own. */
const RECEIPT_UPLOADS = 30;
const RECEIPT_CONCURRENCY = 3;
const RECEIPT_CUSTOMER_BASE = 6_000_000_000;

// --- Load ---

async function generate(kind: 'closed' | 'open', job: LoadJob): Promise<LoadResult> {
  const jobFile = path.join(WORK, `job-${Date.now()}.json`);
  fs.writeFileSync(jobFile, JSON.stringify(job));
  const script = path.join(ROOT, `tests/bench/${kind}-loop.ts`);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, jobFile], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.once('exit', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`${kind} loop exited ${String(code)}`)),
    );
  });
  fs.rmSync(jobFile);
  const last = output.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as LoadResult;
}

interface Row {
  readonly label: string;
  readonly result: LoadResult;
  readonly cpuPerRequest: number;
  readonly rss: number;
  readonly logBytes: number | null;
}

async function measure(
  label: string,
  server: Running,
  targets: readonly LoadTarget[],
  options: { connections?: number; rate?: number; inOrder?: boolean; logged?: boolean } = {},
): Promise<Row> {
  const cpuBefore = cpuMicros(server.pid);
  const logBefore = fs.statSync(server.logFile).size;
  const result = await generate(options.rate === undefined ? 'closed' : 'open', {
    url: server.url,
    targets,
    seconds: SECONDS,
    connections: options.connections ?? 32,
    ...(options.rate === undefined ? {} : { rate: options.rate }),
    ...(options.inOrder === true ? { inOrder: true } : {}),
  });
  const served = Math.max(1, result.requests);
  const row: Row = {
    label,
    result,
    cpuPerRequest: (cpuMicros(server.pid) - cpuBefore) / served,
    rss: memory(server.pid).rss,
    logBytes:
      options.logged === false ? null : (fs.statSync(server.logFile).size - logBefore) / served,
  };
  measured.set(label, row);
  console.error(`  ${format(row)}`);
  console.error(`    ${await heapOf(server)}`);
  return row;
}

/**
 * The server's V8 heap as its metrics tell it (loopback may read them without a token): what the
 * RSS is made of, printed beside each run.
 */
async function heapOf(server: Running): Promise<string> {
  const text = await (await fetch(`${server.url}/api/metrics`)).text();
  const mb = (name: string) =>
    fixed(Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0) / 1024 / 1024);
  const rollup = fs.readFileSync(`/proc/${server.pid}/smaps_rollup`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
  const anonymous = fixed(kb('Anonymous') / 1024);
  const files = fixed((kb('Rss') - kb('Anonymous')) / 1024);
  // Polls the poll lane handed to Fastify so far, by reason: a run of polls should add none.
  const fallbacks = [
    ...text.matchAll(/^exchange_status_lane_fallbacks_total\{reason="(\w+)"\} (\S+)$/gm),
  ]
    .map(([, reason, count]) => `${reason ?? ''} ${count ?? ''}`)
    .join(', ');
  return `heap used ${mb('nodejs_heap_size_used_bytes')} MB of ${mb('nodejs_heap_size_total_bytes')} MB, external ${mb('nodejs_external_memory_bytes')} MB; RSS: ${anonymous} MB anonymous, ${files} MB of files; lane fallbacks: ${fallbacks === '' ? 'none' : fallbacks}`;
}

// --- Data ---

interface Customer {
  readonly id: number;
  readonly orderId: string;
  readonly headers: Readonly<Record<string, string>>;
}

const authHeaders = (id: number): Record<string, string> => ({
  authorization: `tma ${signInitData(DEMO_BOT_TOKEN, { id, first_name: `Bench ${id}` }, { authDate: new Date() })}`,
  'accept-language': 'en',
});

const REQUISITES = JSON.stringify({
  cardNumber: '4276380012345678',
  bankName: 'Sberbank',
  cardHolder: 'IVAN PETROV',
  phone: '+79001234567',
  comment: 'No comment in the transfer, please',
});

const WAITING: OrderStatus = 'WAITING_REQUISITES';

/** Writes customers and their orders in batches: `orders(i)` gives customer i's orders. */
async function seed(
  db: Kysely<Database>,
  ids: readonly number[],
  orders: (id: number, index: number) => readonly Partial<NewOrderRow>[],
): Promise<Map<number, string[]>> {
  const now = Date.now();
  const made = new Map<number, string[]>();
  for (let from = 0; from < ids.length; from += 200) {
    const batch = ids.slice(from, from + 200);
    const orderRows: NewOrderRow[] = [];
    for (const [offset, id] of batch.entries()) {
      const list = orders(id, from + offset).map((fields, n) => ({
        ...ORDER_DEFAULTS,
        id: crypto.randomUUID(),
        user_id: id,
        status: WAITING,
        created_at: now - n * 60_000,
        updated_at: now - n * 60_000,
        ...fields,
      }));
      made.set(
        id,
        list.map((o) => o.id),
      );
      orderRows.push(...list);
    }
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values(
          batch.map((id) => ({
            telegram_id: id,
            first_name: `Bench ${id}`,
            last_name: null,
            username: null,
            language_code: 'en',
            first_seen_at: now,
            last_seen_at: now,
          })),
        )
        .onConflict((oc) => oc.column('telegram_id').doNothing())
        .execute();
      for (let at = 0; at < orderRows.length; at += 100) {
        await trx
          .insertInto('orders')
          .values(orderRows.slice(at, at + 100))
          .execute();
      }
    });
  }
  return made;
}

/** An order open on a screen: waiting for requisites, or given them and waiting for payment. */
function openOrder(index: number): Partial<NewOrderRow> {
  return index % 2 === 0
    ? { status: 'WAITING_REQUISITES' }
    : {
        status: 'REQUISITES_READY',
        requisites: REQUISITES,
        requisites_ready_at: Date.now(),
        expires_at: Date.now() + 24 * 3600_000,
      };
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

const statusTarget = (c: Customer): LoadTarget => ({
  method: 'GET',
  path: `/api/orders/${c.orderId}/status`,
  headers: c.headers,
});
const historyTarget = (headers: Record<string, string>, offset = 0): LoadTarget => ({
  method: 'GET',
  path: `${API_PATHS.history}?status=all&limit=20&offset=${offset}`,
  headers,
});

/** An open chat's poll: the customer's order's chat. */
const chatTarget = (c: Customer): LoadTarget => ({
  method: 'GET',
  path: API_PATHS.chat(c.orderId),
  headers: c.headers,
});

/** Each poll carrying the ETag of its last answer, as an app that holds the answer sends it. */
async function revalidating(url: string, targets: readonly LoadTarget[]): Promise<LoadTarget[]> {
  return Promise.all(
    targets.map(async (target) => {
      const res = await fetch(`${url}${target.path}`, { headers: target.headers });
      await res.arrayBuffer();
      return {
        ...target,
        headers: { ...target.headers, 'if-none-match': res.headers.get('etag') ?? '' },
      };
    }),
  );
}

const rateTargets = (customers: readonly Customer[]): LoadTarget[] =>
  customers.map((c, i) => ({
    method: 'GET',
    path: `${API_PATHS.rate}?amount=${1000 + i}&currency=RUB&operation=BUY&cryptoCurrency=USDT&paymentMethod=P2P`,
    headers: c.headers,
  }));

/** A P2P buy of 100 USDT at the current rate for each of many new customers, one each. */
async function createTargets(url: string, count: number): Promise<LoadTarget[]> {
  const ids = range(CUSTOMER_ID_BASE * 2, count);
  const first = authHeaders(ids[0] ?? 0);
  const quote = await fetch(
    `${url}${API_PATHS.rate}?amount=9500&currency=RUB&operation=BUY&cryptoCurrency=USDT&paymentMethod=P2P`,
    { headers: first },
  );
  if (!quote.ok) throw new Error(`the quote answered ${quote.status}: ${await quote.text()}`);
  const { rate } = (await quote.json()) as { rate: number };
  const body = JSON.stringify({
    type: 'BUY',
    paymentMethod: 'P2P',
    amount: 100,
    currency: 'RUB',
    cryptoCurrency: 'USDT',
    network: 'TRC20',
    rate,
    totalRub: fromMinor(fiatTotalMinor(toUnits(100) ?? 0, toUnits(rate) ?? 0)),
    walletAddress: ORDER_DEFAULTS.wallet_address,
  });
  return ids.map((id) => ({
    method: 'POST',
    path: API_PATHS.createOrder,
    headers: { ...authHeaders(id), 'content-type': 'application/json' },
    body,
  }));
}

// --- Runs ---

/** Every measurement of the run by its label, in the order taken. */
const measured = new Map<string, Row>();

/** The bare yardstick, running beside each database's server through its status runs. */
let bare: Running | undefined;

/**
 * The bare server's other request: `GET /` without headers, the yardstick of the notes before
 * 2026-11-26 and of the other calls' ratios below.
 */
const BARE_ROOT: readonly LoadTarget[] = [{ method: 'GET', path: '/', headers: {} }];

/**
 * Pairs of runs taken in turn, the bare server's then the status poll's, both sent the same
 * requests (the polls', each with its ~350-byte Authorization header): on a machine whose speed
 * drifts (other work on its cores) each pair shares its moment, and the ratio reported is the
 * median of the pairs', with their spread beside it. Each pair also measures the bare server on
 * BARE_ROOT, whose ratio is reported beside.
 */
const PAIRS = Number(process.env['BENCH_PAIRS'] ?? 3);
/** The pairs' ratios by database and connections, against the same requests and against `GET /`. */
const pairRatios = new Map<string, { same: number[]; root: number[] }>();

async function measurePairs(
  db$: string,
  server: Running,
  statuses: readonly LoadTarget[],
  connections: number,
): Promise<void> {
  if (bare === undefined) throw new Error('the bare server is not running');
  const ratios = { same: [] as number[], root: [] as number[] };
  for (let pair = 1; pair <= PAIRS; pair += 1) {
    const root = await measure(
      `bare node:http, GET /, ${db$} pair ${pair}, ${connections} conns`,
      bare,
      BARE_ROOT,
      { connections, logged: false },
    );
    const same = await measure(
      `bare node:http, the polls' requests, ${db$} pair ${pair}, ${connections} conns`,
      bare,
      statuses,
      { connections, logged: false },
    );
    const status = await measure(
      `status, ${db$} pair ${pair}, ${connections} conns`,
      server,
      statuses,
      { connections },
    );
    ratios.same.push(status.result.perSecond / same.result.perSecond);
    ratios.root.push(status.result.perSecond / root.result.perSecond);
  }
  pairRatios.set(`${db$}, ${connections} conns`, ratios);
}

/** A few messages in every customer's chat, both sides writing, as an open chat holds them. */
async function seedChats(db: Kysely<Database>, customers: readonly Customer[]): Promise<void> {
  const now = Date.now();
  for (let from = 0; from < customers.length; from += 100) {
    await db
      .insertInto('order_messages')
      .values(
        customers.slice(from, from + 100).flatMap((c) =>
          (['customer', 'operator', 'customer'] as const).map((author, n) => ({
            order_id: c.orderId,
            author,
            author_id: author === 'customer' ? c.id : 1,
            text: `Message ${n + 1} about the payment`,
            created_at: now + n,
          })),
        ),
      )
      .execute();
  }
}

/**
 * What an open chat costs beside the status poll: both as a polling app mostly sends them, with
 * the version it holds (If-None-Match), answered 304 while nothing changed; taken in turn,
 * PAIRS times, so that a machine whose speed drifts moves both sides of each ratio.
 */
async function measureOpenChat(
  db$: string,
  server: Running,
  db: Kysely<Database>,
  customers: readonly Customer[],
): Promise<void> {
  await seedChats(db, customers);
  const statuses = await revalidating(server.url, customers.map(statusTarget));
  const chats = await revalidating(server.url, customers.map(chatTarget));
  const ratios = { perSecond: [] as number[], cpu: [] as number[] };
  for (let pair = 1; pair <= PAIRS; pair += 1) {
    const status = await measure(
      `status revalidated (304), ${db$} pair ${pair}, 32 conns`,
      server,
      statuses,
    );
    const chat = await measure(`open chat (304), ${db$} pair ${pair}, 32 conns`, server, chats);
    ratios.perSecond.push(chat.result.perSecond / status.result.perSecond);
    ratios.cpu.push(chat.cpuPerRequest / status.cpuPerRequest);
  }
  chatRatios.set(db$, ratios);
}

/** The open chat's pairs by database: its requests a second and CPU per request over the status poll's. */
const chatRatios = new Map<string, { perSecond: number[]; cpu: number[] }>();

/** The open chat's line of a database. */
function chatLine(db$: string): string {
  const ratios = chatRatios.get(db$);
  if (ratios === undefined) return `${db$} n/a`;
  const cpu = [...ratios.cpu].sort((a, b) => a - b);
  const times = (x: number | undefined) => `${fixed(x ?? 0, 2)}×`;
  return (
    `${db$} requests a second ${medianSpread(ratios.perSecond)}, server CPU per request ` +
    `${times(cpu[Math.floor(cpu.length / 2)])} (${times(cpu[0])}–${times(cpu.at(-1))})`
  );
}

/** The median of ratios, with the lowest and highest. */
function medianSpread(values: readonly number[] | undefined): string {
  const ratios = [...(values ?? [])].sort((a, b) => a - b);
  if (ratios.length === 0) return 'n/a';
  const median = ratios[Math.floor(ratios.length / 2)] ?? 0;
  const percent = (x: number) => `${fixed(100 * x)}%`;
  return `${percent(median)} (${percent(ratios[0] ?? 0)}–${percent(ratios.at(-1) ?? 0)})`;
}

/** The pairs' status/bare line of a database: both connection counts, against both requests. */
function pairLine(db$: string): string {
  const at = (connections: number) => {
    const ratios = pairRatios.get(`${db$}, ${connections} conns`);
    return (
      `${medianSpread(ratios?.same)} (${connections} conns; ` +
      `against GET / ${medianSpread(ratios?.root)})`
    );
  };
  return `${db$} ${at(32)}, ${at(128)}`;
}

async function runDatabase(kind: 'sqlite' | 'postgres'): Promise<void> {
  let database: DatabaseConfig;
  let dropDatabase = async () => {};
  if (kind === 'sqlite') {
    database = { kind: 'sqlite', path: path.join(WORK, 'bench.db') };
  } else {
    const name = `exchange_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(PG_URL ?? '');
    url.pathname = `/${name}`;
    database = { kind: 'postgres', url: url.toString() };
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`drop database if exists ${name}`);
      await client.end();
    };
  }
  const db$ = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const server = await startServer(database);
  const { db } = openDatabase(database);
  try {
    console.error(`${db$}: ${CUSTOMERS} customers, an order each`);
    const first = await seed(db, range(CUSTOMER_ID_BASE, CUSTOMERS), (_, i) => [openOrder(i)]);
    const customers: Customer[] = [...first].map(([id, orderIds]) => ({
      id,
      orderId: orderIds[0] ?? '',
      headers: authHeaders(id),
    }));
    const statuses = customers.map(statusTarget);
    const histories = customers.map((c) => historyTarget(c.headers));
    // Warm up (JIT, caches), then measure against the bare server, run for run.
    await generate('closed', { url: server.url, targets: statuses, seconds: 2, connections: 32 });
    await measurePairs(db$, server, statuses, 32);
    await measurePairs(db$, server, statuses, 128);
    await measureOpenChat(db$, server, db, customers);
    if (process.env['BENCH_STATUS_ONLY'] === '1' || kind === 'postgres') return;

    await measure('rates/calculate, SQLite', server, rateTargets(customers));
    await measure(
      'active, SQLite',
      server,
      customers.map((c) => ({ method: 'GET', path: API_PATHS.activeOrders, headers: c.headers })),
    );
    await measure('history page 1, SQLite', server, histories);
    // The growth runs are compared with runs just before the database grows, not with the first
    // ones: on a shared machine the speed drifts between runs minutes apart.
    await measure('status, SQLite, 1 000 orders', server, statuses);

    console.error(`SQLite: growing to ${GROWN_ORDERS} orders, ${OPEN_LOOP_CUSTOMERS} customers`);
    const more = await seed(
      db,
      range(CUSTOMER_ID_BASE + CUSTOMERS, OPEN_LOOP_CUSTOMERS - CUSTOMERS),
      (_, i) => [openOrder(i)],
    );
    await seed(db, [HEAVY_CUSTOMER], () =>
      range(0, HEAVY_ORDERS).map(() => ({ status: 'COMPLETED' })),
    );
    const rest = Math.ceil((GROWN_ORDERS - OPEN_LOOP_CUSTOMERS - HEAVY_ORDERS) / 4);
    await seed(db, range(CUSTOMER_ID_BASE + OPEN_LOOP_CUSTOMERS, rest), () =>
      range(0, 4).map(() => ({ status: 'COMPLETED' })),
    );
    await measure('status, SQLite, 100 000 orders', server, statuses);
    await measure('history page 1, SQLite, 100 000 orders', server, histories);
    const heavy = authHeaders(HEAVY_CUSTOMER);
    await measure('history page 1 of 2 000 orders', server, [historyTarget(heavy)]);
    await measure('history page 100 of 2 000 orders', server, [historyTarget(heavy, 99 * 20)]);

    const everyone: Customer[] = [
      ...customers,
      ...[...more].map(([id, orderIds]) => ({
        id,
        orderId: orderIds[0] ?? '',
        headers: authHeaders(id),
      })),
    ];
    const polls = everyone.map(statusTarget);
    // The restart case: 9 000 of the 10 000 customers are new to this server process.
    await measure(
      `open loop ${OPEN_LOOP_RATE}/s, ${OPEN_LOOP_CUSTOMERS - CUSTOMERS} of ${OPEN_LOOP_CUSTOMERS} customers arriving, SQLite`,
      server,
      polls,
      { rate: OPEN_LOOP_RATE, connections: 256 },
    );
    // Then every customer already polling: the steady state the goal is about.
    await generate('closed', { url: server.url, targets: polls, seconds: 3, connections: 32 });
    await measure(
      `open loop ${OPEN_LOOP_RATE}/s, ${OPEN_LOOP_CUSTOMERS} customers polling, SQLite`,
      server,
      polls,
      { rate: OPEN_LOOP_RATE, connections: 256 },
    );
    openLoopPeakRss = memory(server.pid).peak;

    await measure('create, SQLite', server, await createTargets(server.url, 200_000), {
      inOrder: true,
    });
    await measureReceipts(server, db);
    // VmHWM: the most the process ever held, every run above included.
    peakRss = memory(server.pid).peak;
  } finally {
    await stop(server);
    await db.destroy();
    await dropDatabase();
  }
}

/** The SQLite server's peak RSS through the open loop, and through its whole run. */
let openLoopPeakRss = 0;
let peakRss = 0;

/**
 * Receipts of RECEIPT_MAX_BYTES (10 MB), RECEIPT_CONCURRENCY uploads at a time, each to an order
 * of its own that awaits its payment: the server's largest bodies, and its memory's test.
 */
async function measureReceipts(server: Running, db: Kysely<Database>): Promise<void> {
  const ids = range(RECEIPT_CUSTOMER_BASE, RECEIPT_UPLOADS);
  const orders = await seed(db, ids, () => [{ status: 'PAYMENT_PENDING' }]);
  const file = Buffer.alloc(RECEIPT_MAX_BYTES, 7);
  // A PNG by its first bytes, as the server reads a receipt's type.
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(file);
  const body = JSON.stringify({
    fileName: 'receipt.png',
    fileData: `data:image/png;base64,${file.toString('base64')}`,
    fileSize: file.length,
  });
  const queue = [...orders];
  const latencies: number[] = [];
  let failed = 0;
  const cpuBefore = cpuMicros(server.pid);
  const began = performance.now();
  await Promise.all(
    range(0, RECEIPT_CONCURRENCY).map(async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const [customer, orderIds] = next;
        const orderId = orderIds[0] ?? '';
        const sent = performance.now();
        const res = await fetch(`${server.url}${API_PATHS.receipt(orderId)}`, {
          method: 'POST',
          headers: { ...authHeaders(customer), 'content-type': 'application/json' },
          body,
        });
        await res.arrayBuffer();
        if (!res.ok) failed += 1;
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (share: number) => latencies[Math.floor((latencies.length - 1) * share)] ?? 0;
  const row: Row = {
    label: `receipts of 10 MB, ${RECEIPT_CONCURRENCY} at a time, SQLite`,
    result: {
      requests: latencies.length,
      perSecond: latencies.length / seconds,
      p50: at(0.5),
      p99: at(0.99),
      failed,
      errors: 0,
    },
    cpuPerRequest: (cpuMicros(server.pid) - cpuBefore) / Math.max(1, latencies.length),
    rss: memory(server.pid).rss,
    logBytes: null,
  };
  measured.set(row.label, row);
  console.error(`  ${format(row)}`);
}

/** How long the backlog run waits for the server to clear it, at most. */
const BACKLOG_MAX_MS = Number(process.env['BENCH_BACKLOG_MAX_S'] ?? 120) * 1000;
/** The backlog figures, one line a database. */
const backlogLines: string[] = [];

/** A database of its own for one run, and how to drop it. */
async function benchDatabase(
  kind: 'sqlite' | 'postgres',
  name: string,
): Promise<{ database: DatabaseConfig; drop: () => Promise<void> }> {
  if (kind === 'sqlite') {
    return {
      database: { kind: 'sqlite', path: path.join(WORK, `${name}.db`) },
      drop: () => Promise.resolve(),
    };
  }
  const dbName = `exchange_${name}_${process.pid}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`create database ${dbName}`);
  const url = new URL(PG_URL ?? '');
  url.pathname = `/${dbName}`;
  return {
    database: { kind: 'postgres', url: url.toString() },
    drop: () => admin(`drop database if exists ${dbName} with (force)`),
  };
}

/**
 * The backlog run: the server (from BENCH_SERVER_DIR, whatever its version) migrates an empty
 * database and stops; the backlog is written; the server starts on it with 8 apps polling.
 */
async function runBacklog(kind: 'sqlite' | 'postgres'): Promise<void> {
  const { database, drop } = await benchDatabase(kind, 'backlog');
  const db$ = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  try {
    // The server's own migrations, so an older checkout runs on a schema it knows.
    await stop(await startServer(database));
    const { db } = openDatabase(database);
    try {
      console.error(`${db$}: backlog of ${BACKLOG.toFlag} to flag and ${BACKLOG.overdue} overdue`);
      const pollers = await seedBacklog(db, kind, Date.now());
      const began = Date.now();
      // A server that works through the backlog before it serves answers its health check late,
      // or not at all within the run.
      let server: Running;
      try {
        server = await startServer(database, BACKLOG_MAX_MS);
      } catch (error) {
        if (!(error instanceof NotReady)) throw error;
        const left = await backlogLeft(db, began);
        const line =
          `backlog, ${db$}: the server did not answer GET /api/health within ` +
          `${BACKLOG_MAX_MS / 1000} s (${left.overdue} overdue and ${left.unflagged} unflagged left)`;
        backlogLines.push(line);
        console.error(`  ${line}`);
        return;
      }
      const startedMs = Date.now() - began;
      let cancelledMs: number | undefined;
      let flaggedMs: number | undefined;
      const cleared = (async () => {
        while (Date.now() - began < BACKLOG_MAX_MS) {
          const left = await backlogLeft(db, began);
          cancelledMs ??= left.overdue === 0 ? Date.now() - began : undefined;
          flaggedMs ??= left.unflagged === 0 ? Date.now() - began : undefined;
          if (cancelledMs !== undefined && flaggedMs !== undefined) return;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      })();
      const polls = await pollWhile(server.url, pollers, cleared);
      const left = await backlogLeft(db, began);
      await stop(server);
      const seconds = (ms: number | undefined, over: number) =>
        ms === undefined
          ? `not within ${BACKLOG_MAX_MS / 1000} s (${over} left)`
          : `${fixed(ms / 1000, 1)} s`;
      const line =
        `backlog, ${db$}: ${polls.polls} polls by ${BACKLOG.pollers} apps, p50 ${fixed(polls.p50, 1)} ms, ` +
        `p99 ${fixed(polls.p99, 1)} ms, max ${fixed(polls.max)} ms, ${polls.failed} failed; ` +
        `ready after ${fixed(startedMs / 1000, 1)} s; ${BACKLOG.overdue} cancelled after ` +
        `${seconds(cancelledMs, left.overdue)}, ${BACKLOG.toFlag} flagged after ` +
        `${seconds(flaggedMs, left.unflagged)} (goal: max < ${BACKLOG_GOAL.maxMs} ms, p99 < ` +
        `${BACKLOG_GOAL.p99Ms} ms, cancelled within ${BACKLOG_GOAL.cancelledWithinMs / 1000} s)`;
      backlogLines.push(line);
      console.error(`  ${line}`);
    } finally {
      await db.destroy();
    }
  } finally {
    await drop();
  }
}

/** The backlog on SQLite, and on PostgreSQL when TEST_DATABASE_URL names a server. */
async function runBacklogs(): Promise<void> {
  await runBacklog('sqlite');
  if (PG_URL !== undefined) await runBacklog('postgres');
}

// --- Report ---

const fixed = (n: number, digits = 0) => n.toFixed(digits);

function format(row: Row): string {
  const { result } = row;
  return [
    row.label.padEnd(50),
    `${fixed(result.perSecond).padStart(6)} req/s`,
    `p99 ${fixed(result.p99, 1).padStart(6)} ms`,
    `${fixed(row.cpuPerRequest).padStart(5)} µs CPU`,
    `RSS ${fixed(row.rss).padStart(4)} MB`,
    row.logBytes === null ? '' : `log ${fixed(row.logBytes).padStart(4)} B`,
    result.failed + result.errors > 0 ? `(${result.failed} failed, ${result.errors} errors)` : '',
  ].join('  ');
}

function table(): string {
  const lines = [
    '| call | req/s | p99 ms | server CPU per request | RSS | log per request |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of measured.values()) {
    const failed = row.result.failed + row.result.errors;
    lines.push(
      `| ${row.label}${failed > 0 ? ` (${failed} failed)` : ''} | ${fixed(row.result.perSecond)} | ${fixed(row.result.p99, 1)} | ${fixed(row.cpuPerRequest)} µs | ${fixed(row.rss)} MB | ${row.logBytes === null ? '' : `${fixed(row.logBytes)} B`} |`,
    );
  }
  if (openLoopPeakRss > 0)
    lines.push(`| open loop: the server's peak RSS | | | | ${fixed(openLoopPeakRss)} MB | |`);
  if (peakRss > 0) {
    lines.push(
      `| the SQLite server's peak RSS through its whole run (goal ≤ 150 MB) | | | | ${fixed(peakRss)} MB | |`,
    );
  }
  return lines.join('\n');
}

/** a's throughput over b's, as a percentage. */
function ratio(a: string, b: string): string {
  const x = measured.get(a)?.result.perSecond;
  const y = measured.get(b)?.result.perSecond;
  return x === undefined || y === undefined ? 'n/a' : `${fixed((100 * x) / y)}%`;
}

/** a's server CPU per request over b's. */
function costRatio(a: string, b: string): string {
  const x = measured.get(a)?.cpuPerRequest;
  const y = measured.get(b)?.cpuPerRequest;
  return x === undefined || y === undefined ? 'n/a' : `${fixed(x / y, 2)}×`;
}

async function main(): Promise<void> {
  if (process.env['BENCH_NO_BUILD'] !== '1') {
    console.error(`building ${SERVER_DIR}`);
    execFileSync('npm', ['run', 'build'], {
      cwd: SERVER_DIR,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  if (process.env['BENCH_BACKLOG_ONLY'] === '1') {
    await runBacklogs();
    console.log(`\n${backlogLines.join('\n')}`);
    return;
  }
  console.error(`bare node:http, ${SECONDS} s a run, ${os.cpus().length} cores`);
  const sample = await sampleStatusBody();
  const bodyFile = path.join(WORK, 'status.json');
  fs.writeFileSync(bodyFile, sample);
  bare = await startBare(bodyFile);
  await generate('closed', { url: bare.url, targets: BARE_ROOT, seconds: 2, connections: 32 });
  await measure('bare node:http, 32 conns', bare, BARE_ROOT, { logged: false });
  try {
    await runDatabase('sqlite');
    if (PG_URL === undefined) console.error('PostgreSQL: skipped (set TEST_DATABASE_URL)');
    else if (process.env['BENCH_STATUS_ONLY'] !== '1') await runDatabase('postgres');
  } finally {
    await stop(bare);
  }
  const statusLine =
    `status/bare sent the same requests, the median of ${PAIRS} pairs (lowest–highest): ` +
    `${pairLine('SQLite')}; ${pairLine('PostgreSQL')}\n` +
    `open chat/status poll, both revalidated (304), the median of ${PAIRS} pairs ` +
    `(lowest–highest): ${chatLine('SQLite')}; ${chatLine('PostgreSQL')}`;
  if (process.env['BENCH_STATUS_ONLY'] === '1') {
    console.log(`\n${table()}\n\n${statusLine}`);
    return;
  }
  await runBacklogs();

  console.log(`\n${table()}\n`);
  for (const line of backlogLines) console.log(line);
  const lines = [
    ['rates/calculate / bare', ratio('rates/calculate, SQLite', 'bare node:http, 32 conns')],
    ['active / bare', ratio('active, SQLite', 'bare node:http, 32 conns')],
    ['history page 1 / bare', ratio('history page 1, SQLite', 'bare node:http, 32 conns')],
    ['create / bare', ratio('create, SQLite', 'bare node:http, 32 conns')],
    [
      'status CPU per request, 100 000 / 1 000 orders',
      costRatio('status, SQLite, 100 000 orders', 'status, SQLite, 1 000 orders'),
    ],
    [
      'history page 1 CPU per request, 100 000 / 1 000 orders',
      costRatio('history page 1, SQLite, 100 000 orders', 'history page 1, SQLite'),
    ],
    [
      'history page 100 / page 1 CPU per request',
      costRatio('history page 100 of 2 000 orders', 'history page 1 of 2 000 orders'),
    ],
  ];
  for (const [name, value] of lines) console.log(`${name}: ${value}`);
  console.log(statusLine);
}

/** A real status answer, for the bare server to send: the same bytes on the wire. */
async function sampleStatusBody(): Promise<string> {
  const database: DatabaseConfig = { kind: 'sqlite', path: path.join(WORK, 'sample.db') };
  const server = await startServer(database);
  const { db } = openDatabase(database);
  try {
    const [[id, orderIds] = [0, []]] = [
      ...(await seed(db, [CUSTOMER_ID_BASE], () => [openOrder(1)])),
    ];
    const res = await fetch(`${server.url}/api/orders/${orderIds[0] ?? ''}/status`, {
      headers: authHeaders(id),
    });
    if (!res.ok) throw new Error(`status answered ${res.status}: ${await res.text()}`);
    return await res.text();
  } finally {
    await stop(server);
    await db.destroy();
  }
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(removeWork);
