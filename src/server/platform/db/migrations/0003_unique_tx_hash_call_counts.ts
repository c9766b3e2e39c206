/** A transaction hash pays for one order only; the per-customer call limits. */
import { sql } from 'kysely';
import { bigInteger, dropTables, required, type DialectMigration } from './schema-steps';

export const uniqueTxHashAndCallCounts: DialectMigration = {
  async up(db, dialect) {
    const big = bigInteger(dialect);
    // One transfer pays for one sell: two orders can never hold the same hash, in any case
    // (hex carries none), whichever server instance writes it.
    await sql`create unique index orders_tx_hash_unique on orders (lower(tx_hash))`.execute(db);
    // The per-customer call limits, shared by every server instance (platform/limits/rate-limit.ts).
    await db.schema
      .createTable('call_counts')
      .addColumn('customer_id', big, required)
      .addColumn('call', 'text', required)
      .addColumn('window_start', big, required)
      .addColumn('count', 'integer', required)
      .addPrimaryKeyConstraint('call_counts_pk', ['customer_id', 'call'])
      .execute();
  },
  async down(db) {
    await dropTables(db, ['call_counts']);
    await db.schema.dropIndex('orders_tx_hash_unique').execute();
  },
};
