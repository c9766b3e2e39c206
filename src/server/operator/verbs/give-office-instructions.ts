/** The console gives an office order its office, reservation code and fixed rate. */
import type * as v from 'valibot';
import { OFFICE_RATE_FIXED_MS } from '../../../shared/limits';
import type { OfficeInstructionsSchema } from '../../../shared/schemas/operator';
import { ORDER_COLUMNS } from '../../platform/db/schema';
import { AppError } from '../../platform/errors';
import {
  type StoredReservation,
  applyTransition,
  type OrderActionService,
  orderRow,
} from '../../orders';
import { VERIFICATION_CODE_LENGTH, verificationCodeFrom } from '../../../shared/verification-code';
import { randomBytes } from 'node:crypto';

/** Office instructions: the office, a reservation code and the rate fixed for 3 hours. */
export const giveOfficeInstructions: OrderActionService<
  v.InferOutput<typeof OfficeInstructionsSchema>
> = async (ctx, operatorId, orderId, body) => {
  const order = await orderRow(ctx.db, orderId, ORDER_COLUMNS);
  if (order.payment_method !== 'OFFICE' || order.city_id === null) {
    throw new AppError('INVALID_STATUS', { status: order.status });
  }
  let officeQuery = ctx.db
    .selectFrom('offices')
    .select('id')
    .where('city_id', '=', order.city_id)
    .orderBy('position');
  if (body.officeId !== undefined) officeQuery = officeQuery.where('id', '=', body.officeId);
  const office = await officeQuery.executeTakeFirst();
  if (office === undefined) throw new AppError('UNKNOWN_CITY');
  const now = ctx.now();
  const reservation: StoredReservation = {
    reservationCode: verificationCodeFrom(randomBytes(VERIFICATION_CODE_LENGTH)),
  };
  return applyTransition(
    ctx.db,
    {
      orderId,
      action: 'giveOfficeInstructions',
      actor: 'operator',
      actorId: operatorId,
      expectedStatus: body.expectedStatus,
      patch: {
        office_instructions: body.instructions,
        office_id: office.id,
        reservation: JSON.stringify(reservation),
        reserved_until: now + OFFICE_RATE_FIXED_MS,
        // The wait for instructions is over: its deadline and its flag go.
        expires_at: null,
        deadline_alerted_at: null,
        requisites_ready_at: now,
        requisites:
          order.wallet_address === null
            ? null
            : JSON.stringify({ walletAddress: order.wallet_address }),
      },
    },
    now,
  );
};
