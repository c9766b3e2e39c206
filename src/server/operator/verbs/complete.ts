/** The console completes an order, a buy with the hash of the crypto it sent. */
import type { Insertable, Transaction } from 'kysely';
import type * as v from 'valibot';
import { checkTxHash } from '../../../shared/addresses';
import type { CompleteSchema } from '../../../shared/schemas/operator';
import type { ServerContext } from '../../platform/context';
import { isUniqueViolation } from '../../platform/db/errors';
import {
  ORDER_COLUMNS,
  type ChainChecksTable,
  type Database,
  type OrderRow,
} from '../../platform/db/schema';
import { AppError } from '../../platform/errors';
import { depositTargetOf, PAYOUT_FROM_STATUS, checkPayout, overrideEvidence } from '../../chain';
import {
  applyTransition,
  type OrderActionService,
  type TransitionResult,
  orderRow,
} from '../../orders';

/**
 * Completes an order; a P2P or bank buy needs the hash of the transfer that sent the crypto. On a
 * network read from a node the hash is checked first (chain/payout-check.ts): a wrong payout is
 * refused with what is wrong, a hash the chain cannot confirm yet with TX_UNCONFIRMED, unless the
 * operator overrides with a reason, which the audit trail keeps with the problem it overrode. A
 * payout checked right is written as a 'payout' chain check with the completion and followed to
 * finality by the chain checker.
 */
export const completeOrder: OrderActionService<v.InferOutput<typeof CompleteSchema>> = (
  ctx,
  operatorId,
  orderId,
  body,
) => completeWith(ctx, operatorId, orderId, body, {});

/**
 * What a senior operator's decision of an appeal adds to the completion or rejection it takes
 * (appeals/appeals.ts): the right to end an order under appeal, and the appeal's own rows,
 * written in the same transaction. Empty for an operator's ordinary action.
 */
export interface AppealStep {
  readonly decidesAppeal?: true;
  readonly alongside?: (trx: Transaction<Database>, order: OrderRow) => Promise<void>;
}

/** `completeOrder`, as a step of an appeal's decision when `step` says so. */
export async function completeWith(
  ctx: ServerContext,
  operatorId: number,
  orderId: string,
  body: v.InferOutput<typeof CompleteSchema>,
  step: AppealStep,
): Promise<TransitionResult> {
  const order = await orderRow(ctx.db, orderId, ORDER_COLUMNS);
  const hash = body.outgoingTxHash;
  const needsHash = order.type === 'BUY' && order.payment_method !== 'OFFICE';
  if (needsHash && hash === undefined)
    throw new AppError('VALIDATION_FAILED', { fields: ['outgoingTxHash'] });
  if (hash !== undefined && checkTxHash(order.network, hash) !== null) {
    throw new AppError('INVALID_TX_HASH');
  }
  const complete = (
    reason: string | null,
    row: Insertable<ChainChecksTable> | null,
  ): Promise<TransitionResult> =>
    applyTransition(
      ctx.db,
      {
        orderId,
        action: 'complete',
        actor: 'operator',
        actorId: operatorId,
        expectedStatus: body.expectedStatus,
        reason,
        patch: hash === undefined ? {} : { outgoing_tx_hash: hash },
        ...(step.decidesAppeal === undefined ? {} : { decidesAppeal: true }),
        alongside: async (trx: Transaction<Database>, moved: OrderRow) => {
          if (row !== null) await trx.insertInto('chain_checks').values(row).execute();
          await step.alongside?.(trx, moved);
        },
      },
      ctx.now(),
    );
  // Only a hash that will complete the order is looked up: another status is refused as before.
  const target =
    needsHash && hash !== undefined && order.status === PAYOUT_FROM_STATUS
      ? depositTargetOf(ctx, order)
      : undefined;
  if (target === undefined || hash === undefined) return complete(null, null);
  const verdict = await checkPayout(ctx, target, order, hash);
  const override = body.overrideReason;
  if (!verdict.ok) {
    if (override === undefined) throw new AppError(verdict.code, verdict.details);
    return complete(overrideEvidence(verdict.code, override), verdict.followRow);
  }
  try {
    return await complete(verdict.evidence, verdict.row);
  } catch (error) {
    // The transfer is already another order's (the unique index chain_checks_transfer decided,
    // inside the transaction: no read first that a concurrent completion could race).
    if (!isUniqueViolation(error)) throw error;
    if (override === undefined) throw new AppError('TX_ALREADY_USED');
    return complete(overrideEvidence('TX_ALREADY_USED', override), null);
  }
}
