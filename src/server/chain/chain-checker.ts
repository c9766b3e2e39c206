/**
 * The chain checker (design.md, "Chain checks"): follows each
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
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { NETWORK_IDS, type NetworkId } from '../../shared/networks';
import {
  ChainUnavailable,
  confirmationsOf,
  isFinal,
  type ChainHead,
  type NetworkFigure,
  type TransactionFound,
} from './readers/chain-reader';
import type { DepositJudgement, PayoutJudgement } from './deposit-rules';
import type { ServerContext } from '../platform/context';
import { isUniqueViolation } from '../platform/db/errors';
import type { Dialect } from '../platform/db/migrations';
import { type ChainCheckKind, type Database } from '../platform/db/schema';
import {
  FIRST_RETRY_MS,
  depositTargetOf,
  requiredConfirmations,
  retryDelay,
  transferColumns,
} from './deposit-check';
import type { NetworkChainConfig } from '../platform/config/chain-config';
import { BATCH_POLICY, JOB_BATCH, inBatches } from '../platform/jobs/batches';
import { scanDeposits } from './chain-scan';
import { CHECK_VERDICTS, type CheckLookup, type CheckVerdicts } from './check-verdicts';
import {
  CHECK_COLUMNS,
  LeaseLost,
  flag,
  stillHeld,
  updateCheck,
  type DueCheck,
  type HeldRow,
} from './check-rows';
import {
  periodicJob,
  type JobMonitor,
  type JobOptions,
  type PeriodicJob,
} from '../platform/jobs/periodic';
import { flagOrder } from '../orders';

/** The job's name in its log lines and metrics. */
export const CHAIN_CHECK_JOB = 'chain checker';

/**
 * How long an instance holds the rows it claimed: longer than a batch of lookups takes even
 * when each call runs into its timeout, so no other instance takes them meanwhile; a crashed
 * instance's rows are free again after it.
 */
export const CHAIN_CHECK_LEASE_MS = 5 * 60_000;

/**
 * When a seen deposit is due again: at the next round, not in this one. A round claims batch
 * after batch (and on PostgreSQL several lanes at once) until nothing is due at its `now`; a row
 * due at that very `now` again would be claimed a second time in the same round.
 */
const nextRound = (now: number): number => now + 1;

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

/** A row whose check threw (our fault, not the node's) is tried again after this long. */
export const FAILED_CHECK_RETRY_MS = 10 * 60_000;

/** What became of one row in a round. */
export type CheckOutcome =
  | 'waiting' // not found yet, or counting confirmations
  | 'fault' // the node did not answer: tried later
  | 'seen'
  | 'confirmed'
  | 'flagged'
  | 'closed'
  | 'stale' // its lease had passed to another instance: its verdict dropped, nothing written
  | 'failed'; // threw: logged, flagged, set aside

export interface ChainCheckResult {
  /** Each row handled this round, by order id, with its outcome. */
  readonly outcomes: ReadonlyMap<string, CheckOutcome>;
  /** Networks whose head was read this round. */
  readonly heads: readonly NetworkId[];
}

export interface ChainCheckOptions {
  readonly signal?: AbortSignal | undefined;
  /** Hash lookups this round may make per network: lookupsPerRound of the interval by default. */
  readonly lookups?: number | undefined;
  readonly log?: FastifyBaseLogger | undefined;
  readonly monitor?: JobMonitor | undefined;
}

export type ChainCheckContext = Pick<ServerContext, 'db' | 'config' | 'chain'> & {
  readonly dialect: Dialect;
};

/** The kinds of check a round follows, each claimed on its own (the key is order and kind). */
const CHECK_KINDS: readonly ChainCheckKind[] = ['deposit', 'payout'];

/**
 * What a round claims, in turn: seen rows (no call but at their final read), then the looking
 * rows the scan found arriving, then the other looking rows within the round's ration.
 */
interface Claim {
  readonly kind: ChainCheckKind;
  readonly state: 'seen' | 'looking';
  /** Only these orders' rows. */
  readonly woken?: readonly string[];
}

/** Rows of `network` and `kind` due now and held by nobody: what a round claims. */
function dueOn(db: Kysely<Database>, network: NetworkId, now: number, kind?: ChainCheckKind) {
  let query = db.selectFrom('chain_checks');
  if (kind !== undefined) query = query.where('kind', '=', kind);
  return query
    .where('network', '=', network)
    .where('state', 'in', ['looking', 'seen'])
    .where('next_check_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]));
}

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

/** What a row's check takes of its round: the head read, the time, the run's options. */
type RowRound = Pick<NetworkRound, 'head' | 'now' | 'options'>;

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

/**
 * Claims at most JOB_BATCH due rows of `network` for this instance: the lease is written in the
 * claim's own short transaction, so the lookups that follow hold no lock.
 */
async function claimDue(
  ctx: ChainCheckContext,
  network: NetworkId,
  claim: Claim,
  now: number,
  limit: number,
): Promise<DueCheck[]> {
  const { kind } = claim;
  return ctx.db.transaction().execute(async (trx) => {
    let due = dueOn(trx, network, now, kind)
      .select('order_id')
      .where('state', '=', claim.state)
      .orderBy('next_check_at')
      .limit(limit);
    if (claim.woken !== undefined) due = due.where('order_id', 'in', claim.woken);
    if (ctx.dialect === 'postgres') due = due.forUpdate().skipLocked();
    const ids = (await due.execute()).map((row) => row.order_id);
    if (ids.length === 0) return [];
    await trx
      .updateTable('chain_checks')
      .set({ claimed_until: now + CHAIN_CHECK_LEASE_MS, lease: randomUUID() })
      .where('kind', '=', kind)
      .where('order_id', 'in', ids)
      .execute();
    return trx
      .selectFrom('chain_checks')
      .innerJoin('orders', 'orders.id', 'chain_checks.order_id')
      .select(CHECK_COLUMNS)
      .where('chain_checks.kind', '=', kind)
      .where('chain_checks.order_id', 'in', ids)
      .execute();
  });
}

/** One row's check; a row that throws is logged, flagged and set aside, the round goes on. */
async function checkOrSetAside(
  ctx: ChainCheckContext,
  row: DueCheck,
  round: RowRound,
): Promise<CheckOutcome> {
  const { now, options } = round;
  try {
    return await checkRow(ctx, row, round);
  } catch (error) {
    if (error instanceof LeaseLost) {
      options.log?.info({ orderId: row.order_id }, 'chain check: lease passed on, verdict dropped');
      return 'stale';
    }
    options.log?.error({ err: error, orderId: row.order_id }, 'chain check failed: flagged');
    options.monitor?.itemFailed(CHAIN_CHECK_JOB);
    await ctx.db.transaction().execute(async (trx) => {
      const set = await trx
        .updateTable('chain_checks')
        .set({
          claimed_until: null,
          lease: null,
          next_check_at: now + FAILED_CHECK_RETRY_MS,
          last_fault: `internal: ${error instanceof Error ? error.message : 'unknown'}`,
          updated_at: now,
        })
        .where('kind', '=', row.kind)
        .where('order_id', '=', row.order_id)
        .where(stillHeld(row, now))
        .executeTakeFirst();
      if (set.numUpdatedRows === 0n) return;
      await flagOrder(trx, row.order_id);
    });
    return 'failed';
  }
}

/**
 * One row's check, the state machine every kind shares (each kind's verdicts in
 * chain/check-verdicts.ts): a check whose order moved on closes; a seen transfer short of final
 * counts its confirmations from the head, no call; any other is looked up (a node's fault tried
 * later) and judged by its state: a seen one read once more before it is trusted, a looking one
 * read for the first time.
 */
async function checkRow(
  ctx: ChainCheckContext,
  row: DueCheck,
  { head, now, options }: RowRound,
): Promise<CheckOutcome> {
  const verdicts = CHECK_VERDICTS[row.kind];
  const target = depositTargetOf(ctx, row);
  if (row.status !== verdicts.followedWhile || target === undefined) {
    await updateCheck(ctx, row, { state: 'closed' }, now);
    return 'closed';
  }
  const required = requiredConfirmations(target.settings, head);
  const counted = countedBlock(row, head);
  if (counted !== undefined) return countConfirmations(ctx, row, counted, head, required, now);

  // A looking row, or a seen one to read once more before it is trusted.
  let lookup: CheckLookup;
  try {
    lookup = await verdicts.lookUp(ctx, target, row);
  } catch (error) {
    if (!(error instanceof ChainUnavailable)) throw error;
    return lookupFailed(ctx, row, error, now, options);
  }
  if (row.state === 'seen') return finalRead(ctx, row, lookup, head, now);
  if (lookup.kind === 'not_found') return notFound(ctx, row, now);
  return firstRead(ctx, row, lookup, head, required, now);
}

/**
 * The block of a seen transfer whose confirmations are still counted: not final by this head, and
 * not above it (a head below the block is a node behind, or a reorganisation: the transfer is
 * read again). Undefined when the row is to be read.
 */
function countedBlock(row: DueCheck, head: ChainHead): number | undefined {
  if (row.state !== 'seen' || row.block_number === null) return undefined;
  const gone = head.latest < row.block_number;
  return gone || isFinal(row.block_number, head) ? undefined : row.block_number;
}

/** A seen transfer short of final: its confirmations by this head, looked at next round. */
async function countConfirmations(
  ctx: ChainCheckContext,
  row: DueCheck,
  blockNumber: number,
  head: ChainHead,
  required: number,
  now: number,
): Promise<CheckOutcome> {
  await updateCheck(
    ctx,
    row,
    {
      confirmations: confirmationsOf(blockNumber, head),
      required_confirmations: required,
      next_check_at: nextRound(now),
      // Read now: a node that stops answering is told of a window from here.
      look_until: now + ctx.config.chainLookupWindowMs,
    },
    now,
  );
  return 'waiting';
}

/**
 * A lookup the node did not answer: flagged once its window ran out, else tried again where it
 * was (a fault is not a lookup that found nothing).
 */
async function lookupFailed(
  ctx: ChainCheckContext,
  row: DueCheck,
  error: ChainUnavailable,
  now: number,
  options: ChainCheckOptions,
): Promise<CheckOutcome> {
  options.log?.debug({ orderId: row.order_id, fault: error.fault }, 'chain lookup failed');
  if (now >= row.look_until) {
    await flagUnreadable(ctx, row, error, now);
    return 'flagged';
  }
  await updateCheck(
    ctx,
    row,
    { next_check_at: now + retryDelay(row.attempts, error), last_fault: error.message },
    now,
  );
  return 'fault';
}

/**
 * A trouble of a check told to the operators, with the flag its kind gives it (CHECK_VERDICTS),
 * once per `event`, the check's row updated with `set` in the same transaction.
 */
async function flagTrouble(
  ctx: ChainCheckContext,
  row: HeldRow & Pick<DueCheck, 'kind'>,
  trouble: keyof CheckVerdicts['flags'],
  event: string,
  now: number,
  set: Parameters<typeof flag>[5],
): Promise<void> {
  await flag(ctx, row, event, now, { chainFlag: CHECK_VERDICTS[row.kind].flags[trouble] }, set);
}

/**
 * A looking hash the node does not know: looked for again with backoff, flagged once its lookup
 * window ran out.
 */
async function notFound(ctx: ChainCheckContext, row: DueCheck, now: number): Promise<CheckOutcome> {
  if (now >= row.look_until) {
    await flagTrouble(ctx, row, 'notFound', `chain:not_found:${row.order_id}`, now, {
      state: 'not_found',
      attempts: row.attempts + 1,
    });
    return 'flagged';
  }
  const attempts = row.attempts + 1;
  await updateCheck(
    ctx,
    row,
    { attempts, next_check_at: now + retryDelay(attempts), last_fault: null },
    now,
  );
  return 'waiting';
}

/**
 * A looking hash found: judged wrong by its kind's rule, flagged; right, `seen` with its transfer
 * kept (unless the transfer is already another order's), and confirmed at once when final.
 */
async function firstRead(
  ctx: ChainCheckContext,
  row: DueCheck,
  lookup: Extract<CheckLookup, { kind: 'found' }>,
  head: ChainHead,
  required: number,
  now: number,
): Promise<CheckOutcome> {
  const verdicts = CHECK_VERDICTS[row.kind];
  const { tx, decimals, judgement } = lookup;
  if (!judgement.ok) {
    const facts = await verdicts.wrong(ctx, row, judgement.problem, decimals, now);
    await flag(ctx, row, `chain:wrong:${row.order_id}`, now, facts, {
      state: 'wrong',
      attempts: row.attempts + 1,
    });
    return 'flagged';
  }
  try {
    await updateCheck(
      ctx,
      row,
      {
        ...transferColumns(tx, judgement.transfer, decimals),
        state: 'seen',
        attempts: row.attempts + 1,
        confirmations: confirmationsOf(tx.blockNumber, head),
        required_confirmations: required,
        next_check_at: nextRound(now),
        last_fault: null,
      },
      now,
    );
  } catch (error) {
    // The transfer is already another order's deposit (the unique index decided).
    if (!isUniqueViolation(error)) throw error;
    await flagTrouble(ctx, row, 'used', `chain:used:${row.order_id}`, now, {
      state: 'wrong',
      attempts: row.attempts + 1,
    });
    return 'flagged';
  }
  // Found already final (the seller gave the hash late): this read is the one before trusting.
  if (isFinal(tx.blockNumber, head)) {
    return confirm(ctx, row, tx, decimals, judgement, head, now);
  }
  return 'seen';
}

/**
 * A check whose node could not be read (head or lookup) for a whole window: a looking hash when
 * its lookup window ran out (never judged "not found"), a seen deposit a window after its last
 * read (its confirmations cannot be counted). Flagged once per window: it keeps its state, its
 * window starts again, and it is asked again when the node allows.
 */
async function flagUnreadable(
  ctx: ChainCheckContext,
  row: HeldRow & Pick<DueCheck, 'look_until' | 'attempts'>,
  fault: ChainUnavailable,
  now: number,
): Promise<void> {
  await flagTrouble(
    ctx,
    row,
    'unreadable',
    `chain:unreadable:${row.order_id}:${row.look_until}`,
    now,
    {
      next_check_at: now + retryDelay(row.attempts, fault),
      last_fault: fault.message,
      look_until: now + ctx.config.chainLookupWindowMs,
    },
  );
}

/**
 * The read of a seen transfer before it is trusted. Not found the first time, it is read again
 * at the next round before anyone is told of a reorganisation (a node behind a balancer may not
 * have its block yet); not found again, found in another block (another height, or the same
 * height under another hash) or no longer the right transfer, it was reorganised. Still there,
 * but not final by this head (a node answering an older head): it waits.
 */
async function finalRead(
  ctx: ChainCheckContext,
  row: DueCheck,
  lookup: CheckLookup,
  head: ChainHead,
  now: number,
): Promise<CheckOutcome> {
  if (lookup.kind !== 'found') {
    if (row.vanished_at !== null) return reorganised(ctx, row, now);
    await updateCheck(ctx, row, { vanished_at: now, next_check_at: nextRound(now) }, now);
    return 'waiting';
  }
  const { tx, judgement } = lookup;
  const otherBlock =
    tx.blockNumber !== row.block_number ||
    (row.block_hash !== null && tx.blockHash !== null && tx.blockHash !== row.block_hash);
  if (otherBlock || !judgement.ok || judgement.transfer.logIndex !== row.log_index) {
    return reorganised(ctx, row, now);
  }
  if (!isFinal(tx.blockNumber, head)) {
    await updateCheck(ctx, row, { vanished_at: null, next_check_at: nextRound(now) }, now);
    return 'waiting';
  }
  return confirm(ctx, row, tx, lookup.decimals, judgement, head, now);
}

/**
 * A transfer seen that is gone from its block: back to looking (with a fresh lookup window, it
 * may be mined again), its block forgotten, flagged once per block it was seen in.
 */
async function reorganised(
  ctx: ChainCheckContext,
  row: DueCheck,
  now: number,
): Promise<CheckOutcome> {
  await flagTrouble(ctx, row, 'reorged', `chain:reorged:${row.order_id}:${row.block_number}`, now, {
    state: 'looking',
    reorged: 1,
    log_index: null,
    block_number: null,
    block_hash: null,
    vanished_at: null,
    block_time: null,
    confirmations: 0,
    attempts: 0,
    next_check_at: now + FIRST_RETRY_MS,
    look_until: Math.max(row.look_until, now + ctx.config.chainLookupWindowMs),
  });
  return 'flagged';
}

/**
 * A transfer final and read once more: what its kind does with it (a deposit confirms its order;
 * a payout ends its check). No longer the right transfer, it was reorganised.
 */
async function confirm(
  ctx: ChainCheckContext,
  row: DueCheck,
  tx: TransactionFound,
  decimals: number,
  judgement: DepositJudgement | PayoutJudgement,
  head: ChainHead,
  now: number,
): Promise<CheckOutcome> {
  if (!judgement.ok) return reorganised(ctx, row, now);
  const { transfer } = judgement;
  const confirmations = confirmationsOf(tx.blockNumber, head);
  return CHECK_VERDICTS[row.kind].confirm(ctx, row, { tx, decimals, transfer, confirmations }, now);
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

/** Whether any network is read from a node: only then does the server run the checker. */
export function checksAnyChain(ctx: Pick<ServerContext, 'chain'>): boolean {
  return Object.keys(ctx.chain).length > 0;
}
