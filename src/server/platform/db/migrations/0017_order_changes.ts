/** On SQLite, the orders whose version moved, in the order they moved. */
import { dropTables, runInTurn, type DialectMigration } from './schema-steps';

/** The rows of order_changes kept at least, and how often older ones go. */
export const ORDER_CHANGES_KEPT = 10_000;
const ORDER_CHANGES_TRIMMED_EVERY = 1_000;

export const listOrderChanges: DialectMigration = {
  // SQLite only: the orders whose version moved, in the order they moved, so that the status
  // poll answers from the versions it read while no order has changed since
  // (orders/status/status-answers.ts) rather than reading them at every poll. A change of an
  // order's version (migration 0011's triggers: every change of the order, its receipts, its
  // office) or its removal adds a row; every 1 000th row drops those 10 000 rows older. On
  // PostgreSQL, where several instances share the database, every poll reads its version.
  async up(db, dialect) {
    if (dialect === 'postgres') return;
    await runInTurn(db, [
      `CREATE TABLE order_changes (
         seq INTEGER PRIMARY KEY AUTOINCREMENT,
         order_id TEXT NOT NULL)`,
      `CREATE TRIGGER order_changes_version AFTER UPDATE OF version ON orders
         FOR EACH ROW WHEN NEW.version IS NOT OLD.version
         BEGIN INSERT INTO order_changes (order_id) VALUES (NEW.id); END`,
      `CREATE TRIGGER order_changes_removed AFTER DELETE ON orders
         BEGIN INSERT INTO order_changes (order_id) VALUES (OLD.id); END`,
      `CREATE TRIGGER order_changes_kept AFTER INSERT ON order_changes
         WHEN NEW.seq % ${ORDER_CHANGES_TRIMMED_EVERY} = 0
         BEGIN DELETE FROM order_changes WHERE seq <= NEW.seq - ${ORDER_CHANGES_KEPT}; END`,
    ]);
  },
  async down(db, dialect) {
    if (dialect === 'postgres') return;
    await runInTurn(db, [
      'DROP TRIGGER order_changes_kept',
      'DROP TRIGGER order_changes_removed',
      'DROP TRIGGER order_changes_version',
    ]);
    await dropTables(db, ['order_changes']);
  },
};
