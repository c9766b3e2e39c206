/**
 * One order's row, read by id: the one lookup every module's call on one order starts from (the
 * customer's calls, the console's scope, the chat, appeals, saved details), so "whose order is
 * it" is answered the same way everywhere.
 */
import type { Kysely } from 'kysely';
import type { Database, OrderRow } from '../platform/db/schema';
import { AppError } from '../platform/errors';

/**
 * The `columns` of order `orderId`, or only of `ownerId`'s when given: anyone else's, like an
 * order that does not exist, is ORDER_NOT_FOUND.
 */
export async function orderRow<C extends keyof OrderRow>(
  db: Kysely<Database>,
  orderId: string,
  columns: readonly C[],
  ownerId?: number,
): Promise<Pick<OrderRow, C>> {
  let query = db.selectFrom('orders').select(columns).where('id', '=', orderId);
  if (ownerId !== undefined) query = query.where('user_id', '=', ownerId);
  const row = await query.executeTakeFirst();
  if (row === undefined) throw new AppError('ORDER_NOT_FOUND');
  // Kysely cannot name the type of a selection of generic columns; the row holds exactly those.
  return row as unknown as Pick<OrderRow, C>;
}
