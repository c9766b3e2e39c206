/**
 * Appeals (the rules: src/shared/appeals.ts). An open appeal holds its order: only a senior
 * operator's decision ends it (complete, refund, uphold), each step an order event and a message.
 */
import type { Kysely, Transaction } from 'kysely';
import type * as v from 'valibot';
import type { AppealView, ChainCheckState } from '../../shared/api';
import { appealDecisions, appealRefusal, type AppealDecision } from '../../shared/appeals';
import type { OperatorAppealResponse } from '../../shared/operator-api';
import { FREE_TEXT_REJECT_REASON } from '../../shared/reject-reasons';
import type { AppealDecisionSchema, OpenAppealSchema } from '../../shared/schemas/appeals';
import type { ServerContext } from '../platform/context';
import { isDemoMode } from '../platform/config/config';
import { isUniqueViolation } from '../platform/db/errors';
import { ORDER_COLUMNS, type Database, type OrderRow } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { isDemoCustomerId } from '../platform/identity/demo-session';
import { alertOperators, notifyCustomer } from '../orders';
import { completeWith, rejectOrder, type AppealStep } from '../operator';
import { applyTransition, type TransitionResult } from '../orders';
import { orderRow } from '../orders';
import { findAppeal, toAppealView, type AppealRow } from '../orders';
import { toOperatorAppeal } from './operator-appeal';
import { checkRefund } from './refund-check';
import { touchOrder } from '../orders';

/** In demo mode the visitor is their own senior, as they are their own operator. */
export function isSeniorOperator(ctx: Pick<ServerContext, 'config'>, telegramId: number): boolean {
  return (
    ctx.config.seniorOperatorIds.includes(telegramId) ||
    (isDemoMode(ctx.config) && isDemoCustomerId(telegramId))
  );
}

async function depositCheckState(
  db: Kysely<Database>,
  orderId: string,
): Promise<ChainCheckState | null> {
  const check = await db
    .selectFrom('chain_checks')
    .select('state')
    .where('order_id', '=', orderId)
    .where('kind', '=', 'deposit')
    .executeTakeFirst();
  if (check === undefined || check.state === 'closed') return null;
  return check.state === 'wrong' ? 'flagged' : check.state;
}

async function checkEvidence(
  db: Kysely<Database>,
  orderId: string,
  evidence: readonly number[],
): Promise<void> {
  if (evidence.length === 0) return;
  const found = await db
    .selectFrom('order_messages')
    .select('id')
    .where('order_id', '=', orderId)
    .where('id', 'in', [...evidence])
    .where('attachment_key', 'is not', null)
    .execute();
  if (found.length !== new Set(evidence).size) {
    throw new AppError('VALIDATION_FAILED', { fields: ['evidence'] });
  }
}

async function appealEvent(
  trx: Transaction<Database>,
  order: OrderRow,
  actor: { readonly actor: 'customer' | 'operator'; readonly id: number },
  reason: string,
  now: number,
): Promise<void> {
  await trx
    .insertInto('order_events')
    .values({
      order_id: order.id,
      from_status: order.status,
      to_status: order.status,
      actor: actor.actor,
      actor_id: actor.id,
      reason,
      created_at: now,
    })
    .execute();
}

/** Another customer's order is ORDER_NOT_FOUND; evidence must be the order's chat files. */
export async function openAppeal(
  ctx: ServerContext,
  customerId: number,
  orderId: string,
  body: v.InferOutput<typeof OpenAppealSchema>,
): Promise<AppealView> {
  const order = await ctx.db
    .selectFrom('orders')
    .select(ORDER_COLUMNS)
    .where('id', '=', orderId)
    .where('user_id', '=', customerId)
    .executeTakeFirst();
  if (order === undefined) throw new AppError('ORDER_NOT_FOUND');
  const now = ctx.now();
  const existing = await findAppeal(ctx.db, orderId);
  const refusal = appealRefusal(
    {
      status: order.status,
      type: order.type,
      expiresAt: order.expires_at,
      chainCheckState: await depositCheckState(ctx.db, orderId),
      appeal: existing === undefined ? null : existing.decided_at === null ? 'open' : 'decided',
    },
    now,
  );
  if (refusal !== null) throw new AppError(refusal, { status: order.status });
  await checkEvidence(ctx.db, orderId, body.evidence);
  try {
    const row = await ctx.db.transaction().execute(async (trx) => {
      const touched = await touchOrder(trx, orderId, { status: order.status });
      const appeal = await trx
        .insertInto('appeals')
        .values({
          order_id: orderId,
          user_id: customerId,
          reason: body.reason,
          text: body.text,
          evidence: JSON.stringify(body.evidence),
          opened_at: now,
          decided_at: null,
          decided_by: null,
          decision: null,
          outcome: null,
          refund_details: null,
          refund_tx_hash: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const customer = { actor: 'customer', id: customerId } as const;
      await appealEvent(trx, touched, customer, `appeal opened: ${body.reason}`, now);
      const event = `appeal:${appeal.id}:opened`;
      await alertOperators(trx, 'appeal_opened', touched, event, now, {
        appealReason: body.reason,
        appealText: body.text,
      });
      await notifyCustomer(trx, 'appeal_received', touched, event, now, {
        appealReason: body.reason,
      });
      return appeal;
    });
    return toAppealView(row);
  } catch (error) {
    // Another request opened the order's appeal first (unique by order).
    if (isUniqueViolation(error)) throw new AppError('APPEAL_EXISTS');
    throw error;
  }
}

export async function appealForOperator(
  ctx: ServerContext,
  operatorId: number,
  orderId: string,
): Promise<OperatorAppealResponse> {
  const order = await orderRow(ctx.db, orderId, ['status']);
  const appeal = await findAppeal(ctx.db, orderId);
  const open = appeal !== undefined && appeal.decided_at === null;
  return {
    appeal: appeal === undefined ? null : toOperatorAppeal(appeal),
    senior: isSeniorOperator(ctx, operatorId),
    decisions: open ? appealDecisions(order.status) : [],
  };
}

type DecisionBody = v.InferOutput<typeof AppealDecisionSchema>;

interface Decided {
  readonly decision: AppealDecision;
  readonly outcome: string;
  readonly refundDetails: string | null;
  readonly refundTxHash: string | null;
  readonly evidence: string | null;
}

/** In the transaction that ends the order: APPEAL_NOT_OPEN if another decision came first. */
function closeAppeal(
  appeal: AppealRow,
  seniorId: number,
  decided: Decided,
  now: number,
): (trx: Transaction<Database>, order: OrderRow) => Promise<void> {
  return async (trx, order) => {
    const closed = await trx
      .updateTable('appeals')
      .set({
        decided_at: now,
        decided_by: seniorId,
        decision: decided.decision,
        outcome: decided.outcome,
        refund_details: decided.refundDetails,
        refund_tx_hash: decided.refundTxHash,
      })
      .where('id', '=', appeal.id)
      .where('decided_at', 'is', null)
      .executeTakeFirst();
    if (Number(closed.numUpdatedRows) === 0) throw new AppError('APPEAL_NOT_OPEN');
    const words = [`appeal decided: ${decided.decision}`, decided.evidence, decided.outcome];
    const senior = { actor: 'operator', id: seniorId } as const;
    await appealEvent(trx, order, senior, words.filter((w) => w !== null).join(': '), now);
    await notifyCustomer(trx, 'appeal_decided', order, `appeal:${appeal.id}:decided`, now, {
      appealDecision: decided.decision,
      appealOutcome: decided.outcome,
    });
  };
}

const CONFIRMS_FIRST: Partial<
  Record<OrderRow['status'], 'operatorConfirmPayment' | 'confirmIncomingTx'>
> = {
  PAYMENT_PENDING: 'operatorConfirmPayment',
  PAYMENT_STARTED: 'operatorConfirmPayment',
  RECEIPT_UPLOADED: 'operatorConfirmPayment',
  TX_PENDING: 'confirmIncomingTx',
};

/** A refused payout hash leaves the payment confirmed and the appeal open, to decide again. */
async function completeByAppeal(
  ctx: ServerContext,
  order: OrderRow,
  seniorId: number,
  body: DecisionBody,
  step: AppealStep,
): Promise<TransitionResult> {
  const first = CONFIRMS_FIRST[order.status];
  if (first !== undefined) {
    await applyTransition(
      ctx.db,
      {
        orderId: order.id,
        action: first,
        actor: 'operator',
        actorId: seniorId,
        expectedStatus: order.status,
        reason: 'confirmed by a senior operator deciding the appeal',
      },
      ctx.now(),
    );
  }
  const { outgoingTxHash, overrideReason } = body;
  return completeWith(
    ctx,
    seniorId,
    order.id,
    {
      ...(outgoingTxHash === undefined ? {} : { outgoingTxHash }),
      ...(overrideReason === undefined ? {} : { overrideReason }),
    },
    step,
  );
}

async function refundOf(
  ctx: ServerContext,
  order: OrderRow,
  body: DecisionBody,
): Promise<Pick<Decided, 'refundDetails' | 'refundTxHash' | 'evidence'>> {
  if (order.type === 'BUY') {
    if (body.refundDetails === undefined || body.refundDetails === '') {
      throw new AppError('VALIDATION_FAILED', { fields: ['refundDetails'] });
    }
    return { refundDetails: body.refundDetails, refundTxHash: null, evidence: null };
  }
  if (body.refundTxHash === undefined || body.refundTxHash === '') {
    throw new AppError('VALIDATION_FAILED', { fields: ['refundTxHash'] });
  }
  const evidence = await checkRefund(ctx, order, body.refundTxHash);
  return { refundDetails: null, refundTxHash: body.refundTxHash, evidence };
}

/** SENIOR_ONLY for anyone else; the decision must be one the order's status allows. */
export async function decideAppeal(
  ctx: ServerContext,
  seniorId: number,
  orderId: string,
  body: DecisionBody,
): Promise<TransitionResult> {
  if (!isSeniorOperator(ctx, seniorId)) throw new AppError('SENIOR_ONLY');
  const appeal = await findAppeal(ctx.db, orderId);
  if (appeal === undefined || appeal.decided_at !== null) throw new AppError('APPEAL_NOT_OPEN');
  const order = await orderRow(ctx.db, orderId, ORDER_COLUMNS);
  const seen = body.expectedStatus;
  if (
    (seen !== undefined && seen !== order.status) ||
    !appealDecisions(order.status).includes(body.decision)
  ) {
    throw new AppError('INVALID_STATUS', { status: order.status });
  }
  const refund =
    body.decision === 'refund'
      ? await refundOf(ctx, order, body)
      : { refundDetails: null, refundTxHash: null, evidence: null };
  const decided: Decided = { decision: body.decision, outcome: body.outcome, ...refund };
  const step = {
    decidesAppeal: true,
    alongside: closeAppeal(appeal, seniorId, decided, ctx.now()),
  } as const;
  if (body.decision === 'complete') return completeByAppeal(ctx, order, seniorId, body, step);
  if (order.status !== 'REJECTED') {
    const rejection = {
      reasonCode: FREE_TEXT_REJECT_REASON,
      reason: body.outcome,
      expectedStatus: order.status,
    };
    return rejectOrder(ctx, seniorId, orderId, rejection, step);
  }
  const rejected = await ctx.db.transaction().execute(async (trx) => {
    const touched = await touchOrder(trx, orderId, { status: 'REJECTED' });
    await step.alongside(trx, touched);
    return touched;
  });
  return { order: rejected, changed: false };
}
