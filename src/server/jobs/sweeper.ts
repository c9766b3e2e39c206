/**
 * The expiry sweeper (design.md, "Order lifecycle"): deadlines are stored on the order and
 * enforced here whether or not the app is open, also right after a restart. An order past its
 * deadline (EXPIRABLE_STATUSES: `reservedUntil` at the office, else `expiresAt`) is cancelled:
 * `expired`, or `no_operator` when it still waited for requisites or office instructions. An
 * order waiting for an operator longer than the usual 10 minutes is flagged for operators once,
 * and so is an order whose customer already paid or sent crypto past its deadline: it never
 * expires by itself. Each flag alerts the operators' chat, and a customer who has yet to pay is
 * reminded shortly before the deadline.
 *
 * Safe with several server instances: on PostgreSQL each pass claims the due orders with
 * `FOR UPDATE SKIP LOCKED`, so instances split the work; and each cancel is the same conditional
 * update as any other transition, so a customer racing the sweeper changes the order once.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { OPERATOR_USUAL_ANSWER_MS, PAYMENT_REMINDER_BEFORE_MS } from '../../shared/limits';
import {
  AWAITING_PAYMENT,
  EXPIRABLE_STATUSES,
  PAID_STATUSES,
  WAITING_FOR_OPERATOR,
} from '../../shared/order-status';
import type { Dialect } from '../db/migrations';
import type { Database } from '../db/schema';
import { alertOperators, notifyCustomer } from '../notifications/outbox';
import { applyTransitionIn } from '../orders/transition';
import { periodicJob, type PeriodicJob } from './periodic';

/** Often enough that an order is cancelled within 10 s of its deadline. */
const SWEEP_INTERVAL_MS = 2_000;

/** The expirable statuses whose deadline is `expiresAt` (the office's is `reservedUntil`). */
const BY_EXPIRES_AT = EXPIRABLE_STATUSES.filter((s) => s !== 'OFFICE_READY');

export interface SweepResult {
  readonly expired: readonly string[];
  readonly flagged: readonly string[];
  readonly reminded: readonly string[];
}

/** How many due orders one pass claims at a time. */
const SWEEP_BATCH = 100;

/** The database a sweep runs on, and which one it is: only PostgreSQL has row locks to skip. */
export interface SweptDatabase {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
}

export async function sweepOnce(database: SweptDatabase, now: number): Promise<SweepResult> {
  const expired: string[] = [];
  for (;;) {
    const batch = await database.db.transaction().execute(async (trx) => {
      let due = trx
        .selectFrom('orders')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('status', 'in', BY_EXPIRES_AT), eb('expires_at', '<=', now)]),
            eb.and([eb('status', '=', 'OFFICE_READY'), eb('reserved_until', '<=', now)]),
          ]),
        )
        .orderBy('id')
        .limit(SWEEP_BATCH);
      // Several instances split the due orders instead of racing for them: each claims the rows
      // no other holds. SQLite has one writer at a time, so its claim is the transaction itself.
      if (database.dialect === 'postgres') due = due.forUpdate().skipLocked();
      const claimed = await due.execute();
      for (const { id } of claimed) {
        await applyTransitionIn(
          trx,
          { orderId: id, action: 'expire', actor: 'system', actorId: null },
          now,
        );
      }
      return claimed.map((row) => row.id);
    });
    expired.push(...batch);
    if (batch.length < SWEEP_BATCH) break;
  }

  const flagged = await database.db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable('orders')
      .set({ needs_attention: 1, deadline_alerted_at: now })
      .where('deadline_alerted_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', 'in', PAID_STATUSES), eb('expires_at', '<=', now)]),
          eb.and([
            eb('status', 'in', WAITING_FOR_OPERATOR),
            eb('created_at', '<=', now - OPERATOR_USUAL_ANSWER_MS),
          ]),
        ]),
      )
      .returningAll()
      .execute();
    for (const order of rows) {
      const kind = PAID_STATUSES.includes(order.status) ? 'flag_paid_late' : 'flag_waiting';
      await alertOperators(trx, kind, order, `flag:${order.id}:${order.status}`, now);
    }
    return rows;
  });

  // The customer who has not paid (or sent the crypto) yet hears of the deadline once, shortly
  // before it, whether or not the app is open.
  const reminded = await database.db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable('orders')
      .set({ reminded_at: now })
      .where('reminded_at', 'is', null)
      .where('status', 'in', AWAITING_PAYMENT)
      .where('expires_at', '>', now)
      .where('expires_at', '<=', now + PAYMENT_REMINDER_BEFORE_MS)
      .returningAll()
      .execute();
    for (const order of rows) {
      await notifyCustomer(
        trx,
        'payment_reminder',
        order,
        `reminder:${order.id}:${order.status}`,
        now,
      );
    }
    return rows;
  });

  return { expired, flagged: flagged.map((r) => r.id), reminded: reminded.map((r) => r.id) };
}

export function createSweeper(options: {
  readonly database: SweptDatabase;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
}): PeriodicJob {
  return periodicJob({
    name: 'expiry sweep',
    intervalMs: SWEEP_INTERVAL_MS,
    log: options.log,
    run: async () => {
      const result = await sweepOnce(options.database, options.now());
      if (result.expired.length > 0) {
        options.log.info({ orders: result.expired }, 'orders expired');
      }
      if (result.flagged.length > 0) {
        options.log.warn({ orders: result.flagged }, 'orders flagged for operators');
      }
    },
  });
}
