/** The orders the sweeper has not flagged yet, indexed apart. */
import { sql } from 'kysely';
import type { DialectMigration } from './schema-steps';

export const indexUnalertedOrders: DialectMigration = {
  async up(db) {
    // The sweeper's flag pass claims, batch after batch, orders not yet flagged: an index of
    // only those keeps each claim as cheap as the first, where one on status alone would walk
    // past every order already flagged, again in every batch.
    await db.schema
      .createIndex('orders_unalerted')
      .on('orders')
      .columns(['status', 'created_at'])
      .where(sql.ref('deadline_alerted_at'), 'is', null)
      .execute();
  },
  async down(db) {
    await db.schema.dropIndex('orders_unalerted').execute();
  },
};
