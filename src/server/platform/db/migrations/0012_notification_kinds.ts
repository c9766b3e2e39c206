/** The operators' chat read per kind of alert. */
import { createIndex, type DialectMigration } from './schema-steps';

export const indexNotificationKinds: DialectMigration = {
  async up(db) {
    // The operators' chat is a queue per kind of alert, and a flood of one kind is summed up
    // by what of that kind was sent in the last minute and what waits (notifications/
    // summaries.ts): both read by (recipient, kind, status), the sent ones by when.
    await createIndex(db, 'notifications_recipient_kind', 'notifications', [
      'recipient',
      'kind',
      'status',
      'sent_at',
    ]);
  },
  async down(db) {
    await db.schema.dropIndex('notifications_recipient_kind').execute();
  },
};
