/**
 * Housekeeping: removes files in RECEIPTS_DIR that no receipt nor chat message names (a lost race,
 * a crash between file and row, a half-written temporary), once no upload can still be writing
 * their row; and forgets call-limit windows long over. Removing twice is no harm across instances.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/schema';
import { pruneCallCounts } from '../platform/limits/rate-limit';
import { PARTIAL_SUFFIX } from './receipts';
import { deleteInBatches, yieldToEventLoop } from '../platform/jobs/batches';
import { periodicJob, type JobOptions, type PeriodicJob } from '../platform/jobs/periodic';

/** An upload writes its row within seconds of its file; an hour is far beyond any of them. */
export const ORPHAN_RECEIPT_AGE_MS = 60 * 60_000;
const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000;

const LOOKUP_BATCH = 500;

/** A receipt's file, or a chat message's, kept there the same way and for good. */
async function namedFiles(db: Kysely<Database>, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const [receipts, attachments] = await Promise.all([
    db.selectFrom('receipts').select('storage_key').where('storage_key', 'in', names).execute(),
    db
      .selectFrom('order_messages')
      .select('attachment_key')
      .where('attachment_key', 'in', names)
      .execute(),
  ]);
  return new Set([
    ...receipts.map((row) => row.storage_key),
    ...attachments.flatMap((row) => (row.attachment_key === null ? [] : [row.attachment_key])),
  ]);
}

/** Wall-clock, like the files' times. */
export async function removeOrphanReceipts(
  db: Kysely<Database>,
  dir: string,
  now: number,
  signal?: AbortSignal,
): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const old: string[] = [];
  for (const name of names) {
    const stat = await fs.stat(path.join(dir, name)).catch(() => undefined);
    if (stat?.isFile() === true && stat.mtimeMs <= now - ORPHAN_RECEIPT_AGE_MS) old.push(name);
  }
  const removed: string[] = [];
  for (let i = 0; i < old.length && signal?.aborted !== true; i += LOOKUP_BATCH) {
    if (i > 0) await yieldToEventLoop();
    const batch = old.slice(i, i + LOOKUP_BATCH);
    const stored = batch.filter((name) => !name.endsWith(PARTIAL_SUFFIX));
    const kept = await namedFiles(db, stored);
    for (const name of batch) {
      if (kept.has(name)) continue;
      await fs.rm(path.join(dir, name), { force: true });
      removed.push(name);
    }
  }
  return removed;
}

export function pruneExpiredCallCounts(
  db: Kysely<Database>,
  now: number,
  signal?: AbortSignal,
): Promise<number> {
  return deleteInBatches((limit) => pruneCallCounts(db, now, limit), signal);
}

export function createHousekeeping(
  options: JobOptions & { readonly db: Kysely<Database>; readonly receiptsDir: string },
): PeriodicJob {
  return periodicJob({
    ...options,
    name: 'housekeeping',
    intervalMs: HOUSEKEEPING_INTERVAL_MS,
    run: async ({ signal }) => {
      const removed = await removeOrphanReceipts(
        options.db,
        options.receiptsDir,
        Date.now(),
        signal,
      );
      if (removed.length > 0) options.log.warn({ files: removed }, 'orphan receipt files removed');
      await pruneExpiredCallCounts(options.db, options.now(), signal);
    },
  });
}
