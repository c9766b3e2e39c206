/** The first schema: customers, their orders, and each order's changes of status. */
import {
  bigInteger,
  createIndex,
  dropTables,
  required,
  serialId,
  zero,
  type DialectMigration,
} from './schema-steps';

export const createUsersOrdersEvents: DialectMigration = {
  async up(db, dialect) {
    const big = bigInteger(dialect);
    await db.schema
      .createTable('users')
      .addColumn('telegram_id', big, (c) => c.primaryKey())
      .addColumn('first_name', 'text', required)
      .addColumn('last_name', 'text')
      .addColumn('username', 'text')
      .addColumn('language_code', 'text')
      .addColumn('first_seen_at', big, required)
      .addColumn('last_seen_at', big, required)
      .execute();

    await db.schema
      .createTable('orders')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', big, (c) => c.notNull().references('users.telegram_id'))
      .addColumn('type', 'text', required)
      .addColumn('status', 'text', required)
      .addColumn('payment_method', 'text', required)
      .addColumn('crypto_currency', 'text', required)
      .addColumn('network', 'text', required)
      .addColumn('currency', 'text', required)
      .addColumn('amount_units', big, required)
      .addColumn('total_minor', big, required)
      .addColumn('rate_units', big, required)
      .addColumn('wallet_address', 'text')
      .addColumn('requisites', 'text')
      .addColumn('payout_card', 'text')
      .addColumn('city_id', 'text')
      .addColumn('office_instructions', 'text')
      .addColumn('reservation', 'text')
      .addColumn('reject_reason', 'text')
      .addColumn('tx_hash', 'text')
      .addColumn('outgoing_tx_hash', 'text')
      .addColumn('created_at', big, required)
      .addColumn('updated_at', big, required)
      .addColumn('requisites_ready_at', big)
      .addColumn('expires_at', big)
      .addColumn('reserved_until', big)
      .addColumn('needs_attention', 'integer', zero)
      .execute();
    await createIndex(db, 'orders_user_created', 'orders', ['user_id', 'created_at']);
    await createIndex(db, 'orders_status_deadline', 'orders', ['status', 'expires_at']);

    await db.schema
      .createTable('order_events')
      .$call(serialId(dialect))
      .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
      .addColumn('from_status', 'text')
      .addColumn('to_status', 'text', required)
      .addColumn('actor', 'text', required)
      .addColumn('actor_id', big)
      .addColumn('reason', 'text')
      .addColumn('created_at', big, required)
      .execute();
    await createIndex(db, 'order_events_order', 'order_events', ['order_id', 'id']);
  },
  async down(db) {
    await dropTables(db, ['order_events', 'orders', 'users']);
  },
};
