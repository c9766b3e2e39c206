/**
 * The one discipline of every background job: bounded batches, each in a short transaction, with
 * a yield to the event loop between two, so a request never waits behind more than one batch (on
 * SQLite a transaction holds the only connection: a batch is a pause of the whole server). A job
 * asked to stop finishes the batch in hand and claims no other.
 */

/** The most rows a job claims in one transaction. */
export const JOB_BATCH = 100;

/** On SQLite, by the wall clock: the same rows take longer on a busy machine. */
export const JOB_BATCH_MS = 3;

export interface BatchPolicy {
  readonly budgetMs: number;
  readonly lanes: number;
  /** After a batch of d ms the job rests d × this, so requests keep that share of the thread. */
  readonly rest: number;
}

/**
 * SQLite: one lane, a few ms, and a rest so requests keep a third of the thread. PostgreSQL frees
 * the event loop while a query travels: a longer budget (it bounds how long claimed rows stay
 * locked) and two lanes (SKIP LOCKED gives each its own rows); more would only slow polls down
 * (tests/server/system/backlog.test.ts), and eight of the pool's 10 connections stay for requests.
 */
export const BATCH_POLICY: Readonly<Record<'sqlite' | 'postgres', BatchPolicy>> = {
  sqlite: { budgetMs: JOB_BATCH_MS, lanes: 1, rest: 0.5 },
  postgres: { budgetMs: 250, lanes: 2, rest: 0 },
};

export interface BatchBudget {
  spent(): boolean;
}

/** `setImmediate` runs after the I/O poll; awaiting a resolved promise runs only microtasks. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Runs `batch` until one returns fewer than `size` within its budget, or `signal` aborts. */
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

/** Runs `remove` (which deletes at most JOB_BATCH rows and answers how many) until one deletes fewer; answers the total. */
export async function deleteInBatches(
  remove: (limit: number) => Promise<number>,
  signal?: AbortSignal,
): Promise<number> {
  let removed = 0;
  await inBatches({
    size: JOB_BATCH,
    signal,
    batch: async () => {
      const count = await remove(JOB_BATCH);
      removed += count;
      return Array.from({ length: count });
    },
  });
  return removed;
}
