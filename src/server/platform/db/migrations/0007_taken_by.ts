/** The operator who took an order. */
import { addColumns, bigInteger, dropColumns, type DialectMigration } from './schema-steps';

export const addTakenBy: DialectMigration = {
  async up(db, dialect) {
    // The operator who opened the order in the console first: the demo's autopilot leaves
    // such an order to them.
    await addColumns(db, [['orders', 'taken_by', bigInteger(dialect)]]);
  },
  async down(db) {
    await dropColumns(db, [['orders', 'taken_by']]);
  },
};
