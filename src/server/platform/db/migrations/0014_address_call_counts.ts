/** The per-address call limits. */
import { bigInteger, dropTables, required, type DialectMigration } from './schema-steps';

export const createAddressCallCounts: DialectMigration = {
  async up(db, dialect) {
    // The per-address call limits (rate-limit.ts), beside the per-customer ones: a table of
    // its own rather than a wider key for call_counts, which an instance of the version
    // before keeps writing while a rolling deploy runs.
    await db.schema
      .createTable('address_call_counts')
      .addColumn('address', 'text', required)
      .addColumn('call', 'text', required)
      .addColumn('window_start', bigInteger(dialect), required)
      .addColumn('count', 'integer', required)
      .addPrimaryKeyConstraint('address_call_counts_pk', ['address', 'call'])
      .execute();
  },
  async down(db) {
    await dropTables(db, ['address_call_counts']);
  },
};
