/** The transactional outbox of the bot's messages, and what a customer's messages need. */
import {
  addColumns,
  bigInteger,
  createIndex,
  dropColumns,
  dropTables,
  required,
  serialId,
  zero,
  type DialectMigration,
} from './schema-steps';

export const createNotifications: DialectMigration = {
  async up(db, dialect) {
    const big = bigInteger(dialect);
    await addColumns(db, [
      // The language the customer chose in the app (sent with every call), and when the bot
      // found it blocked: notifications to such a customer are not retried.
      ['users', 'language', 'text'],
      ['users', 'bot_blocked_at', big],
      // When the customer was reminded of the payment deadline of the order's current wait.
      ['orders', 'reminded_at', big],
    ]);
    // The transactional outbox (docs/architecture.md).
    await db.schema
      .createTable('notifications')
      .$call(serialId(dialect))
      .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
      .addColumn('recipient', 'text', required)
      .addColumn('order_id', 'text')
      .addColumn('kind', 'text', required)
      .addColumn('language', 'text')
      .addColumn('payload', 'text', required)
      .addColumn('status', 'text', required)
      .addColumn('attempts', 'integer', zero)
      .addColumn('next_attempt_at', big, required)
      .addColumn('claimed_until', big)
      .addColumn('last_error', 'text')
      .addColumn('message_id', big)
      .addColumn('created_at', big, required)
      .addColumn('sent_at', big)
      .execute();
    await createIndex(db, 'notifications_due', 'notifications', ['status', 'next_attempt_at']);
    await createIndex(db, 'notifications_recipient', 'notifications', [
      'recipient',
      'status',
      'id',
    ]);
    await createIndex(db, 'notifications_order', 'notifications', ['order_id', 'id']);
    await db.schema
      .createTable('notification_failures')
      .$call(serialId(dialect))
      .addColumn('notification_id', big, (c) => c.notNull().references('notifications.id'))
      .addColumn('attempt', 'integer', required)
      .addColumn('error', 'text', required)
      .addColumn('created_at', big, required)
      .execute();
    await createIndex(db, 'notification_failures_notification', 'notification_failures', [
      'notification_id',
      'id',
    ]);
  },
  async down(db) {
    await dropTables(db, ['notification_failures', 'notifications']);
    await dropColumns(db, [
      ['orders', 'reminded_at'],
      ['users', 'bot_blocked_at'],
      ['users', 'language'],
    ]);
  },
};
