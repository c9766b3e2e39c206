/**
 * Per-customer limits on the calls that write (design.md leaves abuse to us): a fixed window per
 * customer and kind of call, counted in the database, so that several server instances behind a
 * load balancer share one count instead of each allowing the limit. Each counted call is one
 * upsert that starts a new window when the old one is over and returns the count.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './db/schema';
import { AppError } from './errors';

export type LimitedCall = 'create' | 'receipt' | 'action';

/** Calls per minute a customer may make, per kind. */
export const CALL_LIMITS: Readonly<Record<LimitedCall, number>> = {
  create: 10,
  receipt: 20,
  action: 60,
};

const CALL_WINDOW_MS = 60_000;

export interface RateLimiter {
  /** Counts a call; RATE_LIMITED (429) when the customer is over the limit of the minute. */
  hit(customerId: number, call: LimitedCall): Promise<void>;
}

export function createRateLimiter(
  db: Kysely<Database>,
  now: () => number,
  limits: Readonly<Record<LimitedCall, number>> = CALL_LIMITS,
): RateLimiter {
  return {
    async hit(customerId, call) {
      const at = now();
      const over = at - CALL_WINDOW_MS;
      const counted = await db
        .insertInto('call_counts')
        .values({ customer_id: customerId, call, window_start: at, count: 1 })
        .onConflict((oc) =>
          oc.columns(['customer_id', 'call']).doUpdateSet({
            // Both expressions read the row as it was: a window that is over starts again now.
            count: sql<number>`case when call_counts.window_start <= ${over} then 1 else call_counts.count + 1 end`,
            window_start: sql<number>`case when call_counts.window_start <= ${over} then ${at} else call_counts.window_start end`,
          }),
        )
        .returning(['count', 'window_start'])
        .executeTakeFirstOrThrow();
      if (counted.count > limits[call]) {
        throw new AppError('RATE_LIMITED', {
          retryAfter: Math.ceil((counted.window_start + CALL_WINDOW_MS - at) / 1000),
        });
      }
    },
  };
}

/**
 * Forgets at most `limit` windows that are long over (run by the housekeeping job, batch after
 * batch); returns how many.
 */
export async function pruneCallCounts(
  db: Kysely<Database>,
  now: number,
  limit = 1_000,
): Promise<number> {
  const result = await db
    .deleteFrom('call_counts')
    .where((eb) =>
      eb(
        eb.refTuple('customer_id', 'call'),
        'in',
        eb
          .selectFrom('call_counts as over')
          .select(['over.customer_id', 'over.call'])
          .where('over.window_start', '<=', now - CALL_WINDOW_MS)
          .limit(limit)
          .$asTuple('customer_id', 'call'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
