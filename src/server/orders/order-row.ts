/** One order's row by id: "whose order is it" is answered the same way in every module. */
import type { Kysely } from 'kysely';
import type { Database, OrderRow } from '../platform/db/schema';
import { AppError } from '../platform/errors';

/** Anyone else's order, like one that does not exist, is ORDER_NOT_FOUND. */
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
  return row as unknown as Pick<OrderRow, C>;
}
