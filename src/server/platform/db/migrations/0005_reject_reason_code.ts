/** Why an operator rejected an order, as a code of the catalogue beside the free text. */
import { sql } from 'kysely';
import { addColumns, dropColumns, type DialectMigration } from './schema-steps';

export const addRejectReasonCode: DialectMigration = {
  async up(db) {
    await addColumns(db, [['orders', 'reject_reason_code', 'text']]);
    // Orders rejected before the catalogue carry free text only.
    await sql`update orders set reject_reason_code = 'other' where status = 'REJECTED'`.execute(db);
  },
  async down(db) {
    await dropColumns(db, [['orders', 'reject_reason_code']]);
  },
};
