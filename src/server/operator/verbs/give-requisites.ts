/** The console gives a buy its requisites: a card for P2P, an account for a bank transfer. */
import type * as v from 'valibot';
import type { BankRequisites, CardRequisites } from '../../../shared/api';
import { PAYMENT_WINDOWS } from '../../../shared/limits';
import type { BankRequisitesSchema, CardRequisitesSchema } from '../../../shared/schemas/operator';
import { ORDER_COLUMNS } from '../../platform/db/schema';
import { AppError } from '../../platform/errors';
import { applyTransition, type OrderActionService, orderRow } from '../../orders';

/** P2P card requisites for a P2P buy, or bank requisites for a bank buy; starts the payment timer. */
export const giveRequisites: OrderActionService<
  v.InferOutput<typeof CardRequisitesSchema> | v.InferOutput<typeof BankRequisitesSchema>
> = async (ctx, operatorId, orderId, body) => {
  const order = await orderRow(ctx.db, orderId, ORDER_COLUMNS);
  let requisites: CardRequisites | BankRequisites;
  let window: number;
  if (order.payment_method === 'P2P' && order.type === 'BUY' && 'cardNumber' in body) {
    requisites = {
      bankName: body.bankName,
      cardNumber: body.cardNumber,
      cardHolder: body.cardHolder.toUpperCase(),
      ...(body.phone ? { phone: body.phone } : {}),
      ...(body.comment ? { comment: body.comment } : {}),
    };
    window = PAYMENT_WINDOWS.P2P.windowMs;
  } else if (order.payment_method === 'BANK_ACCOUNT' && 'accountNumber' in body) {
    requisites = {
      recipientName: body.recipientName,
      accountNumber: body.accountNumber,
      bankName: body.bankName,
      bik: body.bik,
      correspondentAccount: body.correspondentAccount,
      inn: body.inn,
      ...(body.bankAddress ? { bankAddress: body.bankAddress } : {}),
      beneficiaryName: body.beneficiaryName ?? body.recipientName,
      beneficiaryAccount: body.beneficiaryAccount ?? body.accountNumber,
    };
    window = PAYMENT_WINDOWS.BANK_ACCOUNT.windowMs;
  } else {
    throw new AppError('VALIDATION_FAILED');
  }
  const now = ctx.now();
  return applyTransition(
    ctx.db,
    {
      orderId,
      action: 'giveRequisites',
      actor: 'operator',
      actorId: operatorId,
      expectedStatus: body.expectedStatus,
      patch: {
        requisites: JSON.stringify(requisites),
        requisites_ready_at: now,
        expires_at: now + window,
        deadline_alerted_at: null,
      },
    },
    now,
  );
};
