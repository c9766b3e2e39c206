/** A seller's transaction hash: checked for the order's network and, where a node is read, looked up. */
import { sql, type Insertable, type Transaction } from 'kysely';
import { checkTxHash } from '../../shared/addresses';
import { tokenAmountToDecimal, unitsToTokenAmount } from '../../shared/money';
import type { ServerContext } from '../platform/context';
import { isUniqueViolation } from '../platform/db/errors';
import {
  ORDER_COLUMNS,
  type ChainChecksTable,
  type Database,
  type OrderRow,
} from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { applyTransition, flagTogether, orderRow, type TransitionResult } from '../orders';
import { amountRefusal, flagForeignAmount } from './amount-holders';
import {
  depositTargetOf,
  firstCheck,
  insertDepositCheck,
  lookUpDeposit,
  type DepositTarget,
} from './deposit-check';
import { refusalDetails, type DepositProblem } from './deposit-rules';

/**
 * A hash reserves nothing: anyone watching the deposit address can paste it first. Where a node
 * is read, a transaction found that is not the deposit is refused and the order keeps waiting;
 * anything else is taken, and another order's transfer fails the unique index (TX_ALREADY_USED).
 * Sent again, only the hash the order holds is answered as done.
 */
export async function submitTxHash(
  ctx: ServerContext,
  customerId: number,
  orderId: string,
  body: { readonly txHash: string; readonly network?: string | undefined },
): Promise<TransitionResult> {
  const order = await orderRow(ctx.db, orderId, ORDER_COLUMNS, customerId);
  if (order.type !== 'SELL') throw new AppError('INVALID_STATUS', { status: order.status });
  if (body.network !== undefined && body.network !== order.network) {
    throw new AppError('INVALID_TX_HASH');
  }
  const txHash = body.txHash.trim();
  if (checkTxHash(order.network, txHash) !== null) throw new AppError('INVALID_TX_HASH');
  // Only a hash that will move the order is looked up: a repeat is judged by the transition.
  const target = order.status === 'WAITING_CRYPTO' ? depositTargetOf(ctx, order) : undefined;
  const check =
    target === undefined ? undefined : await depositCheckAtSubmission(ctx, target, order, txHash);
  const alongside =
    check !== undefined
      ? (trx: Transaction<Database>) => insertDepositCheck(trx, check)
      : (trx: Transaction<Database>) => flagSameHash(trx, orderId, txHash, ctx.now());
  try {
    return await applyTransition(
      ctx.db,
      {
        orderId,
        action: 'submitTxHash',
        actor: 'customer',
        actorId: customerId,
        ownerId: customerId,
        patch: { tx_hash: txHash },
        holdsSame: (current) => current.tx_hash?.toLowerCase() === txHash.toLowerCase(),
        conflict: 'TX_HASH_ALREADY_SUBMITTED',
        alongside,
      },
      ctx.now(),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('TX_ALREADY_USED');
    throw error;
  }
}

/** Manual network: both orders flagged for operators, who confirm by hand (once per order). */
async function flagSameHash(
  trx: Transaction<Database>,
  orderId: string,
  txHash: string,
  now: number,
): Promise<void> {
  const hash = txHash.toLowerCase();
  const elsewhere = await trx
    .selectFrom('orders')
    .select('id')
    .where(sql<string>`lower(tx_hash)`, '=', hash)
    .where('id', '!=', orderId)
    .execute();
  await flagTogether(
    trx,
    orderId,
    elsewhere.map((r) => r.id),
    {
      kind: 'flag_chain_deposit',
      eventOf: (id) => `chain:same_hash:${id}:${hash}`,
      extra: { chainFlag: 'same_hash', chainHash: hash },
    },
    now,
  );
}

async function depositCheckAtSubmission(
  ctx: ServerContext,
  target: DepositTarget,
  order: OrderRow,
  txHash: string,
): Promise<Insertable<ChainChecksTable>> {
  const now = ctx.now();
  const check = await firstCheck(
    ctx,
    target,
    { order, kind: 'deposit', hash: txHash, method: 'submission' },
    lookUpDeposit(target, order, txHash),
    now,
  );
  if (check.kind === 'wrong') {
    throw await refusalOf(ctx, order, txHash, check.problem, check.decimals);
  }
  return check.row;
}

/** Another sell's exact amount is refused as another amount; another's open sell is flagged. */
async function refusalOf(
  ctx: ServerContext,
  order: OrderRow,
  txHash: string,
  problem: DepositProblem,
  decimals: number,
): Promise<AppError> {
  let refused = problem;
  if (problem.code === 'TX_UNDERPAID' || problem.code === 'TX_AMOUNT_MISMATCH') {
    const now = ctx.now();
    const expected = unitsToTokenAmount(order.amount_units, decimals);
    const holdMs = ctx.config.depositAmountHoldMs;
    const refusal = await amountRefusal(ctx.db, order, problem, decimals, expected, now, holdMs);
    refused = refusal.problem;
    if (refusal.foreignOrder !== undefined) {
      await flagForeignAmount(ctx.db, order.id, refusal.foreignOrder, {
        amount: tokenAmountToDecimal(problem.sent, decimals),
        hash: txHash.toLowerCase(),
        now,
      });
    }
  }
  return new AppError(refused.code, refusalDetails(refused, order.crypto_currency, decimals));
}
