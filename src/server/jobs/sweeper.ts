/**
 * The expiry sweeper (design.md, "Order lifecycle"): deadlines are stored on the order and
 * enforced here whether or not the app is open, also right after a restart. An order past its
 * deadline in REQUISITES_READY, WAITING_CRYPTO (`expiresAt`) or OFFICE_READY (`reservedUntil`) is
 * cancelled with reason `expired`. An order whose customer already paid or sent crypto never
 * expires by itself: it is flagged for operators once.
 *
 * Safe with several server instances: each cancel is the same conditional update as any other
 * transition, so two sweepers racing on one order change it once.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { OrderStatus } from '../../shared/order-status';
import type { Database } from '../db/schema';
import { AppError } from '../errors';
import { applyTransition } from '../orders/transition';

/** Often enough that an order is cancelled within 10 s of its deadline. */
export const SWEEP_INTERVAL_MS = 2_000;

const PAID: readonly OrderStatus[] = [
  'PAYMENT_PENDING',
  'PAYMENT_STARTED',
  'RECEIPT_UPLOADED',
  'TX_PENDING',
];

export interface SweepResult {
  readonly expired: readonly string[];
  readonly flagged: readonly string[];
}

export async function sweepOnce(db: Kysely<Database>, now: number): Promise<SweepResult> {
  const due = await db
    .selectFrom('orders')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([
          eb('status', 'in', ['REQUISITES_READY', 'WAITING_CRYPTO']),
          eb('expires_at', '<=', now),
        ]),
        eb.and([eb('status', '=', 'OFFICE_READY'), eb('reserved_until', '<=', now)]),
      ]),
    )
    .execute();

  const expired: string[] = [];
  for (const { id } of due) {
    try {
      await applyTransition(
        db,
        { orderId: id, action: 'expire', actor: 'system', actorId: null, reason: 'expired' },
        now,
      );
      expired.push(id);
    } catch (error) {
      // Moved on by someone else in the meantime (paid, cancelled): nothing to expire.
      if (!(error instanceof AppError && error.code === 'INVALID_STATUS')) throw error;
    }
  }

  const flagged = await db
    .updateTable('orders')
    .set({ needs_attention: 1, deadline_alerted_at: now })
    .where('status', 'in', PAID)
    .where('expires_at', '<=', now)
    .where('deadline_alerted_at', 'is', null)
    .returning('id')
    .execute();

  return { expired, flagged: flagged.map((r) => r.id) };
}

export interface Sweeper {
  start(): void;
  stop(): Promise<void>;
}

export function createSweeper(options: {
  readonly db: Kysely<Database>;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
  readonly intervalMs?: number;
}): Sweeper {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = sweepOnce(options.db, options.now()).then(
      (result) => {
        if (result.expired.length > 0) {
          options.log.info({ orders: result.expired }, 'orders expired');
        }
        if (result.flagged.length > 0) {
          options.log.warn({ orders: result.flagged }, 'paid orders past their deadline');
        }
      },
      (error: unknown) => {
        options.log.error({ err: error }, 'expiry sweep failed');
      },
    );
  };
  return {
    start() {
      if (timer !== undefined) return;
      tick();
      timer = setInterval(() => {
        void running.then(tick);
      }, options.intervalMs ?? SWEEP_INTERVAL_MS);
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
