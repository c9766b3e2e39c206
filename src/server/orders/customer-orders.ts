/**
 * The customer's order calls (spec section 7) as services: every one is limited to the caller's
 * own orders (another customer's order is answered as missing) and every status change goes
 * through `applyTransition`.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { BankRequisitesResponse, HistoryFilter, OrderDetails } from '../../shared/api';
import { checkTxHash } from '../../shared/addresses';
import {
  ACTIVE_STATUSES,
  ALREADY_DONE,
  canTransition,
  FINAL_STATUSES,
} from '../../shared/order-status';
import type { Database, OrderRow } from '../db/schema';
import { AppError } from '../errors';
import { checkReceiptFile, cleanFileName, writeReceiptFile } from '../receipts/receipts';
import { applyTransition, type TransitionResult } from './transition';
import { toOrderDetails, toOrderSummary } from './order-view';
import type { HistoryResponse, OrderSummary } from '../../shared/api';

export interface CustomerOrdersDeps {
  readonly db: Kysely<Database>;
  readonly now: () => number;
  readonly receiptsDir: string;
  readonly botUsername: string | undefined;
}

export async function ownOrder(
  db: Kysely<Database>,
  orderId: string,
  customerId: number,
): Promise<OrderRow> {
  const row = await db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .where('user_id', '=', customerId)
    .executeTakeFirst();
  if (row === undefined) throw new AppError('ORDER_NOT_FOUND');
  return row;
}

export async function orderStatus(
  deps: CustomerOrdersDeps,
  orderId: string,
  customerId: number,
): Promise<OrderDetails> {
  const row = await ownOrder(deps.db, orderId, customerId);
  return toOrderDetails(deps.db, row, { now: deps.now(), botUsername: deps.botUsername });
}

/** Bank requisites of a bank-transfer order, or `requisitesNotConfigured` until they are given. */
export async function bankRequisites(
  deps: CustomerOrdersDeps,
  orderId: string,
  customerId: number,
): Promise<BankRequisitesResponse> {
  const row = await ownOrder(deps.db, orderId, customerId);
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
  db: Kysely<Database>,
  customerId: number,
): Promise<OrderSummary[]> {
  const rows = await db
    .selectFrom('orders')
    .selectAll()
    .where('user_id', '=', customerId)
    .where('status', 'in', ACTIVE_STATUSES)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toOrderSummary);
}

/** Newest first; one row more than asked tells whether there is another page. */
export async function orderHistory(
  db: Kysely<Database>,
  customerId: number,
  query: { readonly filter: HistoryFilter; readonly limit: number; readonly offset: number },
): Promise<HistoryResponse> {
  let select = db.selectFrom('orders').selectAll().where('user_id', '=', customerId);
  if (query.filter === 'active') select = select.where('status', 'in', ACTIVE_STATUSES);
  if (query.filter === 'completed') select = select.where('status', 'in', FINAL_STATUSES);
  const rows = await select
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .offset(query.offset)
    .execute();
  return {
    orders: rows.slice(0, query.limit).map(toOrderSummary),
    hasMore: rows.length > query.limit,
  };
}

export function cancelOrder(deps: CustomerOrdersDeps, orderId: string, customerId: number) {
  return applyTransition(
    deps.db,
    {
      orderId,
      action: 'cancel',
      actor: 'customer',
      actorId: customerId,
      ownerId: customerId,
      reason: 'cancelled by customer',
    },
    deps.now(),
  );
}

export function confirmPayment(deps: CustomerOrdersDeps, orderId: string, customerId: number) {
  return applyTransition(
    deps.db,
    {
      orderId,
      action: 'confirmPayment',
      actor: 'customer',
      actorId: customerId,
      ownerId: customerId,
    },
    deps.now(),
  );
}

export function confirmOfficeReceipt(
  deps: CustomerOrdersDeps,
  orderId: string,
  customerId: number,
) {
  return applyTransition(
    deps.db,
    {
      orderId,
      action: 'confirmOfficeReceipt',
      actor: 'customer',
      actorId: customerId,
      ownerId: customerId,
      reason: 'customer received the crypto',
    },
    deps.now(),
  );
}

/**
 * Stores a receipt and moves the order to RECEIPT_UPLOADED. A further receipt on an order that
 * already has one (a second page) is kept without a status change. The same file on another
 * order flags both for operators.
 */
export async function uploadReceipt(
  deps: CustomerOrdersDeps,
  orderId: string,
  customerId: number,
  upload: { readonly fileName: string; readonly fileData: string },
): Promise<TransitionResult> {
  const order = await ownOrder(deps.db, orderId, customerId);
  if (order.payment_method === 'OFFICE' || order.type === 'SELL') {
    throw new AppError('INVALID_STATUS', { status: order.status });
  }
  const checked = checkReceiptFile(upload.fileData);
  // Only an order that takes the receipt gets a file on disk: a refused one would be kept
  // forever with no row pointing at it.
  if (
    order.status !== 'RECEIPT_UPLOADED' &&
    !canTransition('uploadReceipt', 'customer', order.status)
  ) {
    if (ALREADY_DONE.uploadReceipt?.includes(order.status)) return { order, changed: false };
    throw new AppError('INVALID_STATUS', { status: order.status });
  }
  const file = await writeReceiptFile(deps.receiptsDir, checked);
  const now = deps.now();
  const receiptRow = {
    id: randomUUID(),
    order_id: orderId,
    file_name: cleanFileName(upload.fileName, file.type.extension),
    mime_type: file.type.mime,
    size_bytes: file.size,
    sha256: file.sha256,
    storage_key: file.storageKey,
    uploaded_at: now,
  };

  const flagReuse = async (db: Kysely<Database>) => {
    const elsewhere = await db
      .selectFrom('receipts')
      .select('order_id')
      .where('sha256', '=', file.sha256)
      .where('order_id', '!=', orderId)
      .execute();
    if (elsewhere.length > 0) {
      await db
        .updateTable('orders')
        .set({ needs_attention: 1 })
        .where('id', 'in', [orderId, ...elsewhere.map((r) => r.order_id)])
        .execute();
    }
  };

  if (order.status === 'RECEIPT_UPLOADED') {
    await deps.db.insertInto('receipts').values(receiptRow).execute();
    await flagReuse(deps.db);
    return { order, changed: false };
  }
  const result = await applyTransition(
    deps.db,
    {
      orderId,
      action: 'uploadReceipt',
      actor: 'customer',
      actorId: customerId,
      ownerId: customerId,
      alongside: async (trx) => {
        await trx.insertInto('receipts').values(receiptRow).execute();
        await flagReuse(trx);
      },
    },
    now,
  );
  // Two pages sent at once: the other one moved the order, this one is kept as the next page
  // (answering 200 and dropping it would lose the customer's receipt).
  if (!result.changed && result.order.status === 'RECEIPT_UPLOADED') {
    await deps.db.insertInto('receipts').values(receiptRow).execute();
    await flagReuse(deps.db);
  }
  return result;
}

/** The customer's transfer of a sell: the hash is checked for the order's network. */
export async function submitTxHash(
  deps: CustomerOrdersDeps,
  orderId: string,
  customerId: number,
  body: { readonly txHash: string; readonly network?: string | undefined },
): Promise<TransitionResult> {
  const order = await ownOrder(deps.db, orderId, customerId);
  if (order.type !== 'SELL') throw new AppError('INVALID_STATUS', { status: order.status });
  if (body.network !== undefined && body.network !== order.network) {
    throw new AppError('INVALID_TX_HASH');
  }
  const txHash = body.txHash.trim();
  if (checkTxHash(order.network, txHash) !== null) throw new AppError('INVALID_TX_HASH');
  if (order.tx_hash !== null && order.tx_hash.toLowerCase() !== txHash.toLowerCase()) {
    throw new AppError('INVALID_STATUS', { status: order.status });
  }
  // Hex carries no case: the same transfer written in capitals is still the same transfer.
  const reused = await deps.db
    .selectFrom('orders')
    .select('id')
    .where((eb) => eb(eb.fn<string>('lower', ['tx_hash']), '=', txHash.toLowerCase()))
    .where('id', '!=', orderId)
    .executeTakeFirst();
  if (reused !== undefined) throw new AppError('INVALID_TX_HASH');
  return applyTransition(
    deps.db,
    {
      orderId,
      action: 'submitTxHash',
      actor: 'customer',
      actorId: customerId,
      ownerId: customerId,
      patch: { tx_hash: txHash },
    },
    deps.now(),
  );
}
