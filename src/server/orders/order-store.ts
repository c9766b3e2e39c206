/** Writes to an order's row other than a status change: one file answers what can change it. */
import type { Kysely, Transaction } from 'kysely';
import type { ChatAuthor } from '../../shared/api';
import { ORDER_COLUMNS, type Database, type OrderRow } from '../platform/db/schema';
import { AppError } from '../platform/errors';

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

/** Unless another operator took it: the demo's autopilot then leaves it. */
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
 * Moves the order's version when what hangs off it changed (a chat message, an appeal) and, on
 * PostgreSQL, locks its row until the transaction ends.
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

/** Never back. */
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
