/** The console ties a transfer no order took to a sell. */
import type * as v from 'valibot';
import type { AttachDepositSchema } from '../../../shared/schemas/operator';
import { ORDER_COLUMNS } from '../../platform/db/schema';
import { AppError } from '../../platform/errors';
import {
  attachDeposit,
  PERSON_WAITS_MS,
  nodeFaultOf,
  depositTargetOf,
  lookUpDeposit,
  settledWithin,
} from '../../chain';
import { type OrderActionService, orderRow } from '../../orders';

/**
 * An operator attaches an unmatched deposit to a sell waiting for it: the transfer must be listed
 * for the order's network and coin (DEPOSIT_NOT_LISTED), is read again and judged by the deposit
 * rule (its refusal codes, as a seller's hash gets them; TX_UNCONFIRMED when the node does not
 * answer within PERSON_WAITS_MS), and the order moves to TX_PENDING, actor `operator`, followed
 * to its confirmations by the chain checker.
 */
export const attachIncomingDeposit: OrderActionService<
  v.InferOutput<typeof AttachDepositSchema>
> = async (ctx, operatorId, orderId, body) => {
  const order = await orderRow(ctx.db, orderId, ORDER_COLUMNS);
  const hash = body.txHash.toLowerCase();
  const target = depositTargetOf(ctx, order);
  const listed =
    target === undefined
      ? undefined
      : await ctx.db
          .selectFrom('chain_incoming')
          .select('tx_hash')
          .where('network', '=', order.network)
          .where('coin', '=', order.crypto_currency)
          .where('tx_hash', '=', hash)
          .where('order_id', 'is', null)
          // What the console lists (incoming-deposits.ts), and nothing else: never dust.
          .where('dust', '=', 0)
          .executeTakeFirst();
  if (target === undefined || listed === undefined) throw new AppError('DEPOSIT_NOT_LISTED');
  if (order.status !== 'WAITING_CRYPTO' || order.type !== 'SELL') {
    throw new AppError('INVALID_STATUS', { status: order.status });
  }
  if (body.expectedStatus !== undefined && body.expectedStatus !== order.status) {
    throw new AppError('INVALID_STATUS', { status: order.status });
  }
  const now = ctx.now();
  const [lookup, head] = await settledWithin(
    order.network,
    'attach',
    PERSON_WAITS_MS,
    // The operator was shown both amounts: a transfer of more is theirs to accept.
    lookUpDeposit(target, order, hash, { rule: 'at_least' }),
    target.reader.head(),
  );
  if (lookup.status === 'rejected') {
    // A node that did not answer (in time) is not a refusal of the transfer: try again.
    nodeFaultOf(lookup);
    throw new AppError('TX_UNCONFIRMED');
  }
  const outcome = await attachDeposit(
    ctx,
    target,
    order,
    hash,
    lookup.value,
    head.status === 'fulfilled' ? head.value : null,
    now,
    {
      actor: 'operator',
      actorId: operatorId,
      reason: `unmatched deposit attached by an operator: tx ${hash}`,
    },
  );
  if (!outcome.attached) throw new AppError(outcome.code, outcome.details);
  return outcome.result;
};
