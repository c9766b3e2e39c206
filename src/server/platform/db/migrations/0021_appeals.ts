/** Appeals: a customer's request that a senior operator decide their order (appeals/). */
import * as step from './schema-steps';

export const createAppeals: step.DialectMigration = {
  // An order has at most one appeal (unique by order): opened by its customer, decided once by a
  // senior operator, kept for good with the order as its audit trail is. Its evidence is a JSON
  // list of the order's chat messages it points to (the files are the chat's). A refund's details
  // are the requisites or reference of a buy's refund, or the hash of a sell's outgoing transfer.
  async up(db, dialect) {
    const big = step.bigInteger(dialect);
    await step
      .orderRecordsTable(db, dialect, 'appeals', (c) => c.unique())
      .addColumn('user_id', big, step.required)
      .addColumn('reason', 'text', step.required)
      .addColumn('text', 'text', step.required)
      .addColumn('evidence', 'text', step.required)
      .addColumn('opened_at', big, step.required)
      .addColumn('decided_at', big)
      .addColumn('decided_by', big)
      .addColumn('decision', 'text')
      .addColumn('outcome', 'text')
      .addColumn('refund_details', 'text')
      .addColumn('refund_tx_hash', 'text')
      .execute();
    // The console's queue lists the open ones, oldest first.
    await step.createIndex(db, 'appeals_open', 'appeals', ['decided_at', 'opened_at']);
  },
  async down(db) {
    await step.dropTables(db, ['appeals']);
  },
};
