/**
 * Reads each market source on its own schedule, whatever the traffic: once per its interval,
 * by one instance at a time (a lease on the source's row), each read with its timeout; a fault is kept as
 * the source's state and its prices are left to age, never replaced by a guess. What a read
 * answers is stored as the source's latest prices (what quotes are made of) and in the history
 * (the console's chart).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/schema';
import { periodicJob, type JobOptions, type PeriodicJob } from '../platform/jobs/periodic';
import type { Market, ScheduledSource } from './market';
import { watchPairs } from './market-watch';
import { SourceFault, type SourcePrice } from './sources/source';

/** How often the job looks for a source due: a read is late by this much at most. */
const TICK_MS = 1_000;
/** How long a claimed source stays its reader's: far longer than a read's own timeout. */
const LEASE_MS = 60_000;

/** This process's name on the leases it takes. */
const INSTANCE = randomUUID();

/** What one read did, for the log and the tests. */
export type ReadOutcome =
  | { readonly source: string; readonly read: number }
  | { readonly source: string; readonly fault: SourceFault };

/** Makes sure each configured source has its row, due at once the first time. */
async function registerSources(db: Kysely<Database>, sources: readonly ScheduledSource[]) {
  for (const { source } of sources) {
    await db
      .insertInto('rate_sources')
      .values({ name: source.name, next_read_at: 0 })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }
}

/** Takes the source if it is due and no other instance holds it; true when taken. */
async function claim(db: Kysely<Database>, name: string, now: number): Promise<boolean> {
  const taken = await db
    .updateTable('rate_sources')
    .set({ lease: INSTANCE, lease_until: now + LEASE_MS })
    .where('name', '=', name)
    .where('next_read_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return taken.numUpdatedRows > 0n;
}

async function store(
  db: Kysely<Database>,
  scheduled: ScheduledSource,
  prices: readonly SourcePrice[],
  now: number,
): Promise<void> {
  const name = scheduled.source.name;
  await db.transaction().execute(async (trx) => {
    for (const price of prices) {
      const row = { units: price.units, at: price.at, read_at: now, detail: price.detail ?? null };
      await trx
        .insertInto('rate_prices')
        .values({ source: name, base: price.base, quote: price.quote, ...row })
        .onConflict((oc) => oc.columns(['source', 'base', 'quote']).doUpdateSet(row))
        .execute();
    }
    if (prices.length > 0) {
      await trx
        .insertInto('rate_history')
        .values(
          prices.map((price) => ({
            source: name,
            base: price.base,
            quote: price.quote,
            units: price.units,
            read_at: now,
          })),
        )
        .execute();
    }
    await trx
      .updateTable('rate_sources')
      .set({
        next_read_at: now + scheduled.everyMs,
        lease: null,
        lease_until: null,
        read_at: now,
        failed_at: null,
        fault_kind: null,
        fault_message: null,
      })
      .where('name', '=', name)
      .execute();
  });
}

async function keepFault(
  db: Kysely<Database>,
  scheduled: ScheduledSource,
  fault: SourceFault,
  now: number,
): Promise<void> {
  await db
    .updateTable('rate_sources')
    .set({
      // A source that asked for a pause gets it, and never sooner than its interval.
      next_read_at: now + Math.max(scheduled.everyMs, fault.retryAfterMs ?? 0),
      lease: null,
      lease_until: null,
      failed_at: now,
      fault_kind: fault.kind,
      fault_message: fault.message.slice(0, 500),
    })
    .where('name', '=', scheduled.source.name)
    .execute();
}

/** Reads every source that is due, side by side; answers what each read did. */
export async function readDueSources(
  db: Kysely<Database>,
  sources: readonly ScheduledSource[],
  now: number,
  signal?: AbortSignal,
): Promise<ReadOutcome[]> {
  await registerSources(db, sources);
  const outcomes = await Promise.all(
    sources.map(async (scheduled): Promise<ReadOutcome | undefined> => {
      const name = scheduled.source.name;
      if (!(await claim(db, name, now))) return undefined;
      try {
        const prices = await scheduled.source.read(signal ?? new AbortController().signal, now);
        await store(db, scheduled, prices, now);
        return { source: name, read: prices.length };
      } catch (error) {
        const fault =
          error instanceof SourceFault
            ? error
            : new SourceFault('malformed', error instanceof Error ? error.message : String(error));
        await keepFault(db, scheduled, fault, now);
        return { source: name, fault };
      }
    }),
  );
  return outcomes.filter((outcome) => outcome !== undefined);
}

/**
 * The job reading the configured sources, then telling the operators of each pair that stopped
 * or started being quoted (market-watch.ts); a failed read is logged once.
 */
export function marketReaderJob(
  db: Kysely<Database>,
  market: Market,
  options: JobOptions,
): PeriodicJob {
  return periodicJob({
    name: 'market rates',
    intervalMs: TICK_MS,
    log: options.log,
    monitor: options.monitor,
    run: async ({ signal, log }) => {
      const now = options.now();
      for (const outcome of await readDueSources(db, market.sources, now, signal)) {
        if ('fault' in outcome) {
          const { kind, message } = outcome.fault;
          log.warn({ source: outcome.source, kind, reason: message }, 'rate source failed');
        }
      }
      for (const change of await watchPairs(db, market, now)) {
        log.warn(change, change.quoting ? 'pair quoted again' : 'pair not quoted');
      }
    },
  });
}
