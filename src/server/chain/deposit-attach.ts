/**
 * A transfer attached to a sell as its deposit, as if the seller had pasted its hash: by the scan
 * (the order's exact amount) or by an operator (who may accept more). Judged by the one deposit
 * rule, then followed by the checker like a pasted hash.
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

export type Attachment =
  | { readonly attached: true; readonly result: TransitionResult }
  | {
      readonly attached: false;
      readonly code: ErrorCode;
      readonly details: Readonly<Record<string, string>>;
    };

/** `head` may be null: the check then starts at no confirmations and the next round counts. */
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
      // An operator accepted more, shown both: every later read holds the transfer to this amount.
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
