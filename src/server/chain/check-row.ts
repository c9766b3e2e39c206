/** One check row's state machine: looking, seen, the read before it is trusted. */
import {
  ChainUnavailable,
  confirmationsOf,
  isFinal,
  type ChainHead,
  type TransactionFound,
} from './readers/chain-reader';
import type { DepositJudgement, PayoutJudgement } from './deposit-rules';
import { isUniqueViolation } from '../platform/db/errors';
import {
  FIRST_RETRY_MS,
  depositTargetOf,
  requiredConfirmations,
  retryDelay,
  transferColumns,
} from './deposit-check';
import { CHECK_VERDICTS, type CheckLookup, type CheckVerdicts } from './check-verdicts';
import { LeaseLost, flag, stillHeld, updateCheck, type DueCheck, type HeldRow } from './check-rows';
import {
  CHAIN_CHECK_JOB,
  type ChainCheckContext,
  type ChainCheckOptions,
  type CheckOutcome,
} from './check-context';
import { flagOrder } from '../orders';

// Due at the next round, not this one: a round claims until nothing is due at its `now`.
const nextRound = (now: number): number => now + 1;

/** A row whose check threw (our fault, not the node's) is tried again after this long. */
export const FAILED_CHECK_RETRY_MS = 10 * 60_000;

export interface RowRound {
  readonly head: ChainHead;
  readonly now: number;
  readonly options: ChainCheckOptions;
}

/** One row's check; a row that throws is logged, flagged and set aside, the round goes on. */
export async function checkOrSetAside(
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

/** The state machine every kind shares; each kind's verdicts are in check-verdicts.ts. */
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

/** A head below the block means a node behind or a reorganisation: the transfer is read again. */
function countedBlock(row: DueCheck, head: ChainHead): number | undefined {
  if (row.state !== 'seen' || row.block_number === null) return undefined;
  const gone = head.latest < row.block_number;
  return gone || isFinal(row.block_number, head) ? undefined : row.block_number;
}

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
      // A node that stops answering is told of a window from here.
      look_until: now + ctx.config.chainLookupWindowMs,
    },
    now,
  );
  return 'waiting';
}

/** Flagged once its window ran out, else tried again: a fault is not a lookup finding nothing. */
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

/** A found hash: wrong, flagged; right, `seen` unless another order has it; final, confirmed. */
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
 * A check whose node could not be read for a whole window is flagged once per window; it keeps
 * its state and is never judged "not found".
 */
export async function flagUnreadable(
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
 * A seen transfer is read once more before it is trusted. Not found, it is read again next round
 * before a reorganisation is told (a node behind a balancer may lack the block); not found again
 * or in another block, it was reorganised.
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

/** A reorganised transfer goes back to looking, with a fresh window; flagged once per block. */
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
