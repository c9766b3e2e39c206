/** Prices read from the market: each source's state, its latest prices and their history. */
import {
  bigInteger,
  createIndex,
  dropTables,
  required,
  serialId,
  zero,
  type DialectMigration,
} from './schema-steps';

export const createMarketRates: DialectMigration = {
  async up(db, dialect) {
    const big = bigInteger(dialect);
    // One row per configured source: when it is read next, the instance reading it now (a lease,
    // so that of several instances one reads), its last success and its last fault.
    await db.schema
      .createTable('rate_sources')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('next_read_at', big, required)
      .addColumn('lease', 'text')
      .addColumn('lease_until', big)
      .addColumn('read_at', big)
      .addColumn('failed_at', big)
      .addColumn('fault_kind', 'text')
      .addColumn('fault_message', 'text')
      .execute();
    // The latest price of each pair from each source: what a quote is made of. A pair the
    // source stopped answering keeps its last row, which its age leaves out.
    await db.schema
      .createTable('rate_prices')
      .addColumn('source', 'text', required)
      .addColumn('base', 'text', required)
      .addColumn('quote', 'text', required)
      .addColumn('units', big, required)
      .addColumn('at', big, required)
      .addColumn('read_at', big, required)
      .addColumn('detail', 'text')
      .addPrimaryKeyConstraint('rate_prices_pk', ['source', 'base', 'quote'])
      .execute();
    // Every price read, and the market's base each minute (source `base`), for the console's
    // chart of the last day and for telling a jump; housekeeping keeps two days.
    await db.schema
      .createTable('rate_history')
      .$call(serialId(dialect))
      .addColumn('source', 'text', required)
      .addColumn('base', 'text', required)
      .addColumn('quote', 'text', required)
      .addColumn('units', big, required)
      .addColumn('read_at', big, required)
      .execute();
    await createIndex(db, 'rate_history_pair', 'rate_history', ['base', 'quote', 'read_at']);
    await createIndex(db, 'rate_history_read_at', 'rate_history', ['read_at']);
    // Each pair's state: whether customers can order it (the operators are told when that
    // changes, once), the market base accepted, a jump held, an operator's fixed rate. Every
    // write is conditional on `revision`, so of several instances one decides.
    await db.schema
      .createTable('rate_pairs')
      .addColumn('crypto', 'text', required)
      .addColumn('fiat', 'text', required)
      .addColumn('revision', 'integer', zero)
      .addColumn('quoting', 'integer', required)
      .addColumn('changed_at', big, required)
      .addColumn('base_units', big)
      .addColumn('base_at', big)
      .addColumn('window_from', big)
      .addColumn('charted_at', big)
      .addColumn('held_units', big)
      .addColumn('held_from_units', big)
      .addColumn('held_since', big)
      .addColumn('fixed_units', big)
      .addColumn('fixed_until', big)
      .addColumn('fixed_by', big)
      .addPrimaryKeyConstraint('rate_pairs_pk', ['crypto', 'fiat'])
      .execute();
    // Every change of what customers are quoted, by whom (none: the server itself), kept.
    await db.schema
      .createTable('rate_changes')
      .$call(serialId(dialect))
      .addColumn('at', big, required)
      .addColumn('operator_id', big)
      .addColumn('kind', 'text', required)
      .addColumn('subject', 'text', required)
      .addColumn('before_units', big)
      .addColumn('after_units', big)
      .addColumn('until', big)
      .execute();
  },
  async down(db) {
    await dropTables(db, [
      'rate_changes',
      'rate_pairs',
      'rate_history',
      'rate_prices',
      'rate_sources',
    ]);
  },
};
