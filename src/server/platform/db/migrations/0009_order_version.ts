/** A version on every order, moved on by the database at every change of the order. */
import { addColumns, dropColumns, runInTurn, zero, type DialectMigration } from './schema-steps';

/**
 * SQLite's triggers setting an order's version to `orderNext` when the order changes, and to
 * `receiptNext` when a receipt is added to it or removed. SQLite's triggers cannot assign NEW:
 * the version is moved on by a second update, which does not fire this trigger again (its
 * version differs).
 */
export function sqliteVersionTriggers(orderNext: string, receiptNext: string): string[] {
  return [
    `CREATE TRIGGER orders_version AFTER UPDATE ON orders
     FOR EACH ROW WHEN NEW.version = OLD.version
     BEGIN UPDATE orders SET version = ${orderNext} WHERE id = NEW.id; END`,
    `CREATE TRIGGER receipts_added AFTER INSERT ON receipts
     BEGIN UPDATE orders SET version = ${receiptNext} WHERE id = NEW.order_id; END`,
    `CREATE TRIGGER receipts_removed AFTER DELETE ON receipts
     BEGIN UPDATE orders SET version = ${receiptNext} WHERE id = OLD.order_id; END`,
  ];
}

/** The versions as counts, on SQLite: what this migration made and 0011's `down` puts back. */
export const SQLITE_COUNTED_VERSIONS = sqliteVersionTriggers('OLD.version + 1', 'version + 1');

/** PostgreSQL's function of the versions as counts, after `CREATE [OR REPLACE] FUNCTION`. */
export const POSTGRES_COUNTED_VERSION = `orders_next_version() RETURNS trigger
  LANGUAGE plpgsql AS $$
  BEGIN NEW.version := OLD.version + 1; RETURN NEW; END $$`;

export const versionOrders: DialectMigration = {
  async up(db, dialect) {
    // Every change to an order, however it is made (a service, an operator's script, a test
    // writing straight to the table), and every receipt added to or removed from it, moves
    // its version on: the status poll compares this one number instead of reading the whole
    // order, and no change can hide behind an unchanged version.
    await addColumns(db, [['orders', 'version', 'integer', zero]]);
    if (dialect === 'sqlite') {
      await runInTurn(db, SQLITE_COUNTED_VERSIONS);
      return;
    }
    await runInTurn(db, [
      `CREATE FUNCTION ${POSTGRES_COUNTED_VERSION}`,
      `CREATE TRIGGER orders_version BEFORE UPDATE ON orders
       FOR EACH ROW EXECUTE FUNCTION orders_next_version()`,
      // Touching the order is enough: its own trigger above moves the version on.
      `CREATE FUNCTION receipts_touch_order() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         UPDATE orders SET version = version
           WHERE id = CASE TG_OP WHEN 'DELETE' THEN OLD.order_id ELSE NEW.order_id END;
         RETURN NULL;
       END $$`,
      `CREATE TRIGGER receipts_order_version AFTER INSERT OR DELETE ON receipts
       FOR EACH ROW EXECUTE FUNCTION receipts_touch_order()`,
    ]);
  },
  async down(db, dialect) {
    await runInTurn(
      db,
      dialect === 'postgres'
        ? [
            'DROP TRIGGER receipts_order_version ON receipts',
            'DROP FUNCTION receipts_touch_order()',
            'DROP TRIGGER orders_version ON orders',
            'DROP FUNCTION orders_next_version()',
          ]
        : [
            'DROP TRIGGER receipts_removed',
            'DROP TRIGGER receipts_added',
            'DROP TRIGGER orders_version',
          ],
    );
    await dropColumns(db, [['orders', 'version']]);
  },
};
