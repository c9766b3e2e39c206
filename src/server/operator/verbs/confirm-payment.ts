/** The console confirms a buy's payment arrived. */
import type * as v from 'valibot';
import type { OperatorActionSchema } from '../../../shared/schemas/operator';
import type { ServerContext } from '../../platform/context';
import { applyTransition } from '../../orders';

/** The customer's payment arrived: an action that takes nothing but the status the operator saw. */
export const confirmPaymentByOperator = (
  ctx: ServerContext,
  operatorId: number,
  orderId: string,
  body: v.InferOutput<typeof OperatorActionSchema>,
) =>
  applyTransition(
    ctx.db,
    {
      orderId,
      action: 'operatorConfirmPayment',
      actor: 'operator',
      actorId: operatorId,
      expectedStatus: body.expectedStatus,
    },
    ctx.now(),
  );
