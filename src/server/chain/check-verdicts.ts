/**
 * What a deposit's check and a payout's differ in, one entry per kind, for the checker's one
 * state machine: a final deposit moves its sell to TX_CONFIRMED; a final payout ends its check.
 */
import { tokenAmountToDecimal, unitsToTokenAmount } from '../../shared/money';
import type { ChainFlag } from '../../shared/notifications';
import type { TokenTransfer, TransactionFound } from './readers/chain-reader';
import { isDepositProblem, type DepositProblem, type TransferProblem } from './deposit-rules';
import type { ServerContext } from '../platform/context';
import type { ChainCheckKind, OrderRow } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { amountRefusal } from './amount-holders';
import { applyTransition } from '../orders';
import {
  depositEvidence,
  lookUpDeposit,
  type DepositLookup,
  type DepositTarget,
} from './deposit-check';
import { PAYOUT_FROM_STATUS, lookUpPayout, paidAtOf, type PayoutLookup } from './payout-check';
import { updateCheck, type DueCheck, type FlagFacts } from './check-rows';

export type CheckLookup = DepositLookup | PayoutLookup;

type VerdictContext = Pick<ServerContext, 'db' | 'config'>;

/** A transfer found right, final, and read once more. */
export interface FinalTransfer {
  readonly tx: TransactionFound;
  readonly decimals: number;
  readonly transfer: TokenTransfer;
  readonly confirmations: number;
}

export interface CheckVerdicts {
  /** The status an order keeps while its check is followed: any other closes the check. */
  readonly followedWhile: OrderRow['status'];
  /** A node fault throws ChainUnavailable: never "not found". */
  lookUp(ctx: VerdictContext, target: DepositTarget, row: DueCheck): Promise<CheckLookup>;
  readonly flags: {
    readonly notFound: ChainFlag;
    readonly used: ChainFlag;
    readonly unreadable: ChainFlag;
    readonly reorged: ChainFlag;
  };
  wrong(
    ctx: VerdictContext,
    row: DueCheck,
    problem: TransferProblem,
    decimals: number,
    now: number,
  ): Promise<FlagFacts>;
  /** The check's last write, and the order's move if any. */
  confirm(
    ctx: VerdictContext,
    row: DueCheck,
    final: FinalTransfer,
    now: number,
  ): Promise<'confirmed' | 'closed'>;
}

/** A payout's problems all share one flag (`payout_wrong`). */
const FLAG_OF: Readonly<Record<DepositProblem['code'], ChainFlag>> = {
  TX_FAILED: 'failed',
  TX_WRONG_TOKEN: 'wrong_token',
  TX_WRONG_RECIPIENT: 'wrong_recipient',
  TX_UNDERPAID: 'underpaid',
  TX_AMOUNT_MISMATCH: 'wrong_amount',
  TX_BEFORE_ORDER: 'before_order',
};

const PAYOUT_WRONG: FlagFacts = { chainFlag: 'payout_wrong' };

/** Another sell's exact amount flags `foreign_amount` naming that sell, if another's and open. */
async function depositFlag(
  ctx: VerdictContext,
  row: DueCheck,
  problem: DepositProblem,
  decimals: number,
  now: number,
): Promise<FlagFacts> {
  if (problem.code !== 'TX_UNDERPAID' && problem.code !== 'TX_AMOUNT_MISMATCH') {
    return { chainFlag: FLAG_OF[problem.code] };
  }
  const order = { ...row, id: row.order_id };
  const expected =
    row.accepted_amount === null
      ? unitsToTokenAmount(row.amount_units, decimals)
      : BigInt(row.accepted_amount);
  const holdMs = ctx.config.depositAmountHoldMs;
  const refusal = await amountRefusal(ctx.db, order, problem, decimals, expected, now, holdMs);
  const amount = { chainAmount: tokenAmountToDecimal(problem.sent, decimals) };
  if (refusal.foreignOrder !== undefined) {
    return { chainFlag: 'foreign_amount', ...amount, otherOrderIds: [refusal.foreignOrder] };
  }
  return refusal.problem.code === 'TX_UNDERPAID'
    ? { chainFlag: 'underpaid', chainDifference: refusal.problem.shortfall }
    : { chainFlag: 'wrong_amount', ...amount };
}

const DEPOSIT: CheckVerdicts = {
  followedWhile: 'TX_PENDING',
  lookUp: (_ctx, target, row) =>
    lookUpDeposit(target, { ...row, id: row.order_id }, row.tx_hash, {
      rule: 'exact',
      accepted: row.accepted_amount,
    }),
  flags: {
    notFound: 'not_found',
    used: 'already_used',
    unreadable: 'unreadable',
    reorged: 'reorged',
  },
  // A deposit's rule finds no payout-only problem: the guard tells the types so.
  wrong: async (ctx, row, problem, decimals, now) =>
    isDepositProblem(problem) ? depositFlag(ctx, row, problem, decimals, now) : PAYOUT_WRONG,
  /** An order moved meanwhile by someone else keeps their change, and the check closes. */
  async confirm(ctx, row, { tx, decimals, transfer, confirmations }, now) {
    try {
      await applyTransition(
        ctx.db,
        {
          orderId: row.order_id,
          action: 'confirmIncomingTx',
          actor: 'chain',
          actorId: null,
          expectedStatus: 'TX_PENDING',
          reason: depositEvidence({
            network: row.network,
            coin: row.crypto_currency,
            txHash: row.tx_hash,
            logIndex: transfer.logIndex,
            blockNumber: tx.blockNumber,
            confirmations,
            amount: transfer.amount,
            decimals,
            sender: transfer.from,
            contract: transfer.contract,
          }),
          // Lost meanwhile, the check's lease rolls the confirmation back with it (LeaseLost).
          alongside: (trx) =>
            updateCheck({ db: trx }, row, { state: 'confirmed', confirmations }, now),
        },
        now,
      );
      return 'confirmed';
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await updateCheck(ctx, row, { state: 'closed' }, now);
      return 'closed';
    }
  },
};

const PAYOUT: CheckVerdicts = {
  followedWhile: 'COMPLETED',
  lookUp: async (ctx, target, row) =>
    lookUpPayout(
      target,
      { ...row, id: row.order_id },
      row.tx_hash,
      await paidAtOf(ctx.db, row.order_id, PAYOUT_FROM_STATUS),
    ),
  flags: {
    notFound: 'payout_not_found',
    used: 'payout_wrong',
    unreadable: 'payout_unreadable',
    reorged: 'payout_reorged',
  },
  wrong: () => Promise.resolve(PAYOUT_WRONG),
  // The operator completed the order already: the check only ends.
  async confirm(ctx, row, { confirmations }, now) {
    await updateCheck(ctx, row, { state: 'confirmed', confirmations }, now);
    return 'confirmed';
  },
};

export const CHECK_VERDICTS: Readonly<Record<ChainCheckKind, CheckVerdicts>> = {
  deposit: DEPOSIT,
  payout: PAYOUT,
};
