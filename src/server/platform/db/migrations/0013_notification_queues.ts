/** The outbox's waiting rows indexed apart from the sent ones. */
import { createIndex, runInTurn, type DialectMigration } from './schema-steps';

export const indexNotificationQueues: DialectMigration = {
  async up(db) {
    // The outbox's claim (notifications/worker.ts) reads the waiting rows alone, by indexes
    // of those rows: which are due, a customer's chat in order, the operators' chat per kind
    // (its head). The conditions are literals, as the claim writes them, so that both
    // databases use them; sent rows, the many, are in none of them.
    await db.schema.dropIndex('notifications_due').execute();
    await runInTurn(db, [
      `CREATE INDEX notifications_due ON notifications (next_attempt_at)
       WHERE status IN ('pending', 'sending')`,
      `CREATE INDEX notifications_customer_queue ON notifications (id)
       WHERE status IN ('pending', 'sending') AND recipient <> 'operators'`,
      `CREATE INDEX notifications_operator_queue ON notifications (kind, id)
       WHERE status IN ('pending', 'sending') AND recipient = 'operators'`,
    ]);
  },
  async down(db) {
    for (const index of [
      'notifications_operator_queue',
      'notifications_customer_queue',
      'notifications_due',
    ]) {
      await db.schema.dropIndex(index).execute();
    }
    await createIndex(db, 'notifications_due', 'notifications', ['status', 'next_attempt_at']);
  },
};
