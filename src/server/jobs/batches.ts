/**
 * The one discipline of every background job (design.md, "Background jobs"): work is claimed in
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
 * The time a batch may take, measured on the wall clock: once spent, the batch processes no
 * further row and leaves the rest it claimed to the next batch. On SQLite a request arriving
 * meanwhile waits this long at most, whatever the backlog.
 */
export const JOB_BATCH_MS = 5;

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
 * budget, or `signal` is aborted; yields to the event loop after every batch. Returns every item
 * processed, in order.
 */
export async function inBatches<T>(options: {
  readonly size: number;
  readonly batch: (budget: BatchBudget) => Promise<readonly T[]>;
  readonly signal?: AbortSignal | undefined;
}): Promise<T[]> {
  const done: T[] = [];
  while (options.signal?.aborted !== true) {
    const started = performance.now();
    const budget = {
      cut: false,
      spent() {
        this.cut ||= performance.now() - started > JOB_BATCH_MS;
        return this.cut;
      },
    };
    const items = await options.batch(budget);
    done.push(...items);
    await yieldToEventLoop();
    if (items.length < options.size && !budget.cut) break;
  }
  return done;
}
