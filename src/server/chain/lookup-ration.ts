/** The per-minute ration of hash lookups a round makes for looking checks. */
import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/schema';
import type { NetworkFigure } from './readers/chain-reader';

/**
 * Lookups of looking checks per network and minute, oldest first, shared over the rounds: a
 * thousand unbroadcast hashes still cost little. A hash the scan saw arriving is outside it.
 */
export const LOOKUPS_PER_MINUTE = 32;

export function lookupsPerRound(intervalMs: number): number {
  return Math.max(1, Math.round((LOOKUPS_PER_MINUTE * intervalMs) / 60_000));
}

/** Lookups due and not made yet: a backlog the ration works through, not a stopped checker. */
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
