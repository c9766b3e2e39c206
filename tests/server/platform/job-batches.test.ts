/**
 * The discipline every background job follows (platform/jobs/batches.ts): batches
 * bounded by rows and by time, a turn of the event loop between two of them, and no batch
 * claimed once the job is asked to stop.
 */
import { describe, expect, it } from 'vitest';
import {
  JOB_BATCH_MS,
  inBatches,
  type BatchBudget,
} from '../../../src/server/platform/jobs/batches';

/** A queue of `count` items, taken `size` at a time, each taking `ms` of busy work. */
function queue(count: number, ms = 0) {
  let left = count;
  return async (size: number, budget: BatchBudget): Promise<number[]> => {
    await Promise.resolve();
    const taken: number[] = [];
    const claimed = Math.min(size, left);
    for (let i = 0; i < claimed; i++) {
      if (taken.length > 0 && budget.spent()) break;
      const until = performance.now() + ms;
      while (performance.now() < until);
      taken.push(count - left);
      left--;
    }
    return taken;
  };
}

describe('a job works through a backlog in bounded batches', () => {
  it('takes batch after batch until one comes back short, every item once and in order', async () => {
    const take = queue(250);
    const sizes: number[] = [];
    const done = await inBatches({
      size: 100,
      batch: async (budget) => {
        const items = await take(100, budget);
        sizes.push(items.length);
        return items;
      },
    });
    expect(sizes).toEqual([100, 100, 50]);
    expect(done).toEqual(Array.from({ length: 250 }, (_, i) => i));
  });

  it('lets the event loop run between two batches (a request waits for one batch, not all)', async () => {
    const take = queue(500);
    let turns = 0;
    const turnsAtBatch: number[] = [];
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    await inBatches({
      size: 100,
      batch: (budget) => {
        turnsAtBatch.push(turns);
        return take(100, budget);
      },
    });
    ticking = false;
    // Each batch after the first starts after at least one more turn of the loop.
    for (let i = 1; i < turnsAtBatch.length; i++) {
      expect(turnsAtBatch[i]).toBeGreaterThan(turnsAtBatch[i - 1] ?? 0);
    }
  });

  it(`ends a batch once it has taken ${JOB_BATCH_MS} ms and goes on with the next, however many rows it claimed`, async () => {
    const take = queue(40, 1);
    const sizes: number[] = [];
    const done = await inBatches({
      size: 100,
      batch: async (budget) => {
        const items = await take(100, budget);
        sizes.push(items.length);
        return items;
      },
    });
    expect(done).toHaveLength(40);
    expect(sizes.length).toBeGreaterThan(1);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(JOB_BATCH_MS + 2);
  });

  it('with lanes side by side (PostgreSQL), every item is still taken once', async () => {
    const take = queue(1_050);
    const done = await inBatches({
      size: 100,
      policy: { budgetMs: 100, lanes: 3, rest: 0 },
      batch: (budget) => take(100, budget),
    });
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 1_050 }, (_, i) => i));
  });

  it('claims no batch once asked to stop, and finishes the one in hand', async () => {
    const take = queue(1_000);
    const stop = new AbortController();
    const done = await inBatches({
      size: 100,
      signal: stop.signal,
      batch: async (budget) => {
        const items = await take(100, budget);
        stop.abort();
        return items;
      },
    });
    expect(done).toHaveLength(100);
  });
});
