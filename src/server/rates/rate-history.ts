/**
 * The history of prices and bases: kept RATE_HISTORY_KEPT_MS (the console's chart shows the last
 * day), older rows removed in bounded batches by a job of its own, and read for the chart.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/schema';
import { deleteInBatches } from '../platform/jobs/batches';
import { periodicJob, type JobOptions, type PeriodicJob } from '../platform/jobs/periodic';

/** The day the chart shows, and a day more. */
export const RATE_HISTORY_KEPT_MS = 2 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 10 * 60_000;

/** Removes the history older than RATE_HISTORY_KEPT_MS, a batch of rows a statement. */
export function pruneRateHistory(
  db: Kysely<Database>,
  now: number,
  signal?: AbortSignal,
): Promise<number> {
  return deleteInBatches(async (limit) => {
    const deleted = await db
      .deleteFrom('rate_history')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('rate_history as old')
          .select('old.id')
          .where('old.read_at', '<', now - RATE_HISTORY_KEPT_MS)
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  }, signal);
}

export function rateHistoryJob(db: Kysely<Database>, options: JobOptions): PeriodicJob {
  return periodicJob({
    name: 'rate history',
    intervalMs: PRUNE_EVERY_MS,
    log: options.log,
    monitor: options.monitor,
    run: async ({ signal }) => {
      await pruneRateHistory(db, options.now(), signal);
    },
  });
}
