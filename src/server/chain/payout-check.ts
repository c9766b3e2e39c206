/**
 * An operator's payout of a buy checked on the chain (docs/chain-checks.md): what the
 * completion of a buy (operator/verbs/complete.ts) and the chain checker
 * (chain/chain-checker.ts) share. The node, settings and contract are the deposit's
 * (`depositTargetOf`: the order's coin on the order's network); the rule is `judgePayout` beside
 * `judgeDeposit` (chain/deposit-rules.ts), its expectation built here alone (`lookUpPayout`) so
 * that both judge it with the same payout address; the row is a `chain_checks` row of kind
 * 'payout', held to one transfer per order by the same unique index as deposits.
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

/**
 * The status a buy with a payout hash is completed from (the transition table's `complete`):
 * when the order reached it, the customer's payment was confirmed.
 */
export const PAYOUT_FROM_STATUS = 'PAYMENT_CONFIRMED' satisfies OrderRow['status'];

/** The order's fields a payout is judged by. */
export type PayoutOrder = Pick<
  OrderRow,
  'id' | 'network' | 'crypto_currency' | 'amount_units' | 'wallet_address'
>;

/** What a lookup of a hash found, judged as the order's payout. */
export type PayoutLookup = HashLookup<PayoutJudgement>;

/**
 * When the order reached `status`, the one it is completed from (PAYMENT_CONFIRMED for a buy):
 * its latest order_events row into that status, a chat message's event aside (it leaves the
 * status as it was). A payout older than that cannot answer it.
 */
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

/**
 * Looks `hash` up and judges it as the order's payout: one `transaction` call and (once per
 * contract and reader) `decimals`. A node fault throws ChainUnavailable: never "not found". The
 * sender it must come from is the network's configured payout address, read from the target's
 * settings (chain-config.ts, `withPayoutAddresses`), so no caller can leave it out.
 */
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

/** What the check of a payout at its completion found. */
export type PayoutVerdict =
  | {
      /** Right: the payout row to write with the completion, and the audit trail's words. */
      readonly ok: true;
      readonly row: Insertable<ChainChecksTable>;
      readonly evidence: string;
    }
  | {
      readonly ok: false;
      readonly code: ErrorCode;
      readonly details: ApiErrorDetails;
      /**
       * The row that follows the hash if the operator completes anyway: only for a hash the
       * chain could not confirm yet (looked for, as a seller's deposit is); a wrong transfer is
       * not followed.
       */
      readonly followRow: Insertable<ChainChecksTable> | null;
    };

/**
 * Checks `hash` as the payout of `order` within PERSON_WAITS_MS: the transaction and the
 * head, side by side. A hash not found, a node fault or no answer in time is TX_UNCONFIRMED,
 * never a wrong payout.
 */
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

/** The audit trail's words for a payout the chain showed right at its completion. */
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

/** The audit trail's words for a completion the operator made despite the check. */
export function overrideEvidence(problem: ErrorCode, reason: string): string {
  return `payout check overridden (${problem}): ${reason}`;
}
