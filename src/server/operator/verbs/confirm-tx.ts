/** The console confirms a sell's deposit. */
import type * as v from 'valibot';
import type { ConfirmTxSchema } from '../../../shared/schemas/operator';
import { ORDER_COLUMNS, type ChainCheckState } from '../../platform/db/schema';
import { AppError } from '../../platform/errors';
import { depositTargetOf } from '../../chain';
import { applyTransition, type OrderActionService, orderRow } from '../../orders';

/**
 * The seller's transaction is confirmed. On a network read from a node the chain checker confirms
 * it itself; an operator still can when the chain cannot be read, but only with a
 * reason (CONFIRM_REASON_REQUIRED without one), which the audit trail keeps with what the chain
 * check had seen by then. The check's row is closed by the checker once the order moved on. A
 * network without a node is confirmed as before (a reason given there is kept too).
 */
export const confirmIncomingTx: OrderActionService<v.InferOutput<typeof ConfirmTxSchema>> = async (
  ctx,
  operatorId,
  orderId,
  body,
) => {
  let reason = body.reason ?? null;
  const order = await orderRow(ctx.db, orderId, ORDER_COLUMNS);
  // Another status is refused by the transition (INVALID_STATUS), whatever the reason.
  if (order.status === 'TX_PENDING' && depositTargetOf(ctx, order) !== undefined) {
    if (reason === null) throw new AppError('CONFIRM_REASON_REQUIRED');
    const check = await ctx.db
      .selectFrom('chain_checks')
      .select(['state', 'confirmations', 'required_confirmations'])
      .where('order_id', '=', orderId)
      .where('kind', '=', 'deposit')
      .executeTakeFirst();
    reason = depositOverrideEvidence(check, reason);
  }
  return applyTransition(
    ctx.db,
    {
      orderId,
      action: 'confirmIncomingTx',
      actor: 'operator',
      actorId: operatorId,
      expectedStatus: body.expectedStatus,
      reason,
    },
    ctx.now(),
  );
};

/** The audit trail's words for a deposit confirmed by hand on a network read from a node. */
function depositOverrideEvidence(
  check:
    { state: ChainCheckState; confirmations: number; required_confirmations: number } | undefined,
  reason: string,
): string {
  const seen =
    check === undefined
      ? 'no chain check'
      : `chain check ${check.state}, ${check.confirmations}/${check.required_confirmations} confirmations`;
  return `deposit confirmed by hand (${seen}): ${reason}`;
}
