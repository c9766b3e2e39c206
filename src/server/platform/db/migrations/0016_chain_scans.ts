/** Where the scan of each deposit address stands, and the transfers no order could take. */
import { sql } from 'kysely';
import { bigInteger, dropTables, required, type DialectMigration } from './schema-steps';

export const createChainScans: DialectMigration = {
  async up(db, dialect) {
    const big = bigInteger(dialect);
    // Where the scan of a deposit address for a token's transfers stands, so that the calls
    // stay bounded whatever the number of waiting orders and a deposit is found without its
    // hash. One row per network, address and contract; an instance claims it for a round
    // through `claimed_until`, as the checker claims its rows.
    await db.schema
      .createTable('chain_scans')
      .addColumn('network', 'text', required)
      .addColumn('address', 'text', required)
      .addColumn('contract', 'text', required)
      .addColumn('next_block', big)
      .addColumn('next_time', big)
      .addColumn('claimed_until', big)
      .addColumn('updated_at', big, required)
      .addPrimaryKeyConstraint('chain_scans_pk', ['network', 'address', 'contract'])
      .execute();
    // A transfer to a deposit address that no order's hash names and that matched no single
    // waiting order: listed for operators, who attach it to an order.
    await db.schema
      .createTable('chain_incoming')
      .addColumn('network', 'text', required)
      .addColumn('tx_hash', 'text', required)
      .addColumn('contract', 'text', required)
      .addColumn('coin', 'text', required)
      .addColumn('sender', 'text', required)
      .addColumn('recipient', 'text', required)
      .addColumn('amount', 'text', required)
      .addColumn('decimals', 'integer', required)
      .addColumn('log_index', 'integer')
      .addColumn('block_number', big)
      .addColumn('block_time', big)
      .addColumn('candidates', 'integer', required)
      .addColumn('order_id', 'text', (c) => c.references('orders.id'))
      .addColumn('seen_at', big, required)
      .addPrimaryKeyConstraint('chain_incoming_pk', ['network', 'tx_hash', 'contract', 'amount'])
      .execute();
    await sql`CREATE INDEX chain_incoming_open ON chain_incoming (seen_at)
      WHERE order_id IS NULL`.execute(db);
  },
  async down(db) {
    await dropTables(db, ['chain_incoming', 'chain_scans']);
  },
};
