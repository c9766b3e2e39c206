/** Why an order was cancelled: its deadline expired, or its customer cancelled it. */
import { sql } from 'kysely';
import { addColumns, dropColumns, type DialectMigration } from './schema-steps';

export const addCancelReason: DialectMigration = {
  async up(db) {
    await addColumns(db, [['orders', 'cancel_reason', 'text']]);
    // Orders cancelled before: by the sweeper (an expired deadline) or by their customer.
    await sql`
      update orders set cancel_reason = case
        when exists (
          select 1 from order_events e
          where e.order_id = orders.id and e.to_status = 'CANCELLED' and e.actor = 'system'
        ) then 'expired' else 'customer' end
      where status = 'CANCELLED'`.execute(db);
  },
  async down(db) {
    await dropColumns(db, [['orders', 'cancel_reason']]);
  },
};
