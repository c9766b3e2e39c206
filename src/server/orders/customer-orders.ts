/** The customer's order calls: another customer's order is answered as missing. */

import type {
  ActiveOrdersResponse,
  BankRequisitesResponse,
  HistoryFilter,
  HistoryResponse,
} from '../../shared/api';

import { ACTIVE_STATUSES, FINAL_STATUSES } from '../../shared/order-status';
import type { ServerContext } from '../platform/context';

import { compiledOnce } from '../platform/db/compiled-once';
import { pageOf } from '../platform/db/paging';
import { AppError } from '../platform/errors';

import { applyTransition } from './transition';
import {
  DETAILS_COLUMNS,
  SUMMARY_COLUMNS,
  toOrderSummary,
  toTimelessDetails,
  withServerTime,
} from './order-view';
import type { StatusAnswers } from './status/status-answers';
import { orderRow } from './order-row';
import { unreadMessages } from './unread';

const orderWithReceiptCount = compiledOnce((db, orderId: string, customerId: number) =>
  db
    .selectFrom('orders')
    .select(DETAILS_COLUMNS.map((column) => `orders.${column}` as const))
    .select(['orders.version'])
    .select((eb) =>
      eb
        .selectFrom('receipts')
        .select(eb.fn.countAll<number | string>().as('count'))
        .whereRef('receipts.order_id', '=', 'orders.id')
        .as('receipt_count'),
    )
    .select(unreadMessages('customer'))
    .where('orders.id', '=', orderId)
    .where('orders.user_id', '=', customerId),
);

/** Only its version when the caller holds it; the answer is rebuilt only once the order changed. */
export async function orderStatus(
  ctx: ServerContext,
  answers: StatusAnswers,
  customerId: number,
  orderId: string,
  holds: (etag: string) => boolean,
): Promise<{ readonly etag: string; readonly json: string | null }> {
  const current = await answers.versionOf(orderId);
  if (current?.user_id !== customerId) throw new AppError('ORDER_NOT_FOUND');
  let built = answers.get(orderId, current.version);
  if (built === undefined) {
    const [row] = await orderWithReceiptCount(ctx.db, orderId, customerId);
    if (row === undefined) throw new AppError('ORDER_NOT_FOUND');
    // The order may have changed since its version was read: the answer is kept under its own.
    const details = await toTimelessDetails(ctx.db, row, {
      botUsername: ctx.config.botUsername,
      receiptCount: Number(row.receipt_count),
    });
    built = answers.keep(orderId, row.version, JSON.stringify(details));
  }
  const { etag, timelessJson } = built;
  return { etag, json: holds(etag) ? null : withServerTime(timelessJson, ctx.now()) };
}

export async function bankRequisites(
  ctx: ServerContext,
  customerId: number,
  orderId: string,
): Promise<BankRequisitesResponse> {
  // Polled every 3 s: the two columns it reads, by name.
  const row = await orderRow(ctx.db, orderId, ['payment_method', 'requisites'], customerId);
  if (row.payment_method !== 'BANK_ACCOUNT' || row.requisites === null) {
    return { requisitesNotConfigured: true, requisites: null };
  }
  return {
    requisitesNotConfigured: false,
    requisites: JSON.parse(row.requisites) as Extract<
      BankRequisitesResponse,
      { requisitesNotConfigured: false }
    >['requisites'],
  };
}

export async function activeOrders(
  ctx: ServerContext,
  customerId: number,
): Promise<ActiveOrdersResponse> {
  const rows = await ctx.db
    .selectFrom('orders')
    .select(SUMMARY_COLUMNS)
    .select(unreadMessages('customer'))
    .where('user_id', '=', customerId)
    .where('status', 'in', ACTIVE_STATUSES)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return { orders: rows.map(toOrderSummary) };
}

/** Newest first, through the index (user_id, created_at, id) in this very order. */
export async function orderHistory(
  ctx: ServerContext,
  customerId: number,
  query: { readonly status: HistoryFilter; readonly limit: number; readonly offset: number },
): Promise<HistoryResponse> {
  let select = ctx.db
    .selectFrom('orders')
    .select(SUMMARY_COLUMNS)
    .select(unreadMessages('customer'))
    .where('user_id', '=', customerId);
  if (query.status === 'active') select = select.where('status', 'in', ACTIVE_STATUSES);
  if (query.status === 'completed') select = select.where('status', 'in', FINAL_STATUSES);
  const { rows, hasMore } = await pageOf(
    select.orderBy('created_at', 'desc').orderBy('id', 'desc'),
    query,
  );
  return { orders: rows.map(toOrderSummary), hasMore };
}

export function cancelOrder(ctx: ServerContext, customerId: number, orderId: string) {
  return applyTransition(
    ctx.db,
    {
      orderId,
      action: 'cancel',
      actor: 'customer',
      actorId: customerId,
      ownerId: customerId,
    },
    ctx.now(),
  );
}

export function confirmPayment(ctx: ServerContext, customerId: number, orderId: string) {
  return applyTransition(
    ctx.db,
    {
      orderId,
      action: 'confirmPayment',
      actor: 'customer',
      actorId: customerId,
      ownerId: customerId,
    },
    ctx.now(),
  );
}

export function confirmOfficeReceipt(ctx: ServerContext, customerId: number, orderId: string) {
  return applyTransition(
    ctx.db,
    {
      orderId,
      action: 'confirmOfficeReceipt',
      actor: 'customer',
      actorId: customerId,
      ownerId: customerId,
      reason: 'customer received the crypto',
    },
    ctx.now(),
  );
}
