/** What the chain said about an order's transaction, and the checker's claim on it. */
import { sql, type Kysely } from 'kysely';
import { SQLITE_RANDOM_VERSION } from './0011_versions_never_repeat';
import {
  anyChanged,
  bigInteger,
  dropTables,
  required,
  runInTurn,
  zero,
  type Dialect,
  type DialectMigration,
} from './schema-steps';

/**
 * What the chain said about an order's transaction: one row per order and kind ('deposit' now,
 * 'payout' later), written with the hash and moved on by the chain checker
 * (chain/chain-checker.ts), which claims due rows through `claimed_until`.
 */
async function createChainChecksTable(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigInteger(dialect);
  await db.schema
    .createTable('chain_checks')
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('kind', 'text', required)
    .addColumn('network', 'text', required)
    .addColumn('tx_hash', 'text', required)
    .addColumn('state', 'text', required)
    .addColumn('log_index', 'integer')
    .addColumn('block_number', big)
    .addColumn('block_time', big)
    .addColumn('confirmations', 'integer', zero)
    .addColumn('required_confirmations', 'integer', required)
    .addColumn('amount', 'text')
    .addColumn('decimals', 'integer')
    .addColumn('sender', 'text')
    .addColumn('contract', 'text')
    .addColumn('reorged', 'integer', zero)
    .addColumn('attempts', 'integer', zero)
    .addColumn('next_check_at', big, required)
    .addColumn('look_until', big, required)
    .addColumn('claimed_until', big)
    .addColumn('last_fault', 'text')
    .addColumn('created_at', big, required)
    .addColumn('updated_at', big, required)
    .addPrimaryKeyConstraint('chain_checks_pk', ['order_id', 'kind'])
    .execute();
  // One transfer (network, hash, log index) is one deposit, whichever instance writes it
  // and however two submissions race: the database refuses the second. A row still looking
  // has no log index yet and claims nothing.
  await sql`CREATE UNIQUE INDEX chain_checks_transfer ON chain_checks
    (network, tx_hash, log_index) WHERE log_index IS NOT NULL`.execute(db);
  // The checker's claim: the rows still open, by when they are due.
  await sql`CREATE INDEX chain_checks_due ON chain_checks (network, next_check_at)
    WHERE state IN ('looking', 'seen')`.execute(db);
}

/**
 * A change the customer sees moves the order's version on, as a receipt does (0009, 0011), so
 * its status answer is built again; the checker's lease and backoff columns, written every
 * round, do not.
 */
const CUSTOMER_VISIBLE_COLUMNS = ['state', 'confirmations', 'required_confirmations', 'reorged'];

function versionTriggers(dialect: Dialect): string[] {
  const changed = anyChanged(dialect, CUSTOMER_VISIBLE_COLUMNS);
  if (dialect === 'postgres') {
    return [
      `CREATE FUNCTION chain_checks_touch_order() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         UPDATE orders SET version = version WHERE id = NEW.order_id;
         RETURN NULL;
       END $$`,
      `CREATE TRIGGER chain_checks_added AFTER INSERT ON chain_checks
       FOR EACH ROW EXECUTE FUNCTION chain_checks_touch_order()`,
      `CREATE TRIGGER chain_checks_changed AFTER UPDATE ON chain_checks FOR EACH ROW
       WHEN (${changed}) EXECUTE FUNCTION chain_checks_touch_order()`,
    ];
  }
  const next = SQLITE_RANDOM_VERSION;
  return [
    `CREATE TRIGGER chain_checks_added AFTER INSERT ON chain_checks
     BEGIN UPDATE orders SET version = ${next} WHERE id = NEW.order_id; END`,
    `CREATE TRIGGER chain_checks_changed AFTER UPDATE ON chain_checks
     FOR EACH ROW WHEN ${changed}
     BEGIN UPDATE orders SET version = ${next} WHERE id = NEW.order_id; END`,
  ];
}

export const createChainChecks: DialectMigration = {
  async up(db, dialect) {
    await createChainChecksTable(db, dialect);
    await runInTurn(db, versionTriggers(dialect));
  },
  async down(db, dialect) {
    await runInTurn(
      db,
      dialect === 'postgres'
        ? [
            'DROP TRIGGER chain_checks_changed ON chain_checks',
            'DROP TRIGGER chain_checks_added ON chain_checks',
            'DROP FUNCTION chain_checks_touch_order()',
          ]
        : ['DROP TRIGGER chain_checks_changed', 'DROP TRIGGER chain_checks_added'],
    );
    await dropTables(db, ['chain_checks']);
  },
};
