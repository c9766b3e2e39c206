/**
 * A transfer to the deposit address attached to a sell as its deposit, as if the seller had
 * pasted its hash: by the chain checker's scan when the transfer is the order's exact amount
 * (chain/chain-scan.ts), or by an operator from the transfers the scan kept unmatched
 * (operator/verbs/attach-deposit.ts), who may accept more than the order's amount. Either way the transaction
 * is read and judged by the one deposit rule (which also holds "after the order was created"
 * against the block's time), the order moves WAITING_CRYPTO → TX_PENDING with its hash, its
 * chain check is written `seen` and followed to its confirmations by the checker, and the
 * unmatched transfer, if kept, is marked as the order's.
 */
import type { Transaction } from 'kysely';
import type { ErrorCode } from '../../shared/errors';
import type { Actor } from '../../shared/order-status';
import { confirmationsOf, isFinal, type ChainHead } from './readers/chain-reader';
import { refusalDetails } from './deposit-rules';
import type { ServerContext } from '../platform/context';
import { isUniqueViolation } from '../platform/db/errors';
import type { Database, OrderRow } from '../platform/db/schema';
import {
  insertDepositCheck,
  newDepositCheck,
  requiredConfirmations,
  transferColumns,
  type DepositLookup,
  type DepositTarget,
} from './deposit-check';
import { applyTransition, type TransitionResult } from '../orders';

/** What became of an attachment: the order moved, or why the transfer is not its deposit. */
export type Attachment =
  | { readonly attached: true; readonly result: TransitionResult }
  | {
      readonly attached: false;
      readonly code: ErrorCode;
      readonly details: Readonly<Record<string, string>>;
    };

/**
 * Attaches the transfer of `hash` to `order` (a sell waiting for its deposit), given what a
 * lookup of the hash found (deposit-check.ts, `lookUpDeposit`): a transaction the node does not
 * know is TX_UNCONFIRMED; a transfer already another order's deposit, TX_ALREADY_USED. An order
 * no longer WAITING_CRYPTO is refused by the transition (INVALID_STATUS). `head` may be null when
 * it could not be read: the check then starts at no confirmations and the checker's next round
 * counts them.
 */
export async function attachDeposit(
  ctx: Pick<ServerContext, 'db' | 'config'>,
  target: DepositTarget,
  order: OrderRow,
  hash: string,
  lookup: DepositLookup,
  head: ChainHead | null,
  now: number,
  by: {
    readonly actor: Extract<Actor, 'chain' | 'operator'>;
    readonly actorId: number | null;
    readonly reason: string;
  },
): Promise<Attachment> {
  if (lookup.kind !== 'found') return { attached: false, code: 'TX_UNCONFIRMED', details: {} };
  const { tx, decimals, judgement } = lookup;
  if (!judgement.ok) {
    return {
      attached: false,
      code: judgement.problem.code,
      details: refusalDetails(judgement.problem, order.crypto_currency, decimals),
    };
  }
  const lowerHash = hash.toLowerCase();
  const check = newDepositCheck(
    order,
    lowerHash,
    {
      ...transferColumns(tx, judgement.transfer, decimals),
      state: 'seen',
      attempts: 1,
      // More than the order's amount, attached by an operator who was shown both: the amount
      // every later read holds the transfer to.
      accepted_amount: judgement.overpaid > 0n ? judgement.transfer.amount.toString() : null,
      confirmations: head === null ? 0 : confirmationsOf(tx.blockNumber, head),
      required_confirmations: requiredConfirmations(target.settings, head),
      // Final already (or no head to tell): the next round reads it once more and decides.
      next_check_at: head === null || isFinal(tx.blockNumber, head) ? now : now + 1,
      look_until: now + ctx.config.chainLookupWindowMs,
    },
    now,
  );
  try {
    const result = await applyTransition(
      ctx.db,
      {
        orderId: order.id,
        action: 'attachDeposit',
        actor: by.actor,
        actorId: by.actorId,
        expectedStatus: 'WAITING_CRYPTO',
        reason: by.reason,
        patch: { tx_hash: tx.hash },
        alongside: async (trx: Transaction<Database>) => {
          await insertDepositCheck(trx, check);
          await trx
            .updateTable('chain_incoming')
            .set({ order_id: order.id })
            .where('network', '=', order.network)
            .where('tx_hash', '=', lowerHash)
            .where('order_id', 'is', null)
            .execute();
        },
      },
      now,
    );
    return { attached: true, result };
  } catch (error) {
    if (isUniqueViolation(error)) return { attached: false, code: 'TX_ALREADY_USED', details: {} };
    throw error;
  }
}
