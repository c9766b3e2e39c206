/**
 * The one discipline of every background job: work is claimed in
 * bounded batches, each in a short transaction of its own, and the job yields to the event loop
 * between two batches, so a request never waits behind more than one batch whatever the backlog
 * (on SQLite a transaction runs synchronously and holds the only connection: a batch of work
 * is a pause of the whole server). A batch is bounded twice: by the rows it claims (JOB_BATCH)
 * and by the time it takes (JOB_BATCH_MS), since the same rows take longer on a busy machine. A
 * job asked to stop (SIGTERM) finishes the batch in hand and claims no other.
 */

/** The most rows a job claims in one transaction. */
export const JOB_BATCH = 100;

/**
 * The time a batch may take on SQLite, measured on the wall clock: once spent, the batch
 * processes no further row (or step of rows) and leaves the rest it claimed to the next batch.
 * A request arriving meanwhile waits about this long, with one step and the commit, whatever the
 * backlog.
 */
export const JOB_BATCH_MS = 3;

/** How a job's batches run on a database. */
export interface BatchPolicy {
  /** The time a batch may take (BatchBudget). */
  readonly budgetMs: number;
  /** Batches run side by side, each in a transaction of its own. */
  readonly lanes: number;
  /**
   * After a batch that took d ms, the job rests d × this before the next one (0: a bare turn
   * of the event loop): requests keep that share of the thread however long the backlog.
   */
  readonly rest: number;
}

/**
 * On SQLite a batch runs synchronously and holds the only connection: one lane, a few ms, and
 * a rest after it so that requests keep a third of the thread even on a busy machine. On
 * PostgreSQL the event loop is free while a query travels: a longer budget (it bounds how long
 * claimed rows stay locked) and two lanes side by side (SKIP LOCKED gives each its own rows).
 * Two cancel 30 000 overdue orders in about 24 s on a machine of 2 cores (tests/server/system/
 * backlog.test.ts); more take the CPU that the database server and the requests share, and
 * polls slow down, without cancelling any faster. Eight of the pool's 10 connections stay for
 * requests.
 */
export const BATCH_POLICY: Readonly<Record<'sqlite' | 'postgres', BatchPolicy>> = {
  sqlite: { budgetMs: JOB_BATCH_MS, lanes: 1, rest: 0.5 },
  postgres: { budgetMs: 250, lanes: 2, rest: 0 },
};

/** What a batch may still spend: checked before each row but the first. */
export interface BatchBudget {
  /** Whether the batch has used its time: leave the rows not yet processed to the next one. */
  spent(): boolean;
}

/**
 * Lets the event loop run what is waiting (requests that arrived meanwhile, their queries)
 * before the job goes on: a promise resolved by `setImmediate` runs after the I/O poll, where
 * awaiting a resolved promise only runs other microtasks.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs `batch` again and again (each call claims at most `size` items, processes them while its
 * budget lasts and returns those it processed) until one returns fewer than `size` within its
 * budget, or `signal` is aborted; yields to the event loop after every batch. With several
 * lanes, each runs this loop on its own. Returns every item processed.
 */
export async function inBatches<T>(options: {
  readonly size: number;
  readonly batch: (budget: BatchBudget) => Promise<readonly T[]>;
  readonly signal?: AbortSignal | undefined;
  readonly policy?: BatchPolicy | undefined;
}): Promise<T[]> {
  const { budgetMs, lanes, rest } = options.policy ?? BATCH_POLICY.sqlite;
  const done: T[] = [];
  const lane = async () => {
    while (options.signal?.aborted !== true) {
      const started = performance.now();
      const budget = {
        cut: false,
        spent() {
          this.cut ||= performance.now() - started > budgetMs;
          return this.cut;
        },
      };
      const items = await options.batch(budget);
      done.push(...items);
      const restMs = (performance.now() - started) * rest;
      if (restMs > 0) await new Promise((resolve) => setTimeout(resolve, restMs));
      else await yieldToEventLoop();
      if (items.length < options.size && !budget.cut) break;
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return done;
}
