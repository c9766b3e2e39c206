/**
 * The one discipline of every background job (design.md, "Background jobs"): work is claimed in
 * bounded batches, each in a short transaction of its own, and the job yields to the event loop
 * between two batches, so a request never waits behind more than one batch whatever the backlog
 * (on SQLite a transaction runs synchronously and holds the only connection: a batch of work
 * is a pause of the whole server). A job asked to stop (SIGTERM) finishes the batch in hand and
 * claims no other.
 */

/** The most rows a job claims in one transaction: a few milliseconds of work on SQLite. */
export const JOB_BATCH = 100;

/**
 * Lets the event loop run what is waiting (requests that arrived meanwhile, their queries)
 * before the job goes on: a promise resolved by `setImmediate` runs after the I/O poll, where
 * awaiting a resolved promise only runs other microtasks.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs `batch` again and again (each call claims and processes at most `size` items and returns
 * them) until one returns fewer than `size`, or `signal` is aborted; yields to the event loop
 * after every batch. Returns every item processed, in order.
 */
export async function inBatches<T>(options: {
  readonly size: number;
  readonly batch: () => Promise<readonly T[]>;
  readonly signal?: AbortSignal | undefined;
}): Promise<T[]> {
  const done: T[] = [];
  while (options.signal?.aborted !== true) {
    const items = await options.batch();
    done.push(...items);
    await yieldToEventLoop();
    if (items.length < options.size) break;
  }
  return done;
}
