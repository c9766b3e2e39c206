/**
 * The operators' side: the staff actions of spec section 1 ("supplying requisites and office
 * instructions, confirming payments, rejecting orders") and the rates. Each status change goes
 * through the same `applyTransition` as the customer's and leaves an event with the operator's id.
 */
import { randomInt } from 'node:crypto';
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type * as v from 'valibot';
import type { BankRequisites, CardRequisites } from '../../shared/api';
import { checkTxHash } from '../../shared/addresses';
import { OFFICE_RATE_FIXED_MS, PAYMENT_WINDOWS } from '../../shared/limits';
import type {
  OperatorEvent,
  OperatorMessage,
  OperatorOrderResponse,
  OperatorReceipt,
} from '../../shared/operator-api';
import { orderFlags } from '../../shared/operator-queue';
import { isFinalStatus } from '../../shared/order-status';
import { FREE_TEXT_REJECT_REASON } from '../../shared/reject-reasons';
import type {
  BankRequisitesSchema,
  CardRequisitesSchema,
  CompleteSchema,
  ConfirmTxSchema,
  OfficeInstructionsSchema,
  OperatorActionSchema,
  RejectSchema,
  AttachDepositSchema,
} from '../../shared/schemas/operator';
import type { ServerContext } from '../platform/context';
import { isUniqueViolation } from '../platform/db/errors';
import {
  ORDER_COLUMNS,
  type ChainCheckState,
  type ChainChecksTable,
  type Database,
  type OrderEventsTable,
  type OrderRow,
  type ReceiptsTable,
} from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { attachDeposit } from '../chain';
import {
  PERSON_WAITS_MS,
  nodeFaultOf,
  depositTargetOf,
  lookUpDeposit,
  settledWithin,
} from '../chain';
import { unmatchedDepositsFor } from './incoming-deposits';
import { unreadMessages } from '../orders';
import { PAYOUT_FROM_STATUS, checkPayout, overrideEvidence } from '../chain';
import { OPERATORS_RECIPIENT } from '../platform/outbox';
import { plainText, renderStored, type RenderedMessage } from '../notifications';
import { rowDeadline, toOrderDetails, type StoredReservation } from '../orders';
import { readPayoutCard } from '../orders';
import { applyTransition, type OrderActionService, type TransitionResult } from '../orders';
import { takeOrder } from '../orders';

async function findOrder(db: Kysely<Database>, orderId: string): Promise<OrderRow> {
  const row = await db
    .selectFrom('orders')
    .select(ORDER_COLUMNS)
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (row === undefined) throw new AppError('ORDER_NOT_FOUND');
  return row;
}

/**
 * What the console shows with an order, read side by side: its customer and their order count,
 * its events, receipts and (an office buy's) offices, the order as the app shows it, its outbox
 * and the unmatched deposits it might take.
 */
function readOrderParts(
  ctx: ServerContext,
  row: OrderRow,
  orderId: string,
  now: number,
  chainChecked: boolean,
) {
  const { db } = ctx;
  return Promise.all([
    db
      .selectFrom('users')
      .selectAll()
      .where('telegram_id', '=', row.user_id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('user_id', '=', row.user_id)
      .executeTakeFirstOrThrow(),
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
      .orderBy('id')
      .execute(),
    row.payment_method === 'OFFICE' && row.city_id !== null
      ? db
          .selectFrom('offices')
          .selectAll()
          .where('city_id', '=', row.city_id)
          .orderBy('position')
          .execute()
      : Promise.resolve([]),
    db
      .selectFrom('orders')
      .select(unreadMessages('operator'))
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
      .then(({ unread_messages }) =>
        toOrderDetails(
          db,
          { ...row, unread_messages },
          { now, botUsername: ctx.config.botUsername },
        ),
      ),
    orderMessages(ctx, orderId),
    unmatchedDepositsFor(db, row, chainChecked),
  ]);
}

/** The receipts of other orders that carry the same files as this order's. */
async function sameFilesElsewhere(
  db: Kysely<Database>,
  orderId: string,
  receipts: readonly { readonly sha256: string }[],
): Promise<{ sha256: string; order_id: string }[]> {
  if (receipts.length === 0) return [];
  return db
    .selectFrom('receipts')
    .select(['sha256', 'order_id'])
    .where(
      'sha256',
      'in',
      receipts.map((r) => r.sha256),
    )
    .where('order_id', '!=', orderId)
    .execute();
}

/** An order's audit trail as the console shows it. */
function eventsView(events: readonly Selectable<OrderEventsTable>[]): OperatorEvent[] {
  return events.map((e) => ({
    from: e.from_status,
    to: e.to_status,
    actor: e.actor,
    actorId: e.actor_id,
    reason: e.reason,
    at: new Date(e.created_at).toISOString(),
    messageId: e.message_id,
  }));
}

/** An order's receipts, each with the other orders that carry the same file. */
function receiptsView(
  receipts: readonly Selectable<ReceiptsTable>[],
  shared: readonly { sha256: string; order_id: string }[],
): OperatorReceipt[] {
  return receipts.map((r) => ({
    id: r.id,
    fileName: r.file_name,
    mimeType: r.mime_type,
    sizeBytes: r.size_bytes,
    sha256: r.sha256,
    uploadedAt: new Date(r.uploaded_at).toISOString(),
    alsoOn: [...new Set(shared.filter((o) => o.sha256 === r.sha256).map((o) => o.order_id))],
  }));
}

/**
 * Everything an operator needs to act on one order (`GET /api/operator/orders/{id}`); the first
 * operator to open it takes it.
 */
export async function orderForOperator(
  ctx: ServerContext,
  operatorId: number,
  orderId: string,
): Promise<OperatorOrderResponse> {
  const { db } = ctx;
  const now = ctx.now();
  const row = await findOrder(db, orderId);
  if (row.taken_by === null) await takeOrder(db, orderId, operatorId);
  const chainChecked = depositTargetOf(ctx, row) !== undefined;
  const [customer, orderCount, events, receipts, offices, order, messages, incoming] =
    await readOrderParts(ctx, row, orderId, now, chainChecked);
  const shared = await sameFilesElsewhere(db, orderId, receipts);
  const deadline = rowDeadline(row);
  const ending = isFinalStatus(row.status)
    ? events.findLast((e) => e.to_status === row.status && e.message_id === null)
    : undefined;
  return {
    order,
    chainChecked,
    incoming,
    customer: {
      telegramId: customer.telegram_id,
      firstName: customer.first_name,
      lastName: customer.last_name,
      username: customer.username,
      languageCode: customer.language_code,
      firstSeenAt: new Date(customer.first_seen_at).toISOString(),
      orderCount: Number(orderCount.count),
    },
    deadline: deadline === null ? null : new Date(deadline).toISOString(),
    endedAt: ending === undefined ? null : new Date(ending.created_at).toISOString(),
    flags: orderFlags(
      {
        status: row.status,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        reusedReceipt: shared.length > 0,
      },
      now,
    ),
    payoutCard: readPayoutCard(row.payout_card),
    events: eventsView(events),
    receipts: receiptsView(receipts, shared),
    offices: offices.map((o) => ({
      id: o.id,
      addressRu: o.address_ru,
      addressEn: o.address_en,
      workingHoursRu: o.working_hours_ru,
      workingHoursEn: o.working_hours_en,
      phone: o.phone,
      mapLink: o.map_link,
    })),
    defaultBankAccount:
      row.payment_method === 'BANK_ACCOUNT' ? (ctx.config.bankAccount ?? null) : null,
    messages,
  };
}

/** The outbox of one order, each message as its recipient reads (or would read) it. */
async function orderMessages(ctx: ServerContext, orderId: string): Promise<OperatorMessage[]> {
  const rows = await ctx.db
    .selectFrom('notifications')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  const options = { botUsername: ctx.config.botUsername, supportUrl: ctx.config.supportUrl };
  return rows.map((row) => {
    // A row that cannot be rendered is shown with its stored error (it failed for that reason).
    let message: RenderedMessage = { text: '', buttons: [] };
    try {
      message = renderStored(row, ctx.config.operatorChatLanguage, options);
    } catch {
      // The worker recorded the same fault with the row.
    }
    return {
      id: row.id,
      to: row.recipient === OPERATORS_RECIPIENT ? 'operators' : 'customer',
      kind: row.kind,
      status: row.status,
      text: plainText(message.text),
      buttons: message.buttons,
      attempts: row.attempts,
      lastError: row.last_error,
      createdAt: new Date(row.created_at).toISOString(),
      sentAt: row.sent_at === null ? null : new Date(row.sent_at).toISOString(),
    };
  });
}

/** P2P card requisites for a P2P buy, or bank requisites for a bank buy; starts the payment timer. */
export const giveRequisites: OrderActionService<
  v.InferOutput<typeof CardRequisitesSchema> | v.InferOutput<typeof BankRequisitesSchema>
> = async (ctx, operatorId, orderId, body) => {
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

/** Reservation codes avoid characters that read alike (0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

function reservationCode(): string {
  return Array.from({ length: 6 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}

/** Office instructions: the office, a reservation code and the rate fixed for 3 hours. */
export const giveOfficeInstructions: OrderActionService<
  v.InferOutput<typeof OfficeInstructionsSchema>
> = async (ctx, operatorId, orderId, body) => {
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
  const order = await findOrder(ctx.db, orderId);
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
  const order = await findOrder(ctx.db, orderId);
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
  const order = await findOrder(ctx.db, orderId);
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
