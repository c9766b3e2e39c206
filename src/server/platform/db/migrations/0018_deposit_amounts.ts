/** Each sell's exact amount held, unique per network and coin; what the checker reads anew. */
import { sql } from 'kysely';
import {
  addColumns,
  bigInteger,
  dropColumns,
  dropTables,
  required,
  zero,
  type DialectMigration,
} from './schema-steps';

export const holdDepositAmounts: DialectMigration = {
  // Every seller sends to the same public deposit address, so what ties a transfer to one
  // sell is its exact amount (orders/deposit-amounts.ts). A held amount is unique per network
  // and coin by this table's key, whichever instance hands it out; a sell's hold is deleted
  // once it ended DEPOSIT_AMOUNT_HOLD_HOURS ago. A transaction hash no longer reserves
  // anything from the paste on: only a transfer found right is unique (chain_checks_transfer).
  async up(db, dialect) {
    const big = bigInteger(dialect);
    await db.schema
      .createTable('deposit_amounts')
      .addColumn('network', 'text', required)
      .addColumn('crypto_currency', 'text', required)
      .addColumn('amount_units', big, required)
      .addColumn('order_id', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', big, required)
      .addPrimaryKeyConstraint('deposit_amounts_pk', ['network', 'crypto_currency', 'amount_units'])
      .execute();
    // The sells still open hold their amounts (earlier ones have no tag; of two open sells of
    // one amount the first holds it, the other is left to the operators, as before).
    await sql`INSERT INTO deposit_amounts (network, crypto_currency, amount_units, order_id, created_at)
      SELECT network, crypto_currency, amount_units, id, created_at FROM orders
      WHERE type = 'SELL' AND status NOT IN ('COMPLETED', 'CANCELLED', 'REJECTED')
      ORDER BY created_at
      ON CONFLICT DO NOTHING`.execute(db);
    await db.schema.dropIndex('orders_tx_hash_unique').execute();
    // Still looked up (a manual network's hash given twice), no longer unique.
    await sql`create index orders_tx_hash on orders (lower(tx_hash))`.execute(db);
    await addColumns(db, [
      // What an operator accepted as a sell's deposit instead of its exact amount: the checker
      // judges the transfer against it at every read (null: the order's own amount).
      ['chain_checks', 'accepted_amount', 'text'],
      // How many final blocks an EVM scan has still to read, written with its cursor: the
      // metrics export it, so a scan that falls behind is seen.
      ['chain_scans', 'lag_blocks', big],
      // The block a transfer was seen in, compared at its final read (a transaction re-mined
      // at the same height is in another block), and when a final read first found nothing
      // (read once more before anyone is told of a reorganisation).
      ['chain_checks', 'block_hash', 'text'],
      ['chain_checks', 'vanished_at', big],
      // The claim a checker holds a row by: every write of a check names it, so an instance
      // whose lease ran out never overwrites the verdict of the instance that took the row.
      ['chain_checks', 'lease', 'text'],
      // 1 for a transfer under CHAIN_DUST_BELOW that is no sell's exact amount (an address
      // poisoner's, say): kept and counted, never listed for operators.
      ['chain_incoming', 'dust', 'integer', zero],
    ]);
  },
  async down(db) {
    await dropColumns(db, [
      ['chain_incoming', 'dust'],
      ['chain_checks', 'lease'],
      ['chain_checks', 'vanished_at'],
      ['chain_checks', 'block_hash'],
      ['chain_scans', 'lag_blocks'],
      ['chain_checks', 'accepted_amount'],
    ]);
    await db.schema.dropIndex('orders_tx_hash').execute();
    await sql`create unique index orders_tx_hash_unique on orders (lower(tx_hash))`.execute(db);
    await dropTables(db, ['deposit_amounts']);
  },
};
