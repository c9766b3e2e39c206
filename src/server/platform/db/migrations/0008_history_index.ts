/** A customer's history read by an index in its own order. */
import { createIndex, type DialectMigration } from './schema-steps';

export const indexHistory: DialectMigration = {
  async up(db) {
    // A customer's history is read newest first by (created_at, id): an index in that order
    // serves a deep page without sorting, however long the history, and covers the one it
    // replaces.
    await createIndex(db, 'orders_user_created_id', 'orders', ['user_id', 'created_at', 'id']);
    await db.schema.dropIndex('orders_user_created').execute();
  },
  async down(db) {
    await createIndex(db, 'orders_user_created', 'orders', ['user_id', 'created_at']);
    await db.schema.dropIndex('orders_user_created_id').execute();
  },
};
