/**
 * The customer's order calls (spec section 7) as services: every one is limited to the caller's
 * own orders (another customer's order is answered as missing) and every status change goes
 * through `applyTransition`.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Transaction } from 'kysely';
import type {
  ActiveOrdersResponse,
  BankRequisitesResponse,
  HistoryFilter,
  HistoryResponse,
} from '../../shared/api';
import { checkTxHash } from '../../shared/addresses';
import { ACTIVE_STATUSES, FINAL_STATUSES, takesAction } from '../../shared/order-status';
import type { ServerContext } from '../platform/context';
import { refusalDetails, type DepositProblem } from '../chain/deposit-rules';
import { tokenAmountToDecimal, unitsToTokenAmount } from '../../shared/money';
import { amountRefusal, flagForeignAmount } from './deposit-amounts';
import {
  ORDER_COLUMNS,
  type ChainChecksTable,
  type Database,
  type OrderRow,
} from '../platform/db/schema';
import { compiledOnce } from '../platform/db/compiled-once';
import { pageOf } from '../platform/db/paging';
import { AppError } from '../platform/errors';
import { isUniqueViolation } from '../platform/db/errors';
import {
  checkReceiptFile,
  cleanFileName,
  receiptStorageKey,
  removeReceiptFile,
  keepReceiptFile,
} from '../receipts/receipts';
import { alertOperators, flagTogether } from '../notifications/outbox';
import { applyTransition, applyTransitionIn, type TransitionResult } from './transition';
import {
  depositTargetOf,
  firstCheck,
  insertDepositCheck,
  lookUpDeposit,
  type DepositTarget,
} from '../chain/deposit-check';
import {
  DETAILS_COLUMNS,
  SUMMARY_COLUMNS,
  toOrderSummary,
  toTimelessDetails,
  withServerTime,
} from './order-view';
import type { StatusAnswers } from './status/status-answers';
import { orderRow } from './order-row';
import type { ReceivedDataUrl } from '../receipts/receipt-body';
import { unreadMessages } from '../chat/unread';

/** A customer's order with its version and the count of its receipts: a status answer's data. */
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

/**
 * The status answer as JSON, or only its version when the caller already holds it (`holds`:
 * the route's reading of `If-None-Match`). A poll reads the order's owner and version (with the other polls of the
 * moment, status-answers.ts); the answer is built (the order with its receipt count, then its
 * receipts and reservation if any) only when the order changed since it was last built.
 */
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

/** Bank requisites of a bank-transfer order, or `requisitesNotConfigured` until they are given. */
export async function bankRequisites(
  ctx: ServerContext,
  customerId: number,
  orderId: string,
): Promise<BankRequisitesResponse> {
  // Polled every 3 s on the bank-requisites screen: the two columns it reads, by name.
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

/**
 * Stores a receipt and moves the order to RECEIPT_UPLOADED; a further receipt (a second page, or
 * one racing the operator's confirmation) is kept without a status change (TAKEN_WITHOUT_CHANGE).
 * Success is only answered for a receipt that is kept: its file is on disk for good before its
 * row commits with the order's check, and a refused upload's file is removed. The same file sent
 * twice to one order (a double tap) is kept once; on another order it flags both for operators.
 */
/**
 * The caller's order, when it can take a receipt now: ORDER_NOT_FOUND or INVALID_STATUS
 * otherwise. Asked before an upload's body is read (orders/orders-routes.ts), so that nobody sends
 * megabytes to an order that is not theirs or not waiting for one, and again by the upload, before
 * a file is written for nothing; the transition judges once more against the status the order has
 * when its row is written.
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
      // Uploads of one file take their turn (on PostgreSQL; SQLite has one writer at a time), and
      // before any order is locked: each then sees the other's receipt once it committed, so
      // the later one flags both, inside its own commit, without two uploads waiting on each
      // other's orders.
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
            // In the same commit as the receipt: a crash in between cannot keep one without the
            // other.
            await flagReusedReceipt(trx, orderId, checked.sha256, now);
            receipt.kept = true;
          },
        },
        now,
      );
    });
  } finally {
    // Refused, or the same file already on the order: no row will ever name this file.
    if (!receipt.kept) await removeReceiptFile(ctx.config.receiptsDir, storageKey);
  }
  return result;
}

/**
 * The same file on another order flags both orders for operators (design.md, "Receipts"), in the
 * upload's transaction. (The console reads reuse from the receipts themselves; this column keeps
 * that a receipt was ever reused.)
 */
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
  // One alert per order and file, whichever upload of the two writes it.
  await flagTogether(
    trx,
    orderId,
    elsewhere.map((r) => r.order_id),
    { kind: 'flag_reused_receipt', eventOf: (id) => `reused:${id}:${sha256}` },
    now,
  );
}

/**
 * The customer's transfer of a sell: the hash is checked for the order's network. Sent again,
 * it is answered as done only if it is the hash the order holds (hex carries no case); a
 * different one is refused with TX_HASH_ALREADY_SUBMITTED.
 *
 * A hash reserves nothing by itself: anyone watching the public deposit address can paste one
 * before its seller does. On a network read from a node the hash is looked up first, once and
 * briefly (deposit-check.ts): a transaction found that is not the order's deposit (another
 * amount than the order's exact one, say) is refused with what is wrong, and the order keeps
 * waiting for the right one; anything else is taken, and the check row is written with the hash:
 * `seen` when found right, `looking` when the node does not know it yet or did not answer (never
 * read as not found; it is judged like any other once found). A transfer that is already another
 * order's deposit is refused with TX_ALREADY_USED by the unique index of found transfers. On a
 * manual network the hash is taken, and when another order gives the same one, operators are told
 * of both (they confirm by hand).
 */
export async function submitTxHash(
  ctx: ServerContext,
  customerId: number,
  orderId: string,
  body: { readonly txHash: string; readonly network?: string | undefined },
): Promise<TransitionResult> {
  const order = await orderRow(ctx.db, orderId, ORDER_COLUMNS, customerId);
  if (order.type !== 'SELL') throw new AppError('INVALID_STATUS', { status: order.status });
  if (body.network !== undefined && body.network !== order.network) {
    throw new AppError('INVALID_TX_HASH');
  }
  const txHash = body.txHash.trim();
  if (checkTxHash(order.network, txHash) !== null) throw new AppError('INVALID_TX_HASH');
  // Only a hash that will move the order is looked up: a repeat is judged by the transition.
  const target = order.status === 'WAITING_CRYPTO' ? depositTargetOf(ctx, order) : undefined;
  const check =
    target === undefined ? undefined : await depositCheckAtSubmission(ctx, target, order, txHash);
  const alongside =
    check !== undefined
      ? (trx: Transaction<Database>) => insertDepositCheck(trx, check)
      : (trx: Transaction<Database>) => flagSameHash(trx, orderId, txHash, ctx.now());
  try {
    return await applyTransition(
      ctx.db,
      {
        orderId,
        action: 'submitTxHash',
        actor: 'customer',
        actorId: customerId,
        ownerId: customerId,
        patch: { tx_hash: txHash },
        holdsSame: (current) => current.tx_hash?.toLowerCase() === txHash.toLowerCase(),
        conflict: 'TX_HASH_ALREADY_SUBMITTED',
        alongside,
      },
      ctx.now(),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('TX_ALREADY_USED');
    throw error;
  }
}

/**
 * A hash given on a manual network that another order gives too: both orders flagged for the
 * operators, who confirm by hand, each alert naming the others (once per order and hash).
 */
async function flagSameHash(
  trx: Transaction<Database>,
  orderId: string,
  txHash: string,
  now: number,
): Promise<void> {
  const hash = txHash.toLowerCase();
  const elsewhere = await trx
    .selectFrom('orders')
    .select('id')
    .where(sql<string>`lower(tx_hash)`, '=', hash)
    .where('id', '!=', orderId)
    .execute();
  await flagTogether(
    trx,
    orderId,
    elsewhere.map((r) => r.id),
    {
      kind: 'flag_chain_deposit',
      eventOf: (id) => `chain:same_hash:${id}:${hash}`,
      extra: { chainFlag: 'same_hash', chainHash: hash },
    },
    now,
  );
}

/**
 * The check row a submitted hash starts with, after one lookup within PERSON_WAITS_MS;
 * throws the refusal when the transaction found is not the order's deposit.
 */
async function depositCheckAtSubmission(
  ctx: ServerContext,
  target: DepositTarget,
  order: OrderRow,
  txHash: string,
): Promise<Insertable<ChainChecksTable>> {
  const now = ctx.now();
  const check = await firstCheck(
    ctx,
    target,
    { order, kind: 'deposit', hash: txHash, method: 'submission' },
    lookUpDeposit(target, order, txHash),
    now,
  );
  if (check.kind === 'wrong') {
    throw await refusalOf(ctx, order, txHash, check.problem, check.decimals);
  }
  return check.row;
}

/**
 * The refusal of a transaction found that is not the order's deposit. A transfer of another
 * sell's exact amount is refused as another amount; when that sell is another customer's and
 * open, operators are told of both orders before the seller is answered.
 */
async function refusalOf(
  ctx: ServerContext,
  order: OrderRow,
  txHash: string,
  problem: DepositProblem,
  decimals: number,
): Promise<AppError> {
  let refused = problem;
  if (problem.code === 'TX_UNDERPAID' || problem.code === 'TX_AMOUNT_MISMATCH') {
    const now = ctx.now();
    const expected = unitsToTokenAmount(order.amount_units, decimals);
    const holdMs = ctx.config.depositAmountHoldMs;
    const refusal = await amountRefusal(ctx.db, order, problem, decimals, expected, now, holdMs);
    refused = refusal.problem;
    if (refusal.foreignOrder !== undefined) {
      await flagForeignAmount(ctx.db, order.id, refusal.foreignOrder, {
        amount: tokenAmountToDecimal(problem.sent, decimals),
        hash: txHash.toLowerCase(),
        now,
      });
    }
  }
  return new AppError(refused.code, refusalDetails(refused, order.crypto_currency, decimals));
}
