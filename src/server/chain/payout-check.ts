/**
 * An operator's payout of a buy checked on the chain (docs/chain-checks.md): shared by a buy's
 * completion and the checker, so both judge it with the same payout address.
 */
import type { Insertable, Kysely } from 'kysely';
import { tokenAmountToDecimal, unitsToTokenAmount } from '../../shared/money';
import type { ErrorCode } from '../../shared/errors';
import type { ApiErrorDetails } from '../../shared/api';
import type { TransactionFound } from './readers/chain-reader';
import { judgePayout, refusalDetails, type PayoutJudgement } from './deposit-rules';
import type { ServerContext } from '../platform/context';
import type { ChainChecksTable, Database, OrderRow } from '../platform/db/schema';
import { firstCheck, type DepositTarget, type HashLookup } from './deposit-check';

/** When a buy reached this status (the table's `complete`), its payment was confirmed. */
export const PAYOUT_FROM_STATUS = 'PAYMENT_CONFIRMED' satisfies OrderRow['status'];

export type PayoutOrder = Pick<
  OrderRow,
  'id' | 'network' | 'crypto_currency' | 'amount_units' | 'wallet_address'
>;

export type PayoutLookup = HashLookup<PayoutJudgement>;

/** The latest event into `status` (a chat message's aside): a payout older cannot answer it. */
export async function paidAtOf(
  db: Kysely<Database>,
  orderId: string,
  status: OrderRow['status'],
): Promise<number> {
  const event = await db
    .selectFrom('order_events')
    .select('created_at')
    .where('order_id', '=', orderId)
    .where('to_status', '=', status)
    .where('message_id', 'is', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (event === undefined) throw new Error(`order ${orderId} has no event into ${status}`);
  return event.created_at;
}

/** The sender is read from the target's settings, so no caller can leave it out. */
export async function lookUpPayout(
  target: DepositTarget,
  order: PayoutOrder,
  hash: string,
  paidAt: number,
): Promise<PayoutLookup> {
  const found = await target.reader.transaction(hash);
  if (found.status === 'not_found') return { kind: 'not_found' };
  const decimals = await target.reader.decimals(target.contract);
  const judgement = judgePayout(found, {
    coin: order.crypto_currency,
    contract: target.contract,
    customerWallet: order.wallet_address ?? '',
    payoutAddress: target.settings.payoutAddress,
    amount: unitsToTokenAmount(order.amount_units, decimals),
    decimals,
    paidAt,
  });
  return { kind: 'found', tx: found, decimals, judgement };
}

export type PayoutVerdict =
  | {
      readonly ok: true;
      readonly row: Insertable<ChainChecksTable>;
      readonly evidence: string;
    }
  | {
      readonly ok: false;
      readonly code: ErrorCode;
      readonly details: ApiErrorDetails;
      /** Follows a hash the chain could not confirm yet if completed anyway; a wrong one is not. */
      readonly followRow: Insertable<ChainChecksTable> | null;
    };

/** A hash not found, a node fault or no answer in time is TX_UNCONFIRMED, never a wrong payout. */
export async function checkPayout(
  ctx: Pick<ServerContext, 'db' | 'config' | 'now'>,
  target: DepositTarget,
  order: PayoutOrder,
  hash: string,
): Promise<PayoutVerdict> {
  const now = ctx.now();
  const paidAt = await paidAtOf(ctx.db, order.id, PAYOUT_FROM_STATUS);
  const check = await firstCheck(
    ctx,
    target,
    { order, kind: 'payout', hash, method: 'completion' },
    lookUpPayout(target, order, hash, paidAt),
    now,
  );
  if (check.kind === 'looking') {
    return { ok: false, code: 'TX_UNCONFIRMED', details: {}, followRow: check.row };
  }
  if (check.kind === 'wrong') {
    return {
      ok: false,
      code: check.problem.code,
      details: refusalDetails(check.problem, order.crypto_currency, check.decimals),
      followRow: null,
    };
  }
  return {
    ok: true,
    row: check.row,
    evidence: payoutEvidence(
      order,
      hash,
      check.tx,
      check.transfer.amount,
      check.decimals,
      check.transfer.logIndex,
    ),
  };
}

function payoutEvidence(
  order: PayoutOrder,
  hash: string,
  tx: TransactionFound,
  amount: bigint,
  decimals: number,
  logIndex: number,
): string {
  const coins = tokenAmountToDecimal(amount, decimals);
  return (
    `payout checked on ${order.network}: ${coins} ${order.crypto_currency} ` +
    `(${amount} base units, ${decimals} decimals) to ${order.wallet_address ?? ''}, ` +
    `tx ${hash} log ${logIndex}, block ${tx.blockNumber}`
  );
}

export function overrideEvidence(problem: ErrorCode, reason: string): string {
  return `payout check overridden (${problem}): ${reason}`;
}
