/**
 * The expiry sweeper: deadlines are stored on the order and
 * enforced here whether or not the app is open, also right after a restart. An order past its
 * deadline (EXPIRABLE_STATUSES: `reservedUntil` at the office, else `expiresAt`) is cancelled:
 * `expired`, or `no_operator` when it still waited for requisites or office instructions. An
 * order waiting for an operator longer than the usual 10 minutes is flagged for operators once,
 * and so is an order whose customer already paid or sent crypto past its deadline: it never
 * expires by itself. Each flag alerts the operators' chat, and a customer who has yet to pay is
 * reminded shortly before the deadline.
 *
 * Safe with several server instances: on PostgreSQL each batch claims the due orders with
 * `FOR UPDATE SKIP LOCKED`, so instances split the work and a customer racing the sweeper waits
 * for its commit (SQLite's transactions run one at a time): whoever comes second finds the order
 * moved, and it changes once. Every part of a pass works in bounded batches with a yield between
 * them (platform/jobs/batches.ts), so a backlog of tens of thousands of due orders never holds up
 * a request; the expiry cancels a batch's orders in steps of a few statements each
 * (applySystemTransitionIn). An order whose expiry throws is logged, flagged for operators and
 * set aside, and its batch is claimed again without it: the others expire.
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

/**
 * An order whose expiry threw is tried again after this long (a fault may pass), not on every
 * pass: it would fail first in each, and its error would fill the log every 2 s.
 */
export const EXPIRY_RETRY_MS = 10 * 60_000;

/** The job's name in its log lines and metrics. */
const SWEEP_JOB = 'expiry sweep';

/** The expirable statuses whose deadline is `expiresAt` (the office's is `reservedUntil`). */
const BY_EXPIRES_AT = EXPIRABLE_STATUSES.filter((s) => s !== 'OFFICE_READY');

/**
 * What the sweeper has to do, order by order: each condition is written once, for its claim and
 * for its lag (`sweepLag`).
 */
type Orders = ExpressionBuilder<Database, 'orders'>;
/** Under an open appeal: its deadline no longer cancels it (only the appeal's decision ends it). */
const underAppeal = (eb: Orders) =>
  eb.exists(
    eb
      .selectFrom('appeals')
      .select('appeals.id')
      .whereRef('appeals.order_id', '=', 'orders.id')
      .where('appeals.decided_at', 'is', null),
  );
/** Past its deadline (`expiresAt`), not under appeal: to cancel. */
const pastExpiresAt = (eb: Orders, now: number) =>
  eb.and([eb('status', 'in', BY_EXPIRES_AT), eb('expires_at', '<=', now), eb.not(underAppeal(eb))]);
/** An office reservation past its end (`reservedUntil`), not under appeal: to cancel. */
const pastReservation = (eb: Orders, now: number) =>
  eb.and([
    eb('status', '=', 'OFFICE_READY'),
    eb('reserved_until', '<=', now),
    eb.not(underAppeal(eb)),
  ]);
/** Waiting for an operator longer than usual (since `createdAt`), not yet flagged. */
const waitingTooLong = (eb: Orders, now: number) =>
  eb.and([
    eb('deadline_alerted_at', 'is', null),
    eb('status', 'in', WAITING_FOR_OPERATOR),
    eb('created_at', '<=', now - OPERATOR_USUAL_ANSWER_MS),
  ]);
/** Paid (or crypto sent) past its deadline (`expiresAt`), not yet flagged. */
const paidPastDeadline = (eb: Orders, now: number) =>
  eb.and([
    eb('deadline_alerted_at', 'is', null),
    eb('status', 'in', PAID_STATUSES),
    eb('expires_at', '<=', now),
  ]);
/** Not paid yet, its deadline (`expiresAt`) close: the customer is reminded once. */
const reminderDue = (eb: Orders, now: number) =>
  eb.and([
    eb('reminded_at', 'is', null),
    eb('status', 'in', AWAITING_PAYMENT),
    eb('expires_at', '>', now),
    eb('expires_at', '<=', now + PAYMENT_REMINDER_BEFORE_MS),
  ]);

export interface SweepResult {
  readonly expired: readonly string[];
  /** Orders whose expiry threw: left as they were, flagged for operators, skipped. */
  readonly failed: readonly string[];
  readonly flagged: readonly string[];
  readonly reminded: readonly string[];
}

/** The database a sweep runs on, and which one it is: only PostgreSQL has row locks to skip. */
export interface SweptDatabase {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
}

export interface SweepOptions {
  /** Aborted when the server stops: the sweep claims no further batch. */
  readonly signal?: AbortSignal | undefined;
  readonly log?: FastifyBaseLogger | undefined;
  /**
   * The orders whose expiry threw, with when, kept by the job from one pass to the next: each
   * is skipped until EXPIRY_RETRY_MS later. A pass without it skips them for the pass only.
   */
  readonly failing?: Map<string, number> | undefined;
  /** Told of each order whose expiry threw (the server's metrics). */
  readonly monitor?: JobMonitor | undefined;
}

/**
 * A claim of at most JOB_BATCH rows: on PostgreSQL several instances split the due orders instead
 * of racing for them, each taking the rows no other holds. SQLite has one writer at a time, so its
 * claim is the transaction itself.
 */
function claim<Q extends { forUpdate(): Q; skipLocked(): Q; limit(n: number): Q }>(
  query: Q,
  dialect: Dialect,
): Q {
  const bounded = query.limit(JOB_BATCH);
  return dialect === 'postgres' ? bounded.forUpdate().skipLocked() : bounded;
}

/** What every part of a pass works on: the database, the pass's moment and its stop signal. */
interface Pass {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  readonly now: number;
  readonly signal: AbortSignal | undefined;
}

/** Runs one part of a pass in bounded batches, each claiming and committing on its own. */
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

/**
 * Works through the claimed orders while the batch's budget lasts (the first one always);
 * returns those it got to, the rest being left to the next batch.
 */
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

/**
 * Orders cancelled together in one step of a batch (applySystemTransitionIn): a few statements
 * for all of them, and few enough that a step stays a pause of a few ms.
 */
const EXPIRY_STEP = 25;

/** A batch's claim in steps: each suspect alone (to find which one throws), the rest together. */
function expirySteps(ids: readonly string[], suspects: ReadonlySet<string>): string[][] {
  const steps = ids.filter((id) => suspects.has(id)).map((id) => [id]);
  const others = ids.filter((id) => !suspects.has(id));
  for (let at = 0; at < others.length; at += EXPIRY_STEP) {
    steps.push(others.slice(at, at + EXPIRY_STEP));
  }
  return steps;
}

/** Where a batch of expiries got to: the step it was at, and the orders it cancelled. */
interface ExpiryProgress {
  step?: readonly string[];
  cancelled: string[];
}

/** One batch of expiries, committed together: returns the orders it claimed and processed. */
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

/** Cancels the orders past their deadline; those whose expiry throws are set aside. */
async function expireDue(
  pass: Pass,
  options: SweepOptions,
  failing: Map<string, number>,
): Promise<Pick<SweepResult, 'expired' | 'failed'>> {
  const expired: string[] = [];
  const failed: string[] = [];
  // The orders of a step that threw: claimed again, each in a step of its own.
  const suspects = new Set<string>();
  await batchesOf(pass, async (budget) => {
    // A step that throws undoes its batch. A step of several orders makes them suspects and the
    // batch is claimed again; a suspect that throws alone is set aside (logged, flagged for
    // operators, skipped while EXPIRY_RETRY_MS lasts), so one bad order never holds up the
    // others. (A savepoint per step would cost two more round trips for every step, to save a
    // batch in the rare case of a fault.)
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

/**
 * Claims a batch of orders overdue for the operators: those waiting too long first, then those
 * paid late. Two claims, each served by an index (the waiting ones by orders_unalerted): one
 * query with both under an OR walks past orders flagged already.
 */
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

/** Flags for operators, once, each order waiting too long for them or paid past its deadline. */
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

/**
 * The customer who has not paid (or sent the crypto) yet hears of the deadline once, shortly
 * before it, whether or not the app is open.
 */
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

/** One pass of the sweeper, its tasks one after the other: expire, flag, remind. */
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
 * How far behind the sweeper is, per part of its pass, in ms: how long the most overdue order
 * has waited for it (0 when none has). An order set aside because its expiry threw counts until
 * it is cancelled. One statement, whose parts read through the indexes of the sweeper's own
 * claims (orders_status_deadline, orders_unalerted) the orders overdue for them alone: none while
 * the sweeper keeps up, so the metrics can ask at every scrape.
 */
export interface SweepLag {
  /** Past its deadline and not cancelled yet. */
  readonly expire: number;
  /** Waiting for an operator over 10 minutes and not flagged yet. */
  readonly flagWaiting: number;
  /** Paid past its deadline and not flagged yet. */
  readonly flagPaidLate: number;
  /** Due for its payment reminder and not reminded yet. */
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
  /** How long ago `due` was, when it was. */
  const since = (due: number | null, offset = 0): number =>
    due === null ? 0 : Math.max(0, now - (due + offset));
  return {
    expire: Math.max(since(oldest.expiresAt), since(oldest.reservedUntil)),
    flagWaiting: since(oldest.waitingSince, OPERATOR_USUAL_ANSWER_MS),
    flagPaidLate: since(oldest.paidLate),
    remind: since(oldest.reminderDeadline, -PAYMENT_REMINDER_BEFORE_MS),
  };
}

/** At most this many ids in a log line: the count says the rest. */
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
