/**
 * The chain checker (docs/chain-checks.md): follows each
 * submitted deposit hash on its network until the order can be trusted, so the seller's order
 * moves to TX_CONFIRMED by itself, actor `chain`, with the evidence in its audit trail.
 *
 * - `looking` (the node did not know the hash, or did not answer): the hash is looked up again
 *   with backoff (15 s doubling to 5 min while the node does not know it; after a fault, at the
 *   next round or when a 429 asked) and judged by the same
 *   rule as at the submission (chain/deposit-rules.ts). Found right: `seen`. Found wrong: the
 *   order stays TX_PENDING for operators, flagged (the seller left the screen long ago). Not
 *   found after the lookup window (CHAIN_LOOKUP_WINDOW_MINUTES): `not_found`, flagged once.
 * - `seen`: its confirmations counted from the network's head, read once per round whatever
 *   the number of deposits. Once final (EVM: the configured confirmations; Tron: solidified) the
 *   transaction is read once more: still there in the same block, the order is confirmed; gone (a reorganised block), the
 *   check goes back to `looking`, flagged, and the customer's status answer says so.
 * - A node's fault is logged, counted (the readers' metrics) and the row tried at the next round
 *   (or when the node asked): never judged, never "not found", never added to a backoff. An order that left TX_PENDING by other means (an operator
 *   confirmed it by hand, it was rejected) closes its check.
 *
 * An operator's payout (kind 'payout'; chain/payout-check.ts)
 * is followed the same way on its COMPLETED buy, judged by the payout rule: its confirmations
 * counted until final, then `confirmed` (the order does not move: it was completed by the
 * operator); a reorganised block flags operators and the payout is looked for again.
 *
 * The job's discipline is the sweeper's (platform/jobs/batches.ts): due rows claimed in bounded batches
 * through a lease (`claimed_until`; on PostgreSQL the claim also skips rows another instance is
 * claiming, FOR UPDATE SKIP LOCKED), so instances split the work and each row is checked once a
 * round; no node call inside a database transaction; a row that fails is logged, flagged and
 * set aside without holding up the rest; a stop claims no further batch.
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

/** The kinds of check a round follows, each claimed on its own (the key is order and kind). */
const CHECK_KINDS: readonly ChainCheckKind[] = ['deposit', 'payout'];

/** One round: for each network with due rows, one head and the due rows in bounded batches. */
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
    // Every round reads the head and scans the deposit address, whatever waits: a transfer
    // sent after its sell ended, or without one, is still seen, and the scan never falls behind.
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

/**
 * A network whose head could not be read: no row can be read this round; those unread for a
 * whole window are told of.
 */
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

/** A round on one network whose head was read: what its batches share. */
interface NetworkRound {
  readonly network: NetworkId;
  readonly settings: NetworkChainConfig;
  readonly head: ChainHead;
  readonly now: number;
  readonly outcomes: Map<string, CheckOutcome>;
  readonly options: ChainCheckOptions;
  /** Hash lookups of looking checks this round may still make on the network (its ration). */
  lookups: number;
}

/**
 * One batch of a claim: at most JOB_BATCH due rows claimed (looking rows within the round's
 * ration, but for those the scan woke) and checked. Returns the rows claimed.
 */
async function checkBatch(
  ctx: ChainCheckContext,
  round: NetworkRound,
  claim: Claim,
): Promise<DueCheck[]> {
  const rationed = claim.state === 'looking' && claim.woken === undefined;
  const limit = rationed ? Math.min(JOB_BATCH, round.lookups) : JOB_BATCH;
  if (limit === 0) return [];
  // Taken from the ration before the claim: on PostgreSQL lanes claim side by side.
  if (rationed) round.lookups -= limit;
  const claimed = await claimDue(ctx, round.network, claim, round.now, limit);
  // The batch works within half its lease: a slow node never lets the lease run out
  // under rows still to check (they go back, for this round's next batch or another's).
  const budgetEnds = performance.now() + CHAIN_CHECK_LEASE_MS / 2;
  if (rationed) round.lookups += limit - claimed.length;
  // A node that takes JSON-RPC batches gets a batch's lookups at once: one request.
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

/**
 * A batch's rows checked one after the other while the batch's time lasts. A stopping server
 * (SIGTERM) checks no further row and hands the rest of its claim back at once, rather than
 * leaving them to wait out their lease.
 */
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

/** The chain checker as a periodic job; none is made when every network is manual. */
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

/**
 * How far behind the checker is, in ms: how long the most overdue open check has waited for its
 * round (0 when none has). One statement over the open rows (the partial index
 * chain_checks_due), for the metrics to ask at every scrape.
 */
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

/** Whether any network is read from a node: only then does the server run the checker. */
export function checksAnyChain(ctx: Pick<ServerContext, 'chain'>): boolean {
  return Object.keys(ctx.chain).length > 0;
}
