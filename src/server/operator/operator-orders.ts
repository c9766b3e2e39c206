/**
 * The operators' side: the staff actions of spec section 1 ("supplying requisites and office
 * instructions, confirming payments, rejecting orders") and the rates. Each status change goes
 * through the same `applyTransition` as the customer's and leaves an event with the operator's id.
 */
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type * as v from 'valibot';
import type { BankRequisites, CardRequisites } from '../../shared/api';
import { checkTxHash } from '../../shared/addresses';
import { OFFICE_RATE_FIXED_MS, PAYMENT_WINDOWS } from '../../shared/limits';
import { ACTIVE_STATUSES } from '../../shared/order-status';
import { FREE_TEXT_REJECT_REASON, type RejectReason } from '../../shared/reject-reasons';
import type {
  BankRequisitesSchema,
  CardRequisitesSchema,
  OperatorListQuerySchema,
} from '../../shared/schemas/operator';
import type { ServerContext } from '../context';
import type { Database, OrderRow } from '../db/schema';
import { AppError } from '../errors';
import { toOrderSummary } from '../orders/order-view';
import type { StoredReservation } from '../orders/order-view';
import { applyTransition, type TransitionResult } from '../orders/transition';

async function findOrder(db: Kysely<Database>, orderId: string): Promise<OrderRow> {
  const row = await db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (row === undefined) throw new AppError('ORDER_NOT_FOUND');
  return row;
}

export async function listOrders(
  ctx: ServerContext,
  query: v.InferOutput<typeof OperatorListQuerySchema>,
) {
  let select = ctx.db.selectFrom('orders').selectAll();
  if (query.status === 'active') select = select.where('status', 'in', ACTIVE_STATUSES);
  else if (query.status === 'attention') select = select.where('needs_attention', '=', 1);
  else if (query.status !== undefined) select = select.where('status', '=', query.status);
  if (query.type !== undefined) select = select.where('type', '=', query.type);
  if (query.method !== undefined) select = select.where('payment_method', '=', query.method);
  const rows = await select
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .offset(query.offset)
    .execute();
  return {
    orders: rows.slice(0, query.limit).map((row) => ({
      ...toOrderSummary(row),
      userId: row.user_id,
      needsAttention: row.needs_attention === 1,
    })),
    hasMore: rows.length > query.limit,
  };
}

/** Everything an operator needs to act on one order: the customer, the card, events, receipts. */
export async function orderForOperator(ctx: ServerContext, orderId: string) {
  const { db } = ctx;
  const row = await findOrder(db, orderId);
  const [customer, events, receipts] = await Promise.all([
    db.selectFrom('users').selectAll().where('telegram_id', '=', row.user_id).executeTakeFirst(),
    db
      .selectFrom('order_events')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('receipts')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('uploaded_at')
      .execute(),
  ]);
  return {
    customer,
    events: events.map((e) => ({
      from: e.from_status,
      to: e.to_status,
      actor: e.actor,
      actorId: e.actor_id,
      reason: e.reason,
      at: new Date(e.created_at).toISOString(),
    })),
    receipts: receipts.map((r) => ({
      id: r.id,
      fileName: r.file_name,
      mimeType: r.mime_type,
      sizeBytes: r.size_bytes,
      sha256: r.sha256,
      uploadedAt: new Date(r.uploaded_at).toISOString(),
    })),
    order: {
      id: row.id,
      status: row.status,
      type: row.type,
      paymentMethod: row.payment_method,
      needsAttention: row.needs_attention === 1,
      payoutCard: row.payout_card === null ? null : (JSON.parse(row.payout_card) as unknown),
      walletAddress: row.wallet_address,
      txHash: row.tx_hash,
      cityId: row.city_id,
    },
  };
}

/** P2P card requisites for a P2P buy, or bank requisites for a bank buy; starts the payment timer. */
export async function giveRequisites(
  ctx: ServerContext,
  operatorId: number,
  orderId: string,
  body: v.InferOutput<typeof CardRequisitesSchema> | v.InferOutput<typeof BankRequisitesSchema>,
): Promise<TransitionResult> {
  const order = await findOrder(ctx.db, orderId);
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
      patch: {
        requisites: JSON.stringify(requisites),
        requisites_ready_at: now,
        expires_at: now + window,
        deadline_alerted_at: null,
      },
    },
    now,
  );
}

/** Reservation codes avoid characters that read alike (0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

function reservationCode(): string {
  return Array.from({ length: 6 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}

/** Office instructions: the office, a reservation code and the rate fixed for 3 hours. */
export async function giveOfficeInstructions(
  ctx: ServerContext,
  operatorId: number,
  orderId: string,
  body: { readonly instructions: string; readonly officeId?: string | undefined },
): Promise<TransitionResult> {
  const order = await findOrder(ctx.db, orderId);
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
  const reservation: StoredReservation = { reservationCode: reservationCode() };
  return applyTransition(
    ctx.db,
    {
      orderId,
      action: 'giveOfficeInstructions',
      actor: 'operator',
      actorId: operatorId,
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
}

export function confirmPaymentByOperator(ctx: ServerContext, operatorId: number, orderId: string) {
  return applyTransition(
    ctx.db,
    { orderId, action: 'operatorConfirmPayment', actor: 'operator', actorId: operatorId },
    ctx.now(),
  );
}

export function confirmIncomingTx(ctx: ServerContext, operatorId: number, orderId: string) {
  return applyTransition(
    ctx.db,
    { orderId, action: 'confirmIncomingTx', actor: 'operator', actorId: operatorId },
    ctx.now(),
  );
}

/** Completes an order; a P2P or bank buy needs the hash of the transfer that sent the crypto. */
export async function completeOrder(
  ctx: ServerContext,
  operatorId: number,
  orderId: string,
  body: { readonly outgoingTxHash?: string | undefined },
): Promise<TransitionResult> {
  const order = await findOrder(ctx.db, orderId);
  const hash = body.outgoingTxHash;
  const needsHash = order.type === 'BUY' && order.payment_method !== 'OFFICE';
  if (needsHash && hash === undefined)
    throw new AppError('VALIDATION_FAILED', { fields: ['outgoingTxHash'] });
  if (hash !== undefined && checkTxHash(order.network, hash) !== null) {
    throw new AppError('INVALID_TX_HASH');
  }
  return applyTransition(
    ctx.db,
    {
      orderId,
      action: 'complete',
      actor: 'operator',
      actorId: operatorId,
      patch: hash === undefined ? {} : { outgoing_tx_hash: hash },
    },
    ctx.now(),
  );
}

/** Rejects an order with a catalogue reason and free text the customer reads. */
export function rejectOrder(
  ctx: ServerContext,
  operatorId: number,
  orderId: string,
  { reasonCode, reason }: { readonly reasonCode: RejectReason; readonly reason?: string },
) {
  return applyTransition(
    ctx.db,
    {
      orderId,
      action: 'reject',
      actor: 'operator',
      actorId: operatorId,
      // The audit trail: the catalogue code (none for free text alone), then the text.
      reason: [reasonCode === FREE_TEXT_REJECT_REASON ? undefined : reasonCode, reason]
        .filter((part) => part !== undefined)
        .join(': '),
      patch: { reject_reason_code: reasonCode, reject_reason: reason ?? null },
    },
    ctx.now(),
  );
}
