/**
 * The schema, as migrations run at start-up on SQLite and PostgreSQL alike. Append new
 * migrations; never edit one that has shipped.
 */
import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** The rows of order_changes (migration 0017) kept at least, and how often older ones go. */
export const ORDER_CHANGES_KEPT = 10_000;
const ORDER_CHANGES_TRIMMED_EVERY = 1_000;

/** What a customer reads of an office and of its city (orders/order-view.ts: `officeWithCity`). */
const OFFICE_VISIBLE_COLUMNS = [
  'city_id',
  'address_ru',
  'address_en',
  'working_hours_ru',
  'working_hours_en',
  'phone',
  'map_link',
];
const CITY_VISIBLE_COLUMNS = ['name_ru', 'name_en'];

function migrations(dialect: Dialect): Record<string, Migration> {
  // Telegram ids exceed 2^31; SQLite's INTEGER is 64-bit already.
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    '0001_users_orders_events': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('users')
          .addColumn('telegram_id', big, (c) => c.primaryKey())
          .addColumn('first_name', 'text', (c) => c.notNull())
          .addColumn('last_name', 'text')
          .addColumn('username', 'text')
          .addColumn('language_code', 'text')
          .addColumn('first_seen_at', big, (c) => c.notNull())
          .addColumn('last_seen_at', big, (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('orders')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('user_id', big, (c) => c.notNull().references('users.telegram_id'))
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('payment_method', 'text', (c) => c.notNull())
          .addColumn('crypto_currency', 'text', (c) => c.notNull())
          .addColumn('network', 'text', (c) => c.notNull())
          .addColumn('currency', 'text', (c) => c.notNull())
          .addColumn('amount_units', big, (c) => c.notNull())
          .addColumn('total_minor', big, (c) => c.notNull())
          .addColumn('rate_units', big, (c) => c.notNull())
          .addColumn('wallet_address', 'text')
          .addColumn('requisites', 'text')
          .addColumn('payout_card', 'text')
          .addColumn('city_id', 'text')
          .addColumn('office_instructions', 'text')
          .addColumn('reservation', 'text')
          .addColumn('reject_reason', 'text')
          .addColumn('tx_hash', 'text')
          .addColumn('outgoing_tx_hash', 'text')
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .addColumn('requisites_ready_at', big)
          .addColumn('expires_at', big)
          .addColumn('reserved_until', big)
          .addColumn('needs_attention', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .createIndex('orders_user_created')
          .on('orders')
          .columns(['user_id', 'created_at'])
          .execute();
        await db.schema
          .createIndex('orders_status_deadline')
          .on('orders')
          .columns(['status', 'expires_at'])
          .execute();

        await db.schema
          .createTable('order_events')
          .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
            dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
          .addColumn('from_status', 'text')
          .addColumn('to_status', 'text', (c) => c.notNull())
          .addColumn('actor', 'text', (c) => c.notNull())
          .addColumn('actor_id', big)
          .addColumn('reason', 'text')
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('order_events_order')
          .on('order_events')
          .columns(['order_id', 'id'])
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('order_events').execute();
        await db.schema.dropTable('orders').execute();
        await db.schema.dropTable('users').execute();
      },
    },
    '0002_rates_receipts_offices': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('rates')
          .addColumn('fiat', 'text', (c) => c.notNull())
          .addColumn('crypto', 'text', (c) => c.notNull())
          .addColumn('base_rate_units', big, (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .addColumn('updated_by', big)
          .addPrimaryKeyConstraint('rates_pk', ['fiat', 'crypto'])
          .execute();
        await db.schema
          .createTable('rate_spreads')
          .addColumn('payment_method', 'text', (c) => c.notNull())
          .addColumn('operation', 'text', (c) => c.notNull())
          .addColumn('spread_bp', 'integer', (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .addColumn('updated_by', big)
          .addPrimaryKeyConstraint('rate_spreads_pk', ['payment_method', 'operation'])
          .execute();

        await db.schema
          .createTable('receipts')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
          .addColumn('file_name', 'text', (c) => c.notNull())
          .addColumn('mime_type', 'text', (c) => c.notNull())
          .addColumn('size_bytes', 'integer', (c) => c.notNull())
          .addColumn('sha256', 'text', (c) => c.notNull())
          .addColumn('storage_key', 'text', (c) => c.notNull())
          .addColumn('uploaded_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('receipts_order').on('receipts').column('order_id').execute();
        await db.schema.createIndex('receipts_sha256').on('receipts').column('sha256').execute();

        await db.schema
          .createTable('cities')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name_ru', 'text', (c) => c.notNull())
          .addColumn('name_en', 'text', (c) => c.notNull())
          .addColumn('country_code', 'text', (c) => c.notNull())
          .addColumn('currencies', 'text', (c) => c.notNull())
          .addColumn('position', 'integer', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('offices')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('city_id', 'text', (c) => c.notNull().references('cities.id'))
          .addColumn('address_ru', 'text', (c) => c.notNull())
          .addColumn('address_en', 'text', (c) => c.notNull())
          .addColumn('working_hours_ru', 'text', (c) => c.notNull())
          .addColumn('working_hours_en', 'text', (c) => c.notNull())
          .addColumn('phone', 'text', (c) => c.notNull())
          .addColumn('map_link', 'text', (c) => c.notNull())
          .addColumn('position', 'integer', (c) => c.notNull())
          .execute();

        await db.schema.alterTable('orders').addColumn('office_id', 'text').execute();
        await db.schema.alterTable('orders').addColumn('deadline_alerted_at', big).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('orders').dropColumn('deadline_alerted_at').execute();
        await db.schema.alterTable('orders').dropColumn('office_id').execute();
        for (const table of ['offices', 'cities', 'receipts', 'rate_spreads', 'rates']) {
          await db.schema.dropTable(table).execute();
        }
      },
    },
    '0003_unique_tx_hash_call_counts': {
      async up(db: Kysely<unknown>) {
        // One transfer pays for one sell: two orders can never hold the same hash, in any case
        // (hex carries none), whichever server instance writes it.
        await sql`create unique index orders_tx_hash_unique on orders (lower(tx_hash))`.execute(db);
        // The per-customer call limits, shared by every server instance (src/server/platform/limits/rate-limit.ts).
        await db.schema
          .createTable('call_counts')
          .addColumn('customer_id', big, (c) => c.notNull())
          .addColumn('call', 'text', (c) => c.notNull())
          .addColumn('window_start', big, (c) => c.notNull())
          .addColumn('count', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('call_counts_pk', ['customer_id', 'call'])
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('call_counts').execute();
        await db.schema.dropIndex('orders_tx_hash_unique').execute();
      },
    },
    '0004_cancel_reason': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('orders').addColumn('cancel_reason', 'text').execute();
        // Orders cancelled before: by the sweeper (an expired deadline) or by their customer.
        await sql`
          update orders set cancel_reason = case
            when exists (
              select 1 from order_events e
              where e.order_id = orders.id and e.to_status = 'CANCELLED' and e.actor = 'system'
            ) then 'expired' else 'customer' end
          where status = 'CANCELLED'`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('orders').dropColumn('cancel_reason').execute();
      },
    },
    '0005_reject_reason_code': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('orders').addColumn('reject_reason_code', 'text').execute();
        // Orders rejected before the catalogue carry free text only.
        await sql`update orders set reject_reason_code = 'other' where status = 'REJECTED'`.execute(
          db,
        );
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('orders').dropColumn('reject_reason_code').execute();
      },
    },
    '0006_notifications': {
      async up(db: Kysely<unknown>) {
        // The language the customer chose in the app (sent with every call), and when the bot
        // found it blocked: notifications to such a customer are not retried.
        await db.schema.alterTable('users').addColumn('language', 'text').execute();
        await db.schema.alterTable('users').addColumn('bot_blocked_at', big).execute();
        // When the customer was reminded of the payment deadline of the order's current wait.
        await db.schema.alterTable('orders').addColumn('reminded_at', big).execute();
        // The transactional outbox (design.md, "Staff side and notifications").
        await db.schema
          .createTable('notifications')
          .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
            dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
          .addColumn('recipient', 'text', (c) => c.notNull())
          .addColumn('order_id', 'text')
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('language', 'text')
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', big, (c) => c.notNull())
          .addColumn('claimed_until', big)
          .addColumn('last_error', 'text')
          .addColumn('message_id', big)
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('sent_at', big)
          .execute();
        await db.schema
          .createIndex('notifications_due')
          .on('notifications')
          .columns(['status', 'next_attempt_at'])
          .execute();
        await db.schema
          .createIndex('notifications_recipient')
          .on('notifications')
          .columns(['recipient', 'status', 'id'])
          .execute();
        await db.schema
          .createIndex('notifications_order')
          .on('notifications')
          .columns(['order_id', 'id'])
          .execute();
        await db.schema
          .createTable('notification_failures')
          .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
            dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('notification_id', big, (c) => c.notNull().references('notifications.id'))
          .addColumn('attempt', 'integer', (c) => c.notNull())
          .addColumn('error', 'text', (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('notification_failures_notification')
          .on('notification_failures')
          .columns(['notification_id', 'id'])
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('notification_failures').execute();
        await db.schema.dropTable('notifications').execute();
        await db.schema.alterTable('orders').dropColumn('reminded_at').execute();
        await db.schema.alterTable('users').dropColumn('bot_blocked_at').execute();
        await db.schema.alterTable('users').dropColumn('language').execute();
      },
    },
    '0007_taken_by': {
      async up(db: Kysely<unknown>) {
        // The operator who opened the order in the console first: the demo's autopilot leaves
        // such an order to them.
        await db.schema.alterTable('orders').addColumn('taken_by', big).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('orders').dropColumn('taken_by').execute();
      },
    },
    '0008_history_index': {
      async up(db: Kysely<unknown>) {
        // A customer's history is read newest first by (created_at, id): an index in that order
        // serves a deep page without sorting (issue 14), and covers the one it replaces.
        await db.schema
          .createIndex('orders_user_created_id')
          .on('orders')
          .columns(['user_id', 'created_at', 'id'])
          .execute();
        await db.schema.dropIndex('orders_user_created').execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema
          .createIndex('orders_user_created')
          .on('orders')
          .columns(['user_id', 'created_at'])
          .execute();
        await db.schema.dropIndex('orders_user_created_id').execute();
      },
    },
    '0009_order_version': {
      async up(db: Kysely<unknown>) {
        // Every change to an order, however it is made (a service, an operator's script, a test
        // writing straight to the table), and every receipt added to or removed from it, moves
        // its version on: the status poll compares this one number instead of reading the whole
        // order (issue 14), and no change can hide behind an unchanged version.
        await db.schema
          .alterTable('orders')
          .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        if (dialect === 'postgres') {
          await sql`CREATE FUNCTION orders_next_version() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN NEW.version := OLD.version + 1; RETURN NEW; END $$`.execute(db);
          await sql`CREATE TRIGGER orders_version BEFORE UPDATE ON orders
            FOR EACH ROW EXECUTE FUNCTION orders_next_version()`.execute(db);
          // Touching the order is enough: its own trigger above moves the version on.
          await sql`CREATE FUNCTION receipts_touch_order() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              UPDATE orders SET version = version
                WHERE id = CASE TG_OP WHEN 'DELETE' THEN OLD.order_id ELSE NEW.order_id END;
              RETURN NULL;
            END $$`.execute(db);
          await sql`CREATE TRIGGER receipts_order_version AFTER INSERT OR DELETE ON receipts
            FOR EACH ROW EXECUTE FUNCTION receipts_touch_order()`.execute(db);
        } else {
          // SQLite's triggers cannot assign NEW: the version is moved on by a second update,
          // which does not fire this trigger again (its version differs).
          await sql`CREATE TRIGGER orders_version AFTER UPDATE ON orders
            FOR EACH ROW WHEN NEW.version = OLD.version
            BEGIN UPDATE orders SET version = OLD.version + 1 WHERE id = NEW.id; END`.execute(db);
          await sql`CREATE TRIGGER receipts_added AFTER INSERT ON receipts
            BEGIN UPDATE orders SET version = version + 1 WHERE id = NEW.order_id; END`.execute(db);
          await sql`CREATE TRIGGER receipts_removed AFTER DELETE ON receipts
            BEGIN UPDATE orders SET version = version + 1 WHERE id = OLD.order_id; END`.execute(db);
        }
      },
      async down(db: Kysely<unknown>) {
        if (dialect === 'postgres') {
          await sql`DROP TRIGGER receipts_order_version ON receipts`.execute(db);
          await sql`DROP FUNCTION receipts_touch_order()`.execute(db);
          await sql`DROP TRIGGER orders_version ON orders`.execute(db);
          await sql`DROP FUNCTION orders_next_version()`.execute(db);
        } else {
          await sql`DROP TRIGGER receipts_removed`.execute(db);
          await sql`DROP TRIGGER receipts_added`.execute(db);
          await sql`DROP TRIGGER orders_version`.execute(db);
        }
        await db.schema.alterTable('orders').dropColumn('version').execute();
      },
    },
    '0010_unalerted_orders': {
      async up(db: Kysely<unknown>) {
        // The sweeper's flag pass claims, batch after batch, orders not yet flagged (issue 21):
        // an index of only those keeps each claim as cheap as the first, where one on status
        // alone would walk past every order already flagged, again in every batch.
        await db.schema
          .createIndex('orders_unalerted')
          .on('orders')
          .columns(['status', 'created_at'])
          .where(sql.ref('deadline_alerted_at'), 'is', null)
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex('orders_unalerted').execute();
      },
    },
    '0011_versions_never_repeat': {
      async up(db: Kysely<unknown>) {
        // A version is a random number, not a count (issue 21, item 12): a count starts again
        // from an earlier value after a backup is restored or on a replica that lagged, and the
        // next change then repeats a version an app or a server's kept answer already holds for
        // another state. 31 bits fit PostgreSQL's integer column as it is (no rewrite, nothing
        // for a running instance's plans to trip on); the status ETag itself is the answer's
        // digest (orders/status/status-answers.ts), so a repeat could at most cost one rebuilt answer.
        //
        // An office or city whose customer-visible words change (the seed keeps them in step with
        // src/server/platform/db/seed/offices.ts at every start) moves on the orders reserved there, so
        // no instance answers them from before the change.
        const officeChanged = OFFICE_VISIBLE_COLUMNS.map(
          (column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`,
        ).join(' OR ');
        const cityChanged = CITY_VISIBLE_COLUMNS.map(
          (column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`,
        ).join(' OR ');
        if (dialect === 'postgres') {
          await sql`CREATE OR REPLACE FUNCTION orders_next_version() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN NEW.version := floor(random() * 2147483647)::integer; RETURN NEW; END $$`.execute(
            db,
          );
          await sql`CREATE FUNCTION offices_touch_orders() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF TG_TABLE_NAME = 'offices' THEN
                UPDATE orders SET version = version WHERE office_id = NEW.id;
              ELSE
                UPDATE orders SET version = version WHERE office_id IN
                  (SELECT id FROM offices WHERE city_id = NEW.id);
              END IF;
              RETURN NULL;
            END $$`.execute(db);
          await sql
            .raw(
              `CREATE TRIGGER offices_order_version AFTER UPDATE ON offices FOR EACH ROW
               WHEN (${officeChanged}) EXECUTE FUNCTION offices_touch_orders()`,
            )
            .execute(db);
          await sql
            .raw(
              `CREATE TRIGGER cities_order_version AFTER UPDATE ON cities FOR EACH ROW
               WHEN (${cityChanged}) EXECUTE FUNCTION offices_touch_orders()`,
            )
            .execute(db);
        } else {
          // SQLite's `random()` is 64 bits; its low 31 are as random.
          const next = '(random() & 2147483647)';
          await sql`DROP TRIGGER orders_version`.execute(db);
          await sql`DROP TRIGGER receipts_added`.execute(db);
          await sql`DROP TRIGGER receipts_removed`.execute(db);
          const statements = [
            `CREATE TRIGGER orders_version AFTER UPDATE ON orders
             FOR EACH ROW WHEN NEW.version = OLD.version
             BEGIN UPDATE orders SET version = ${next} WHERE id = NEW.id; END`,
            `CREATE TRIGGER receipts_added AFTER INSERT ON receipts
             BEGIN UPDATE orders SET version = ${next} WHERE id = NEW.order_id; END`,
            `CREATE TRIGGER receipts_removed AFTER DELETE ON receipts
             BEGIN UPDATE orders SET version = ${next} WHERE id = OLD.order_id; END`,
            `CREATE TRIGGER offices_order_version AFTER UPDATE ON offices
             FOR EACH ROW WHEN ${officeChanged.replaceAll('IS DISTINCT FROM', 'IS NOT')}
             BEGIN UPDATE orders SET version = ${next} WHERE office_id = NEW.id; END`,
            `CREATE TRIGGER cities_order_version AFTER UPDATE ON cities
             FOR EACH ROW WHEN ${cityChanged.replaceAll('IS DISTINCT FROM', 'IS NOT')}
             BEGIN UPDATE orders SET version = ${next} WHERE office_id IN
               (SELECT id FROM offices WHERE city_id = NEW.id); END`,
          ];
          for (const statement of statements) await sql.raw(statement).execute(db);
        }
        // The versions so far were counts: a count held from before stays apart from any new one.
        await sql`UPDATE orders SET version = version`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        if (dialect === 'postgres') {
          await sql`DROP TRIGGER cities_order_version ON cities`.execute(db);
          await sql`DROP TRIGGER offices_order_version ON offices`.execute(db);
          await sql`DROP FUNCTION offices_touch_orders()`.execute(db);
          await sql`CREATE OR REPLACE FUNCTION orders_next_version() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN NEW.version := OLD.version + 1; RETURN NEW; END $$`.execute(db);
        } else {
          for (const trigger of [
            'cities_order_version',
            'offices_order_version',
            'receipts_removed',
            'receipts_added',
            'orders_version',
          ]) {
            await sql.raw(`DROP TRIGGER ${trigger}`).execute(db);
          }
          await sql`CREATE TRIGGER orders_version AFTER UPDATE ON orders
            FOR EACH ROW WHEN NEW.version = OLD.version
            BEGIN UPDATE orders SET version = OLD.version + 1 WHERE id = NEW.id; END`.execute(db);
          await sql`CREATE TRIGGER receipts_added AFTER INSERT ON receipts
            BEGIN UPDATE orders SET version = version + 1 WHERE id = NEW.order_id; END`.execute(db);
          await sql`CREATE TRIGGER receipts_removed AFTER DELETE ON receipts
            BEGIN UPDATE orders SET version = version + 1 WHERE id = OLD.order_id; END`.execute(db);
        }
      },
    },
    '0012_notification_kinds': {
      async up(db: Kysely<unknown>) {
        // The operators' chat is a queue per kind of alert, and a flood of one kind is summed up
        // by what of that kind was sent in the last minute and what waits (notifications/
        // summaries.ts): both read by (recipient, kind, status), the sent ones by when.
        await db.schema
          .createIndex('notifications_recipient_kind')
          .on('notifications')
          .columns(['recipient', 'kind', 'status', 'sent_at'])
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex('notifications_recipient_kind').execute();
      },
    },
    '0013_notification_queues': {
      async up(db: Kysely<unknown>) {
        // The outbox's claim (notifications/worker.ts) reads the waiting rows alone, by indexes
        // of those rows: which are due, a customer's chat in order, the operators' chat per kind
        // (its head). The conditions are literals, as the claim writes them, so that both
        // databases use them; sent rows, the many, are in none of them.
        await db.schema.dropIndex('notifications_due').execute();
        await sql`CREATE INDEX notifications_due ON notifications (next_attempt_at)
          WHERE status IN ('pending', 'sending')`.execute(db);
        await sql`CREATE INDEX notifications_customer_queue ON notifications (id)
          WHERE status IN ('pending', 'sending') AND recipient <> 'operators'`.execute(db);
        await sql`CREATE INDEX notifications_operator_queue ON notifications (kind, id)
          WHERE status IN ('pending', 'sending') AND recipient = 'operators'`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex('notifications_operator_queue').execute();
        await db.schema.dropIndex('notifications_customer_queue').execute();
        await db.schema.dropIndex('notifications_due').execute();
        await db.schema
          .createIndex('notifications_due')
          .on('notifications')
          .columns(['status', 'next_attempt_at'])
          .execute();
      },
    },
    '0014_address_call_counts': {
      async up(db: Kysely<unknown>) {
        // The per-address call limits (rate-limit.ts), beside the per-customer ones: a table of
        // its own rather than a wider key for call_counts, which an instance of the version
        // before keeps writing while a rolling deploy runs.
        await db.schema
          .createTable('address_call_counts')
          .addColumn('address', 'text', (c) => c.notNull())
          .addColumn('call', 'text', (c) => c.notNull())
          .addColumn('window_start', big, (c) => c.notNull())
          .addColumn('count', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('address_call_counts_pk', ['address', 'call'])
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('address_call_counts').execute();
      },
    },
    '0015_chain_checks': {
      async up(db: Kysely<unknown>) {
        // What the chain said about an order's transaction (issue 23): one row per order and
        // kind ('deposit' now, 'payout' later), written with the hash and moved on by the chain
        // checker (chain/chain-checker.ts), which claims due rows through `claimed_until`.
        await db.schema
          .createTable('chain_checks')
          .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('network', 'text', (c) => c.notNull())
          .addColumn('tx_hash', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('log_index', 'integer')
          .addColumn('block_number', big)
          .addColumn('block_time', big)
          .addColumn('confirmations', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('required_confirmations', 'integer', (c) => c.notNull())
          .addColumn('amount', 'text')
          .addColumn('decimals', 'integer')
          .addColumn('sender', 'text')
          .addColumn('contract', 'text')
          .addColumn('reorged', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_check_at', big, (c) => c.notNull())
          .addColumn('look_until', big, (c) => c.notNull())
          .addColumn('claimed_until', big)
          .addColumn('last_fault', 'text')
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
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
        // A change the customer sees (chain_checks_visible) moves the order's version on, as a
        // receipt does (0009, 0011), so its status answer is built again; the checker's lease
        // and backoff columns, written every round, do not.
        const visible = ['state', 'confirmations', 'required_confirmations', 'reorged'];
        const changed = visible
          .map((column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`)
          .join(' OR ');
        if (dialect === 'postgres') {
          await sql`CREATE FUNCTION chain_checks_touch_order() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              UPDATE orders SET version = version WHERE id = NEW.order_id;
              RETURN NULL;
            END $$`.execute(db);
          await sql`CREATE TRIGGER chain_checks_added AFTER INSERT ON chain_checks
            FOR EACH ROW EXECUTE FUNCTION chain_checks_touch_order()`.execute(db);
          await sql
            .raw(
              `CREATE TRIGGER chain_checks_changed AFTER UPDATE ON chain_checks FOR EACH ROW
               WHEN (${changed}) EXECUTE FUNCTION chain_checks_touch_order()`,
            )
            .execute(db);
        } else {
          const next = '(random() & 2147483647)';
          await sql
            .raw(
              `CREATE TRIGGER chain_checks_added AFTER INSERT ON chain_checks
               BEGIN UPDATE orders SET version = ${next} WHERE id = NEW.order_id; END`,
            )
            .execute(db);
          await sql
            .raw(
              `CREATE TRIGGER chain_checks_changed AFTER UPDATE ON chain_checks
               FOR EACH ROW WHEN ${changed.replaceAll('IS DISTINCT FROM', 'IS NOT')}
               BEGIN UPDATE orders SET version = ${next} WHERE id = NEW.order_id; END`,
            )
            .execute(db);
        }
      },
      async down(db: Kysely<unknown>) {
        if (dialect === 'postgres') {
          await sql`DROP TRIGGER chain_checks_changed ON chain_checks`.execute(db);
          await sql`DROP TRIGGER chain_checks_added ON chain_checks`.execute(db);
          await sql`DROP FUNCTION chain_checks_touch_order()`.execute(db);
        } else {
          await sql`DROP TRIGGER chain_checks_changed`.execute(db);
          await sql`DROP TRIGGER chain_checks_added`.execute(db);
        }
        await db.schema.dropTable('chain_checks').execute();
      },
    },
    '0016_chain_scans': {
      async up(db: Kysely<unknown>) {
        // Where the scan of a deposit address for a token's transfers stands (issue 23: calls
        // bounded whatever the number of waiting orders; deposits without a hash). One row per
        // network, address and contract; an instance claims it for a round through
        // `claimed_until`, as the checker claims its rows.
        await db.schema
          .createTable('chain_scans')
          .addColumn('network', 'text', (c) => c.notNull())
          .addColumn('address', 'text', (c) => c.notNull())
          .addColumn('contract', 'text', (c) => c.notNull())
          .addColumn('next_block', big)
          .addColumn('next_time', big)
          .addColumn('claimed_until', big)
          .addColumn('updated_at', big, (c) => c.notNull())
          .addPrimaryKeyConstraint('chain_scans_pk', ['network', 'address', 'contract'])
          .execute();
        // A transfer to a deposit address that no order's hash names and that matched no single
        // waiting order: listed for operators, who attach it to an order.
        await db.schema
          .createTable('chain_incoming')
          .addColumn('network', 'text', (c) => c.notNull())
          .addColumn('tx_hash', 'text', (c) => c.notNull())
          .addColumn('contract', 'text', (c) => c.notNull())
          .addColumn('coin', 'text', (c) => c.notNull())
          .addColumn('sender', 'text', (c) => c.notNull())
          .addColumn('recipient', 'text', (c) => c.notNull())
          .addColumn('amount', 'text', (c) => c.notNull())
          .addColumn('decimals', 'integer', (c) => c.notNull())
          .addColumn('log_index', 'integer')
          .addColumn('block_number', big)
          .addColumn('block_time', big)
          .addColumn('candidates', 'integer', (c) => c.notNull())
          .addColumn('order_id', 'text', (c) => c.references('orders.id'))
          .addColumn('seen_at', big, (c) => c.notNull())
          .addPrimaryKeyConstraint('chain_incoming_pk', [
            'network',
            'tx_hash',
            'contract',
            'amount',
          ])
          .execute();
        await sql`CREATE INDEX chain_incoming_open ON chain_incoming (seen_at)
          WHERE order_id IS NULL`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('chain_incoming').execute();
        await db.schema.dropTable('chain_scans').execute();
      },
    },
    '0017_order_changes': {
      // SQLite only (issue 22, item 5): the orders whose version moved, in the order they moved,
      // so that the status poll answers from the versions it read while no order has changed
      // since (orders/status/status-answers.ts) rather than reading them at every poll. A change of an
      // order's version (migration 0011's triggers: every change of the order, its receipts, its
      // office) or its removal adds a row; every 1 000th row drops those 10 000 rows older. On
      // PostgreSQL, where several instances share the database, every poll reads its version.
      async up(db: Kysely<unknown>) {
        if (dialect === 'postgres') return;
        const statements = [
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
        ];
        for (const statement of statements) await sql.raw(statement).execute(db);
      },
      async down(db: Kysely<unknown>) {
        if (dialect === 'postgres') return;
        for (const trigger of [
          'order_changes_kept',
          'order_changes_removed',
          'order_changes_version',
        ]) {
          await sql.raw(`DROP TRIGGER ${trigger}`).execute(db);
        }
        await db.schema.dropTable('order_changes').execute();
      },
    },
    '0018_deposit_amounts': {
      // Every seller sends to the same public deposit address, so what ties a transfer to one
      // sell is its exact amount (orders/deposit-amounts.ts). A held amount is unique per network
      // and coin by this table's key, whichever instance hands it out; a sell's hold is deleted
      // once it ended DEPOSIT_AMOUNT_HOLD_HOURS ago. A transaction hash no longer reserves
      // anything from the paste on: only a transfer found right is unique (chain_checks_transfer).
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('deposit_amounts')
          .addColumn('network', 'text', (c) => c.notNull())
          .addColumn('crypto_currency', 'text', (c) => c.notNull())
          .addColumn('amount_units', big, (c) => c.notNull())
          .addColumn('order_id', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', big, (c) => c.notNull())
          .addPrimaryKeyConstraint('deposit_amounts_pk', [
            'network',
            'crypto_currency',
            'amount_units',
          ])
          .execute();
        // The sells still open hold their amounts (earlier ones have no tag; of two open sells of
        // one amount the first holds it, the other is left to the operators, as before).
        await sql`INSERT INTO deposit_amounts (network, crypto_currency, amount_units, order_id, created_at)
          SELECT network, crypto_currency, amount_units, id, created_at FROM orders
          WHERE type = 'SELL' AND status NOT IN ('COMPLETED', 'CANCELLED', 'REJECTED')
          ORDER BY created_at
          ON CONFLICT DO NOTHING`.execute(db);
        await db.schema.dropIndex('orders_tx_hash_unique').execute();
        // Still looked up (a manual network's hash given twice), no longer unique.
        await sql`create index orders_tx_hash on orders (lower(tx_hash))`.execute(db);
        // What an operator accepted as a sell's deposit instead of its exact amount: the checker
        // judges the transfer against it at every read (null: the order's own amount).
        await db.schema.alterTable('chain_checks').addColumn('accepted_amount', 'text').execute();
        // How many final blocks an EVM scan has still to read, written with its cursor: the
        // metrics export it, so a scan that falls behind is seen.
        await db.schema.alterTable('chain_scans').addColumn('lag_blocks', big).execute();
        // The block a transfer was seen in, compared at its final read (a transaction re-mined
        // at the same height is in another block), and when a final read first found nothing
        // (read once more before anyone is told of a reorganisation).
        await db.schema.alterTable('chain_checks').addColumn('block_hash', 'text').execute();
        await db.schema.alterTable('chain_checks').addColumn('vanished_at', big).execute();
        // The claim a checker holds a row by: every write of a check names it, so an instance
        // whose lease ran out never overwrites the verdict of the instance that took the row.
        await db.schema.alterTable('chain_checks').addColumn('lease', 'text').execute();
        // 1 for a transfer under CHAIN_DUST_BELOW that is no sell's exact amount (an address
        // poisoner's, say): kept and counted, never listed for operators.
        await db.schema
          .alterTable('chain_incoming')
          .addColumn('dust', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('chain_incoming').dropColumn('dust').execute();
        await db.schema.alterTable('chain_checks').dropColumn('lease').execute();
        await db.schema.alterTable('chain_checks').dropColumn('vanished_at').execute();
        await db.schema.alterTable('chain_checks').dropColumn('block_hash').execute();
        await db.schema.alterTable('chain_scans').dropColumn('lag_blocks').execute();
        await db.schema.alterTable('chain_checks').dropColumn('accepted_amount').execute();
        await db.schema.dropIndex('orders_tx_hash').execute();
        await sql`create unique index orders_tx_hash_unique on orders (lower(tx_hash))`.execute(db);
        await db.schema.dropTable('deposit_amounts').execute();
      },
    },
  };
}

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return { getMigrations: () => Promise.resolve(migrations(dialect)) };
}
