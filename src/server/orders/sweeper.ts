/**
 * The expiry sweeper: deadlines stored on the order are enforced here, whether or not the app is
 * open. It cancels orders past their deadline, flags those an operator left waiting or that were
 * paid past it (they never expire by themselves), and reminds customers who have yet to pay.
 * Batches are bounded and, on PostgreSQL, claimed FOR UPDATE SKIP LOCKED, so instances split the
 * work and a customer racing the sweeper changes an order once.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import { OPERATOR_USUAL_ANSWER_MS, PAYMENT_REMINDER_BEFORE_MS } from '../../shared/limits';
import {
  AWAITING_PAYMENT,
  EXPIRABLE_STATUSES,
  PAID_STATUSES,
  WAITING_FOR_OPERATOR,
} from '../../shared/order-status';
import type { Dialect } from '../platform/db/migrations';
import { ORDER_COLUMNS, type Database } from '../platform/db/schema';
import { alertOperators, notifyCustomer } from './order-messages';
import { flagOrder } from './order-store';
import { applySystemTransitionIn } from './transition';
import { BATCH_POLICY, JOB_BATCH, inBatches, type BatchBudget } from '../platform/jobs/batches';
import {
  periodicJob,
  type JobMonitor,
  type JobOptions,
  type PeriodicJob,
} from '../platform/jobs/periodic';

/** Often enough that an order is cancelled within 10 s of its deadline. */
const SWEEP_INTERVAL_MS = 2_000;

/** Not every pass: a lasting fault would fail first in each and fill the log every 2 s. */
export const EXPIRY_RETRY_MS = 10 * 60_000;

const SWEEP_JOB = 'expiry sweep';

const BY_EXPIRES_AT = EXPIRABLE_STATUSES.filter((s) => s !== 'OFFICE_READY');

// Each condition is written once, for its claim and for its lag (`sweepLag`).
type Orders = ExpressionBuilder<Database, 'orders'>;
/** Under an open appeal, only the appeal's decision ends an order, not its deadline. */
const underAppeal = (eb: Orders) =>
  eb.exists(
    eb
      .selectFrom('appeals')
      .select('appeals.id')
      .whereRef('appeals.order_id', '=', 'orders.id')
      .where('appeals.decided_at', 'is', null),
  );
const pastExpiresAt = (eb: Orders, now: number) =>
  eb.and([eb('status', 'in', BY_EXPIRES_AT), eb('expires_at', '<=', now), eb.not(underAppeal(eb))]);
const pastReservation = (eb: Orders, now: number) =>
  eb.and([
    eb('status', '=', 'OFFICE_READY'),
    eb('reserved_until', '<=', now),
    eb.not(underAppeal(eb)),
  ]);
const waitingTooLong = (eb: Orders, now: number) =>
  eb.and([
    eb('deadline_alerted_at', 'is', null),
    eb('status', 'in', WAITING_FOR_OPERATOR),
    eb('created_at', '<=', now - OPERATOR_USUAL_ANSWER_MS),
  ]);
const paidPastDeadline = (eb: Orders, now: number) =>
  eb.and([
    eb('deadline_alerted_at', 'is', null),
    eb('status', 'in', PAID_STATUSES),
    eb('expires_at', '<=', now),
  ]);
const reminderDue = (eb: Orders, now: number) =>
  eb.and([
    eb('reminded_at', 'is', null),
    eb('status', 'in', AWAITING_PAYMENT),
    eb('expires_at', '>', now),
    eb('expires_at', '<=', now + PAYMENT_REMINDER_BEFORE_MS),
  ]);

export interface SweepResult {
  readonly expired: readonly string[];
  readonly failed: readonly string[];
  readonly flagged: readonly string[];
  readonly reminded: readonly string[];
}

/** Only PostgreSQL has row locks to skip. */
export interface SweptDatabase {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
}

export interface SweepOptions {
  readonly signal?: AbortSignal | undefined;
  readonly log?: FastifyBaseLogger | undefined;
  /** Kept by the job between passes: a failed order is skipped until EXPIRY_RETRY_MS later. */
  readonly failing?: Map<string, number> | undefined;
  readonly monitor?: JobMonitor | undefined;
}

/** PostgreSQL instances split the due orders; with SQLite's one writer the transaction claims. */
function claim<Q extends { forUpdate(): Q; skipLocked(): Q; limit(n: number): Q }>(
  query: Q,
  dialect: Dialect,
): Q {
  const bounded = query.limit(JOB_BATCH);
  return dialect === 'postgres' ? bounded.forUpdate().skipLocked() : bounded;
}

interface Pass {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  readonly now: number;
  readonly signal: AbortSignal | undefined;
}

function batchesOf(
  pass: Pass,
  batch: (budget: BatchBudget) => Promise<readonly string[]>,
): Promise<string[]> {
  return inBatches({
    size: JOB_BATCH,
    signal: pass.signal,
    policy: BATCH_POLICY[pass.dialect],
    batch,
  });
}

/** The first order always; the rest are left to the next batch once the budget is spent. */
async function eachWithinBudget(
  claimed: readonly { id: string }[],
  budget: BatchBudget,
  work: (id: string) => Promise<void>,
): Promise<string[]> {
  const processed: string[] = [];
  for (const { id } of claimed) {
    if (processed.length > 0 && budget.spent()) break;
    processed.push(id);
    await work(id);
  }
  return processed;
}

/** Few enough that a step stays a pause of a few ms. */
const EXPIRY_STEP = 25;

/** Each suspect alone (to find which one throws), the rest together. */
function expirySteps(ids: readonly string[], suspects: ReadonlySet<string>): string[][] {
  const steps = ids.filter((id) => suspects.has(id)).map((id) => [id]);
  const others = ids.filter((id) => !suspects.has(id));
  for (let at = 0; at < others.length; at += EXPIRY_STEP) {
    steps.push(others.slice(at, at + EXPIRY_STEP));
  }
  return steps;
}

interface ExpiryProgress {
  step?: readonly string[];
  cancelled: string[];
}

function expireBatch(
  pass: Pass,
  set: { readonly failing: ReadonlyMap<string, number>; readonly suspects: ReadonlySet<string> },
  budget: BatchBudget,
  trying: ExpiryProgress,
): Promise<string[]> {
  const { now } = pass;
  return pass.db.transaction().execute(async (trx) => {
    let due = trx
      .selectFrom('orders')
      .select('id')
      .where((eb) => eb.or([pastExpiresAt(eb, now), pastReservation(eb, now)]));
    if (set.failing.size > 0) due = due.where('id', 'not in', [...set.failing.keys()]);
    const claimed = await claim(due, pass.dialect).execute();
    const processed: string[] = [];
    for (const step of expirySteps(
      claimed.map(({ id }) => id),
      set.suspects,
    )) {
      if (processed.length > 0 && budget.spent()) break;
      trying.step = step;
      // An order moved by someone else since the claim is left as they made it.
      const moved = await applySystemTransitionIn(trx, 'expire', step, now);
      trying.cancelled.push(...moved.map((order) => order.id));
      processed.push(...step);
    }
    trying.step = undefined;
    return processed;
  });
}

async function expireDue(
  pass: Pass,
  options: SweepOptions,
  failing: Map<string, number>,
): Promise<Pick<SweepResult, 'expired' | 'failed'>> {
  const expired: string[] = [];
  const failed: string[] = [];
  const suspects = new Set<string>();
  await batchesOf(pass, async (budget) => {
    // A throwing step undoes its batch: its orders become suspects, claimed again each alone,
    // so one bad order is set aside and never holds up the others. (A savepoint per step would cost
    // two round trips each, to save a batch in a rare fault.)
    for (;;) {
      const trying: ExpiryProgress = { cancelled: [] };
      try {
        const processed = await expireBatch(pass, { failing, suspects }, budget, trying);
        expired.push(...trying.cancelled);
        return processed;
      } catch (error) {
        const step = trying.step;
        if (step === undefined) throw error;
        const [id] = step;
        if (step.length > 1 || id === undefined) {
          for (const suspect of step) suspects.add(suspect);
          continue;
        }
        options.log?.error({ err: error, orderId: id }, 'order could not expire: flagged');
        options.monitor?.itemFailed(SWEEP_JOB);
        failing.set(id, pass.now);
        failed.push(id);
        await flagOrder(pass.db, id);
      }
    }
  });
  return { expired, failed };
}

/** Two claims, each served by an index: one query with an OR would walk past flagged orders. */
async function claimOverdue(trx: Transaction<Database>, pass: Pass): Promise<{ id: string }[]> {
  const { now, dialect } = pass;
  const waiting = await claim(
    trx
      .selectFrom('orders')
      .select('id')
      .where((eb) => waitingTooLong(eb, now)),
    dialect,
  ).execute();
  const paidLate =
    waiting.length === JOB_BATCH
      ? []
      : await claim(
          trx
            .selectFrom('orders')
            .select('id')
            .where((eb) => paidPastDeadline(eb, now)),
          dialect,
        )
          .limit(JOB_BATCH - waiting.length)
          .execute();
  return [...waiting, ...paidLate];
}

function flagOverdue(pass: Pass): Promise<string[]> {
  const { now } = pass;
  return batchesOf(pass, (budget) =>
    pass.db.transaction().execute(async (trx) =>
      eachWithinBudget(await claimOverdue(trx, pass), budget, async (id) => {
        const order = await trx
          .updateTable('orders')
          .set({ needs_attention: 1, deadline_alerted_at: now })
          .where('id', '=', id)
          .returning(ORDER_COLUMNS)
          .executeTakeFirstOrThrow();
        const kind = PAID_STATUSES.includes(order.status) ? 'flag_paid_late' : 'flag_waiting';
        await alertOperators(trx, kind, order, `flag:${order.id}:${order.status}`, now);
      }),
    ),
  );
}

function remindCustomers(pass: Pass): Promise<string[]> {
  const { now } = pass;
  return batchesOf(pass, (budget) =>
    pass.db.transaction().execute(async (trx) => {
      const due = trx
        .selectFrom('orders')
        .select('id')
        .where((eb) => reminderDue(eb, now));
      return eachWithinBudget(await claim(due, pass.dialect).execute(), budget, async (id) => {
        const order = await trx
          .updateTable('orders')
          .set({ reminded_at: now })
          .where('id', '=', id)
          .returning(ORDER_COLUMNS)
          .executeTakeFirstOrThrow();
        await notifyCustomer(
          trx,
          'payment_reminder',
          order,
          `reminder:${order.id}:${order.status}`,
          now,
        );
      });
    }),
  );
}

export async function sweepOnce(
  database: SweptDatabase,
  now: number,
  options: SweepOptions = {},
): Promise<SweepResult> {
  const pass: Pass = { db: database.db, dialect: database.dialect, now, signal: options.signal };
  const failing = options.failing ?? new Map<string, number>();
  for (const [id, at] of failing) if (at <= now - EXPIRY_RETRY_MS) failing.delete(id);

  const { expired, failed } = await expireDue(pass, options, failing);
  const flagged = await flagOverdue(pass);
  const reminded = await remindCustomers(pass);
  return { expired, failed, flagged, reminded };
}

/**
 * How long the most overdue order has waited for each task, in ms. One statement through the
 * sweeper's own indexes, cheap while it keeps up, so the metrics can ask at every scrape.
 */
export interface SweepLag {
  readonly expire: number;
  readonly flagWaiting: number;
  readonly flagPaidLate: number;
  readonly remind: number;
}

export async function sweepLag(db: Kysely<Database>, now: number): Promise<SweepLag> {
  const oldest = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('orders')
        .select((o) => o.fn.min<number | null>('expires_at').as('at'))
        .where((o) => pastExpiresAt(o, now))
        .as('expiresAt'),
      eb
        .selectFrom('orders')
        .select((o) => o.fn.min<number | null>('reserved_until').as('at'))
        .where((o) => pastReservation(o, now))
        .as('reservedUntil'),
      eb
        .selectFrom('orders')
        .select((o) => o.fn.min<number | null>('created_at').as('at'))
        .where((o) => waitingTooLong(o, now))
        .as('waitingSince'),
      eb
        .selectFrom('orders')
        .select((o) => o.fn.min<number | null>('expires_at').as('at'))
        .where((o) => paidPastDeadline(o, now))
        .as('paidLate'),
      eb
        .selectFrom('orders')
        .select((o) => o.fn.min<number | null>('expires_at').as('at'))
        .where((o) => reminderDue(o, now))
        .as('reminderDeadline'),
    ])
    .executeTakeFirstOrThrow();
  const since = (due: number | null, offset = 0): number =>
    due === null ? 0 : Math.max(0, now - (due + offset));
  return {
    expire: Math.max(since(oldest.expiresAt), since(oldest.reservedUntil)),
    flagWaiting: since(oldest.waitingSince, OPERATOR_USUAL_ANSWER_MS),
    flagPaidLate: since(oldest.paidLate),
    remind: since(oldest.reminderDeadline, -PAYMENT_REMINDER_BEFORE_MS),
  };
}

const LOGGED_IDS = 50;

export function createSweeper(
  options: JobOptions & { readonly database: SweptDatabase },
): PeriodicJob {
  const failing = new Map<string, number>();
  return periodicJob({
    ...options,
    name: SWEEP_JOB,
    intervalMs: SWEEP_INTERVAL_MS,
    run: async (run) => {
      const result = await sweepOnce(options.database, options.now(), { ...run, failing });
      if (result.expired.length > 0) {
        const orders = result.expired.slice(0, LOGGED_IDS);
        options.log.info({ count: result.expired.length, orders }, 'orders expired');
      }
      if (result.flagged.length > 0) {
        const orders = result.flagged.slice(0, LOGGED_IDS);
        options.log.warn({ count: result.flagged.length, orders }, 'orders flagged for operators');
      }
    },
  });
}
