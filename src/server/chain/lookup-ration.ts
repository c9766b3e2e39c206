/** The per-minute ration of hash lookups a round makes for looking checks. */
import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/schema';
import type { NetworkFigure } from './readers/chain-reader';

/**
 * Hash lookups of looking checks an instance makes per network and minute at most, oldest due
 * first, shared out over the minute's rounds (at least one a round): with a thousand hashes
 * nobody has broadcast, a round still makes one head read, one scan per contract and its share
 * of these. A hash the scan found arriving at the deposit address is looked up at once, outside
 * this ration: those are real deposits.
 */
export const LOOKUPS_PER_MINUTE = 32;

/** A round's share of LOOKUPS_PER_MINUTE at the configured interval. */
export function lookupsPerRound(intervalMs: number): number {
  return Math.max(1, Math.round((LOOKUPS_PER_MINUTE * intervalMs) / 60_000));
}

/**
 * Per network, the hash lookups due and not made yet: the looking checks waiting for their share
 * of LOOKUPS_PER_MINUTE. Apart from the lag (how long the most overdue waited): a thousand hashes
 * nobody broadcast make a backlog the ration works through, not a stopped checker.
 */
export async function chainLookupBacklog(
  db: Kysely<Database>,
  now: number,
): Promise<NetworkFigure[]> {
  const rows = await db
    .selectFrom('chain_checks')
    .select((eb) => ['network', eb.fn.countAll<number | string>().as('due')])
    .where('state', '=', 'looking')
    .where('next_check_at', '<=', now)
    .groupBy('network')
    .execute();
  return rows.map((row) => ({ network: row.network, value: Number(row.due) }));
}
