/** The console rejects an order with a reason the customer reads. */
import type * as v from 'valibot';
import { FREE_TEXT_REJECT_REASON } from '../../../shared/reject-reasons';
import type { RejectSchema } from '../../../shared/schemas/operator';
import type { ServerContext } from '../../platform/context';
import { applyTransition } from '../../orders';
import type { AppealStep } from './complete';

/** Rejects an order with a catalogue reason and free text the customer reads. */
export function rejectOrder(
  ctx: ServerContext,
  operatorId: number,
  orderId: string,
  { reasonCode, reason, expectedStatus }: v.InferOutput<typeof RejectSchema>,
  step: AppealStep = {},
) {
  return applyTransition(
    ctx.db,
    {
      orderId,
      action: 'reject',
      actor: 'operator',
      actorId: operatorId,
      expectedStatus,
      // The audit trail: the catalogue code (none for free text alone), then the text.
      reason: [reasonCode === FREE_TEXT_REJECT_REASON ? undefined : reasonCode, reason]
        .filter((part) => part !== undefined)
        .join(': '),
      patch: { reject_reason_code: reasonCode, reject_reason: reason ?? null },
      ...(step.decidesAppeal === undefined ? {} : { decidesAppeal: true }),
      ...(step.alongside === undefined ? {} : { alongside: step.alongside }),
    },
    ctx.now(),
  );
}
