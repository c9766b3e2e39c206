/** What the console shows of one order: the order, its customer, events, receipts, messages and the deposits it might take. */
import type { Kysely, Selectable } from 'kysely';
import type {
  OperatorEvent,
  OperatorMessage,
  OperatorOrderResponse,
  OperatorReceipt,
} from '../../shared/operator-api';
import { orderFlags } from '../../shared/operator-queue';
import { isFinalStatus } from '../../shared/order-status';
import type { ServerContext } from '../platform/context';
import {
  ORDER_COLUMNS,
  type Database,
  type OrderEventsTable,
  type OrderRow,
  type ReceiptsTable,
} from '../platform/db/schema';
import { depositTargetOf } from '../chain';
import { unmatchedDepositsFor } from './incoming-deposits';
import {
  unreadMessages,
  rowDeadline,
  toOrderDetails,
  readPayoutCard,
  takeOrder,
  orderRow,
} from '../orders';
import { OPERATORS_RECIPIENT } from '../platform/outbox';
import { plainText, renderStored, type RenderedMessage } from '../notifications';

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
  const row = await orderRow(db, orderId, ORDER_COLUMNS);
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
