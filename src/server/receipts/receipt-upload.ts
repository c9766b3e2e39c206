/** A customer's receipt of a buy's payment: kept on disk, tied to its order, told to the operators. */
import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { takesAction } from '../../shared/order-status';
import type { ServerContext } from '../platform/context';
import { ORDER_COLUMNS, type Database, type OrderRow } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import {
  alertOperators,
  applyTransitionIn,
  flagTogether,
  orderRow,
  type TransitionResult,
} from '../orders';
import type { ReceivedDataUrl } from './receipt-body';
import {
  checkReceiptFile,
  cleanFileName,
  keepReceiptFile,
  receiptStorageKey,
  removeReceiptFile,
} from './receipts';

/**
 * Asked before the body is read, so nobody sends megabytes to an order not theirs or not waiting,
 * and again before a file is written; the transition judges once more.
 */
export async function orderTakingReceipt(
  ctx: ServerContext,
  customerId: number,
  orderId: string,
): Promise<OrderRow> {
  const order = await orderRow(ctx.db, orderId, ORDER_COLUMNS, customerId);
  if (
    order.payment_method === 'OFFICE' ||
    order.type === 'SELL' ||
    !takesAction('uploadReceipt', 'customer', order.status)
  ) {
    throw new AppError('INVALID_STATUS', { status: order.status });
  }
  return order;
}

/**
 * A further receipt (a second page) is kept without a status change. Success is answered only
 * once the file is on disk for good; the same file twice on one order is kept once, and on
 * another order it flags both.
 */
export async function uploadReceipt(
  ctx: ServerContext,
  customerId: number,
  orderId: string,
  upload: { readonly fileName: string; readonly fileData: ReceivedDataUrl },
): Promise<TransitionResult> {
  await orderTakingReceipt(ctx, customerId, orderId);
  const checked = checkReceiptFile(upload.fileData);
  const receiptId = randomUUID();
  const storageKey = receiptStorageKey(checked, receiptId);
  await keepReceiptFile(ctx.config.receiptsDir, storageKey, checked);

  // Set inside the transaction's callback, read after it: an object, so the read is not narrowed.
  const receipt = { kept: false };
  let result: TransitionResult;
  try {
    const now = ctx.now();
    result = await ctx.db.transaction().execute(async (trx) => {
      // Uploads of one file take turns before any order is locked: the later sees the other's
      // receipt and flags both, with no two uploads waiting on each other's orders.
      if (ctx.config.database.kind === 'postgres') {
        await sql`select pg_advisory_xact_lock(hashtext(${checked.sha256}))`.execute(trx);
      }
      return applyTransitionIn(
        trx,
        {
          orderId,
          action: 'uploadReceipt',
          actor: 'customer',
          actorId: customerId,
          ownerId: customerId,
          alongside: async (trx, order) => {
            const twin = await trx
              .selectFrom('receipts')
              .select('id')
              .where('order_id', '=', orderId)
              .where('sha256', '=', checked.sha256)
              .executeTakeFirst();
            if (twin !== undefined) return;
            await trx
              .insertInto('receipts')
              .values({
                id: receiptId,
                order_id: orderId,
                file_name: cleanFileName(upload.fileName, checked.type.extension),
                mime_type: checked.type.mime,
                size_bytes: checked.size,
                sha256: checked.sha256,
                storage_key: storageKey,
                uploaded_at: now,
              })
              .execute();
            await alertOperators(trx, 'receipt_uploaded', order, `receipt:${receiptId}`, now);
            // In the same commit as the receipt: a crash cannot keep one without the other.
            await flagReusedReceipt(trx, orderId, checked.sha256, now);
            receipt.kept = true;
          },
        },
        now,
      );
    });
  } finally {
    if (!receipt.kept) await removeReceiptFile(ctx.config.receiptsDir, storageKey);
  }
  return result;
}

/** The column keeps that a receipt was ever reused; the console reads reuse from the receipts. */
async function flagReusedReceipt(
  trx: Transaction<Database>,
  orderId: string,
  sha256: string,
  now: number,
): Promise<void> {
  const elsewhere = await trx
    .selectFrom('receipts')
    .select('order_id')
    .where('sha256', '=', sha256)
    .where('order_id', '!=', orderId)
    .execute();
  await flagTogether(
    trx,
    orderId,
    elsewhere.map((r) => r.order_id),
    { kind: 'flag_reused_receipt', eventOf: (id) => `reused:${id}:${sha256}` },
    now,
  );
}
