/**
 * The chain checker (docs/chain-checks.md, "Until final"): follows each deposit and payout hash
 * until final, confirming a seller's order itself. A node's fault is never judged "not found".
 * Rows are claimed in bounded batches under a lease, like the sweeper's, with no node call inside
 * a database transaction.
 */
import type { Kysely } from 'kysely';
import { NETWORK_IDS, type NetworkId } from '../../shared/networks';
import { ChainUnavailable, type ChainHead } from './readers/chain-reader';
import type { ServerContext } from '../platform/context';
import { type ChainCheckKind, type Database } from '../platform/db/schema';
import type { NetworkChainConfig } from '../platform/config/chain-config';
import { BATCH_POLICY, JOB_BATCH, inBatches } from '../platform/jobs/batches';
import { scanDeposits } from './chain-scan';
import type { DueCheck } from './check-rows';
import { periodicJob, type JobOptions, type PeriodicJob } from '../platform/jobs/periodic';
import { CHAIN_CHECK_LEASE_MS, claimDue, dueOn, type Claim } from './check-claims';
import { checkOrSetAside, flagUnreadable } from './check-row';
import {
  CHAIN_CHECK_JOB,
  type ChainCheckContext,
  type ChainCheckOptions,
  type ChainCheckResult,
  type CheckOutcome,
} from './check-context';
import { lookupsPerRound } from './lookup-ration';

export { CHAIN_CHECK_LEASE_MS } from './check-claims';
export { FAILED_CHECK_RETRY_MS } from './check-row';
export { LOOKUPS_PER_MINUTE, chainLookupBacklog, lookupsPerRound } from './lookup-ration';
export {
  CHAIN_CHECK_JOB,
  type ChainCheckContext,
  type ChainCheckOptions,
  type ChainCheckResult,
  type CheckOutcome,
} from './check-context';

/** Each kind is claimed on its own (the key is order and kind). */
const CHECK_KINDS: readonly ChainCheckKind[] = ['deposit', 'payout'];

export async function checkChainOnce(
  ctx: ChainCheckContext,
  now: number,
  options: ChainCheckOptions = {},
): Promise<ChainCheckResult> {
  const outcomes = new Map<string, CheckOutcome>();
  const heads: NetworkId[] = [];
  for (const network of NETWORK_IDS) {
    if (options.signal?.aborted === true) break;
    const reader = ctx.chain[network];
    const settings = ctx.config.chain[network];
    if (reader === undefined || settings === 'manual') continue;
    // Every round reads the head and scans, whatever waits: a late or hashless transfer is still
    // seen, and the scan never falls behind.
    let head: ChainHead;
    try {
      head = await reader.head();
    } catch (error) {
      if (!(error instanceof ChainUnavailable)) throw error;
      await headUnavailable(ctx, network, error, now, outcomes, options);
      continue;
    }
    heads.push(network);
    const { woken } = await scanDeposits(ctx, network, reader, settings, head, now, options);
    const lookups = options.lookups ?? lookupsPerRound(ctx.config.chainCheckIntervalMs);
    const round = { network, settings, head, now, outcomes, options, lookups };
    const claims: readonly Claim[] = [
      ...CHECK_KINDS.map((kind) => ({ kind, state: 'seen' as const })),
      ...(woken.length > 0 ? [{ kind: 'deposit' as const, state: 'looking' as const, woken }] : []),
      ...CHECK_KINDS.map((kind) => ({ kind, state: 'looking' as const })),
    ];
    for (const claim of claims) {
      await inBatches({
        size: JOB_BATCH,
        signal: options.signal,
        policy: BATCH_POLICY[ctx.dialect],
        batch: () => checkBatch(ctx, round, claim),
      });
    }
  }
  return { outcomes, heads };
}

async function headUnavailable(
  ctx: ChainCheckContext,
  network: NetworkId,
  error: ChainUnavailable,
  now: number,
  outcomes: Map<string, CheckOutcome>,
  options: ChainCheckOptions,
): Promise<void> {
  options.log?.warn({ network, fault: error.fault, err: error }, 'chain head unavailable');
  for (const row of await dueOn(ctx.db, network, now)
    .select(['order_id', 'kind', 'state', 'look_until', 'attempts', 'lease'])
    .where('look_until', '<=', now)
    .limit(JOB_BATCH)
    .execute()) {
    await flagUnreadable(ctx, row, error, now);
    outcomes.set(row.order_id, 'flagged');
  }
}

interface NetworkRound {
  readonly network: NetworkId;
  readonly settings: NetworkChainConfig;
  readonly head: ChainHead;
  readonly now: number;
  readonly outcomes: Map<string, CheckOutcome>;
  readonly options: ChainCheckOptions;
  /** Hash lookups this round may still make on the network (its ration). */
  lookups: number;
}

async function checkBatch(
  ctx: ChainCheckContext,
  round: NetworkRound,
  claim: Claim,
): Promise<DueCheck[]> {
  const rationed = claim.state === 'looking' && claim.woken === undefined;
  const limit = rationed ? Math.min(JOB_BATCH, round.lookups) : JOB_BATCH;
  if (limit === 0) return [];
  // Before the claim: on PostgreSQL, lanes claim side by side.
  if (rationed) round.lookups -= limit;
  const claimed = await claimDue(ctx, round.network, claim, round.now, limit);
  // Half the lease: a slow node never lets the lease run out under rows still to check.
  const budgetEnds = performance.now() + CHAIN_CHECK_LEASE_MS / 2;
  if (rationed) round.lookups += limit - claimed.length;
  const { settings } = round;
  if (claim.state === 'looking' && settings.family === 'evm' && settings.batch) {
    const checked = await Promise.all(claimed.map((row) => checkOrSetAside(ctx, row, round)));
    for (const [index, row] of claimed.entries()) {
      round.outcomes.set(row.order_id, checked[index] ?? 'failed');
    }
    return claimed;
  }
  await checkInTurn(ctx, round, claim.kind, claimed, budgetEnds);
  return claimed;
}

/** A stopping server checks no further row and hands its claim back rather than wait the lease. */
async function checkInTurn(
  ctx: ChainCheckContext,
  round: NetworkRound,
  kind: ChainCheckKind,
  claimed: readonly DueCheck[],
  budgetEnds: number,
): Promise<void> {
  for (const [index, row] of claimed.entries()) {
    if (round.options.signal?.aborted === true || performance.now() > budgetEnds) {
      const left = claimed.slice(index).map((r) => r.order_id);
      await ctx.db
        .updateTable('chain_checks')
        .set({ claimed_until: null, lease: null })
        .where('lease', '=', claimed[index]?.lease ?? null)
        .where('kind', '=', kind)
        .where('order_id', 'in', left)
        .execute();
      break;
    }
    round.outcomes.set(row.order_id, await checkOrSetAside(ctx, row, round));
  }
}

export function createChainChecker(
  options: JobOptions & { readonly ctx: ChainCheckContext },
): PeriodicJob {
  return periodicJob({
    ...options,
    name: CHAIN_CHECK_JOB,
    intervalMs: options.ctx.config.chainCheckIntervalMs,
    run: async (run) => {
      const result = await checkChainOnce(options.ctx, options.now(), run);
      const confirmed = [...result.outcomes].filter(([, outcome]) => outcome === 'confirmed');
      if (confirmed.length > 0) {
        const orders = confirmed.slice(0, 50).map(([id]) => id);
        options.log.info({ count: confirmed.length, orders }, 'deposits confirmed on the chain');
      }
    },
  });
}

/** How long the most overdue open check has waited, in ms (one statement, for every scrape). */
export async function chainCheckLag(db: Kysely<Database>, now: number): Promise<number> {
  const oldest = await db
    .selectFrom('chain_checks')
    .select((eb) => eb.fn.min<number | null>('next_check_at').as('at'))
    .where('state', 'in', ['looking', 'seen'])
    .where('next_check_at', '<=', now)
    .executeTakeFirst();
  const at = oldest?.at ?? null;
  return at === null ? 0 : Math.max(0, now - at);
}

export function checksAnyChain(ctx: Pick<ServerContext, 'chain'>): boolean {
  return Object.keys(ctx.chain).length > 0;
}
