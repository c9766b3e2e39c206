/**
 * The backlog a server must work through without stalling a request, shared by its server test
 * (tests/server/system/backlog.test.ts) and `npm run bench` (tests/bench/api.ts): a database that holds,
 * at start-up, 40 000 orders waiting for requisites for over 10 minutes (each to be flagged for
 * operators) and 30 000 orders past their payment deadline (each to be cancelled), written fast
 * before the server starts; then 8 customers' apps polling the status of their orders while the
 * server works through it.
 */
import http from 'node:http';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../src/server/platform/db/migrations';
import type { Database, NewOrderRow } from '../../src/server/platform/db/schema';
import { OPERATOR_USUAL_ANSWER_MS } from '../../src/shared/limits';
import { authHeader, initDataFor } from './identity';
import { ORDER_DEFAULTS } from './orders';

export const BACKLOG = {
  /** Orders waiting for requisites longer than the usual answer: each is flagged once. */
  toFlag: 40_000,
  /** Orders given requisites whose payment deadline has passed: each is cancelled. */
  overdue: 30_000,
  /** Customers owning them, each with as many orders of both kinds. */
  customers: 1_000,
  /** Customers whose apps poll while the server works. */
  pollers: 8,
} as const;

/** The goal: no poll slower than this, p99 under P99_MS, every overdue order cancelled in time. */
export const BACKLOG_GOAL = { maxMs: 500, p99Ms: 100, cancelledWithinMs: 45_000 } as const;

const CUSTOMER_BASE = 8_100_000_000;
/** Rows per INSERT: ~30 columns each, well under SQLite's 32 766 parameters. */
const ROWS_PER_INSERT = 500;

export interface Poller {
  readonly customerId: number;
  readonly orderIds: readonly string[];
}

/**
 * Writes the backlog (`now` is the server's clock at start-up) in one transaction of multi-row
 * inserts; returns the pollers' customers and their orders.
 */
export async function seedBacklog(
  db: Kysely<Database>,
  dialect: Dialect,
  now: number,
  counts: { readonly toFlag: number; readonly overdue: number } = BACKLOG,
): Promise<Poller[]> {
  const customers = Array.from({ length: BACKLOG.customers }, (_, i) => CUSTOMER_BASE + i);
  const owned = new Map<number, string[]>(customers.map((id) => [id, []]));
  const rows: NewOrderRow[] = [];
  const add = (i: number, fields: Partial<NewOrderRow>) => {
    const userId = customers[i % customers.length] ?? CUSTOMER_BASE;
    const id = crypto.randomUUID();
    owned.get(userId)?.push(id);
    rows.push({
      ...ORDER_DEFAULTS,
      id,
      user_id: userId,
      status: 'WAITING_REQUISITES',
      requisites: null,
      payout_card: null,
      city_id: null,
      office_instructions: null,
      reservation: null,
      reject_reason: null,
      tx_hash: null,
      outgoing_tx_hash: null,
      requisites_ready_at: null,
      expires_at: null,
      reserved_until: null,
      created_at: now,
      updated_at: now,
      ...fields,
    });
  };
  for (let i = 0; i < counts.toFlag; i++) {
    // Waiting 11 to 30 minutes: past the usual answer, within the hour before no_operator.
    const created = now - OPERATOR_USUAL_ANSWER_MS - 60_000 - (i % 19) * 60_000;
    add(i, { created_at: created, updated_at: created, expires_at: created + 3_600_000 });
  }
  for (let i = 0; i < counts.overdue; i++) {
    const created = now - 3_600_000 - (i % 600) * 60_000;
    add(i, {
      status: 'REQUISITES_READY',
      requisites: JSON.stringify({
        cardNumber: '2200700123456781',
        bankName: 'Т-Банк',
        cardHolder: 'IVAN PETROV',
      }),
      created_at: created,
      updated_at: created + 60_000,
      requisites_ready_at: created + 60_000,
      expires_at: created + 60_000 + 30 * 60_000,
    });
  }
  await db.transaction().execute(async (trx) => {
    for (let at = 0; at < customers.length; at += ROWS_PER_INSERT) {
      await trx
        .insertInto('users')
        .values(
          customers.slice(at, at + ROWS_PER_INSERT).map((id) => ({
            telegram_id: id,
            first_name: `Backlog ${id}`,
            last_name: null,
            username: null,
            language_code: 'en',
            first_seen_at: now,
            last_seen_at: now,
          })),
        )
        .execute();
    }
    for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
      await trx
        .insertInto('orders')
        .values(rows.slice(at, at + ROWS_PER_INSERT))
        .execute();
    }
  });
  // On SQLite the rows are in the write-ahead log until a checkpoint copies them: done here, so
  // that the server's first commit does not copy the whole backlog (a start-up the test made,
  // not one an outage makes).
  if (dialect === 'sqlite') await sql`pragma wal_checkpoint(truncate)`.execute(db);
  return customers
    .slice(0, BACKLOG.pollers)
    .map((customerId) => ({ customerId, orderIds: owned.get(customerId) ?? [] }));
}

/**
 * How much of the backlog is left: overdue orders not yet cancelled, waiting ones not flagged
 * (each count read through an index, so that asking often costs the asking process little).
 */
export async function backlogLeft(
  db: Kysely<Database>,
  now: number,
): Promise<{ overdue: number; unflagged: number }> {
  const overdue = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('status', '=', 'REQUISITES_READY')
    .where('expires_at', '<=', now)
    .executeTakeFirstOrThrow();
  const unflagged = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('status', '=', 'WAITING_REQUISITES')
    .where('deadline_alerted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { overdue: Number(overdue.count), unflagged: Number(unflagged.count) };
}

export interface PollFigures {
  readonly polls: number;
  readonly failed: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** The value below which `share` of the sorted `values` lie. */
export function percentile(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
}

/**
 * Runs one app per poller until `stop` resolves: each asks for the status of its customer's
 * orders in turn, the next request PAUSE_MS after an answer (an app on a fast poll), on a
 * keep-alive connection of its own; returns the latencies.
 */
export async function pollWhile(
  url: string,
  pollers: readonly Poller[],
  stop: Promise<unknown>,
): Promise<PollFigures> {
  const PAUSE_MS = 20;
  const latencies: number[] = [];
  let failed = 0;
  let stopped = false;
  void stop.finally(() => (stopped = true));
  const poll = (agent: http.Agent, path: string, headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const req = http.get(`${url}${path}`, { agent, headers, timeout: 60_000 }, (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      });
      req.once('timeout', () => req.destroy(new Error('timed out')));
      req.once('error', reject);
    });
  await Promise.all(
    pollers.map(async (poller, n) => {
      const headers = {
        ...authHeader(initDataFor({ id: poller.customerId, first_name: `Backlog ${n}` })),
        'accept-language': 'en',
      };
      const own = new http.Agent({ keepAlive: true, maxSockets: 1 });
      for (let i = n; !stopped; i++) {
        const orderId = poller.orderIds[i % poller.orderIds.length] ?? '';
        const began = performance.now();
        try {
          const status = await poll(own, `/api/orders/${orderId}/status`, headers);
          if (status !== 200) failed++;
        } catch {
          failed++;
        }
        latencies.push(performance.now() - began);
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      }
      own.destroy();
    }),
  );
  const sorted = latencies.sort((a, b) => a - b);
  return {
    polls: sorted.length,
    failed,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? 0,
  };
}
