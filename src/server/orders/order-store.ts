/**
 * The writes to an order's row that are not a status change (those are transition.ts's): take it,
 * flag it for the operators, touch it, mark its chat read. Every module writes `orders` through
 * these or the transition function, so one file answers what can change an order and how.
 */
import type { Kysely, Transaction } from 'kysely';
import type { ChatAuthor } from '../../shared/api';
import { ORDER_COLUMNS, type Database, type OrderRow } from '../platform/db/schema';
import { AppError } from '../platform/errors';

/** Puts the order in front of the operators (`needs_attention`) and answers it as it is now. */
export async function flagOrder(
  db: Kysely<Database> | Transaction<Database>,
  orderId: string,
): Promise<OrderRow> {
  return db
    .updateTable('orders')
    .set({ needs_attention: 1 })
    .where('id', '=', orderId)
    .returning(ORDER_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The operator takes the order unless another one has: the demo's autopilot then leaves it. */
export async function takeOrder(
  db: Kysely<Database>,
  orderId: string,
  operatorId: number,
): Promise<void> {
  await db
    .updateTable('orders')
    .set({ taken_by: operatorId })
    .where('id', '=', orderId)
    .where('taken_by', 'is', null)
    .execute();
}

/**
 * Moves the order's version without changing it (what hangs off it changed: a chat message, an
 * appeal) and, on PostgreSQL, locks its row until the transaction ends. Only the order of `ownerId`
 * or in `status` when given; otherwise ORDER_NOT_FOUND, or INVALID_STATUS for a status moved on.
 */
export async function touchOrder(
  trx: Transaction<Database>,
  orderId: string,
  only: { readonly ownerId?: number; readonly status?: OrderRow['status'] } = {},
): Promise<OrderRow> {
  let touch = trx
    .updateTable('orders')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', orderId);
  if (only.ownerId !== undefined) touch = touch.where('user_id', '=', only.ownerId);
  if (only.status !== undefined) touch = touch.where('status', '=', only.status);
  const order = await touch.returning(ORDER_COLUMNS).executeTakeFirst();
  if (order === undefined) {
    throw new AppError(only.status === undefined ? 'ORDER_NOT_FOUND' : 'INVALID_STATUS');
  }
  return order;
}

/** Marks the other side's messages read by `reader` up to message `upTo`; never back. */
export async function markChatRead(
  db: Kysely<Database>,
  reader: ChatAuthor,
  orderId: string,
  upTo: number,
): Promise<void> {
  const update = db.updateTable('orders').where('id', '=', orderId);
  // Only when it moves: each write moves the order's version, which a status poll then rebuilds.
  await (reader === 'customer'
    ? update
        .set({ customer_read_message_id: upTo })
        .where('customer_read_message_id', '<', upTo)
        .execute()
    : update
        .set({ operator_read_message_id: upTo })
        .where('operator_read_message_id', '<', upTo)
        .execute());
}
