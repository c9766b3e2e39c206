/**
 * The schema, as migrations run at start-up on SQLite and PostgreSQL alike: one file each, named
 * as Kysely records it in every database it ran on. Append new migrations; never edit, rename
 * or reorder one that has shipped (tests/server/platform/migrations.test.ts holds the names and the
 * schema they build).
 */
import type { Migration, MigrationProvider } from 'kysely';
import { createUsersOrdersEvents } from './0001_users_orders_events';
import { createRatesReceiptsOffices } from './0002_rates_receipts_offices';
import { uniqueTxHashAndCallCounts } from './0003_unique_tx_hash_call_counts';
import { addCancelReason } from './0004_cancel_reason';
import { addRejectReasonCode } from './0005_reject_reason_code';
import { createNotifications } from './0006_notifications';
import { addTakenBy } from './0007_taken_by';
import { indexHistory } from './0008_history_index';
import { versionOrders } from './0009_order_version';
import { indexUnalertedOrders } from './0010_unalerted_orders';
import { versionsNeverRepeat } from './0011_versions_never_repeat';
import { indexNotificationKinds } from './0012_notification_kinds';
import { indexNotificationQueues } from './0013_notification_queues';
import { createAddressCallCounts } from './0014_address_call_counts';
import { createChainChecks } from './0015_chain_checks';
import { createChainScans } from './0016_chain_scans';
import { listOrderChanges } from './0017_order_changes';
import { holdDepositAmounts } from './0018_deposit_amounts';
import { createOrderChat } from './0019_order_chat';
import { createSavedDetails } from './0020_saved_details';
import { createAppeals } from './0021_appeals';
import { createMarketRates } from './0022_market_rates';
import type { Dialect, DialectMigration } from './schema-steps';

export type { Dialect } from './schema-steps';
export { ORDER_CHANGES_KEPT } from './0017_order_changes';

/** Every migration by its name, in the order Kysely runs them: that of their names. */
export const MIGRATIONS: readonly (readonly [name: string, migration: DialectMigration])[] = [
  ['0001_users_orders_events', createUsersOrdersEvents],
  ['0002_rates_receipts_offices', createRatesReceiptsOffices],
  ['0003_unique_tx_hash_call_counts', uniqueTxHashAndCallCounts],
  ['0004_cancel_reason', addCancelReason],
  ['0005_reject_reason_code', addRejectReasonCode],
  ['0006_notifications', createNotifications],
  ['0007_taken_by', addTakenBy],
  ['0008_history_index', indexHistory],
  ['0009_order_version', versionOrders],
  ['0010_unalerted_orders', indexUnalertedOrders],
  ['0011_versions_never_repeat', versionsNeverRepeat],
  ['0012_notification_kinds', indexNotificationKinds],
  ['0013_notification_queues', indexNotificationQueues],
  ['0014_address_call_counts', createAddressCallCounts],
  ['0015_chain_checks', createChainChecks],
  ['0016_chain_scans', createChainScans],
  ['0017_order_changes', listOrderChanges],
  ['0018_deposit_amounts', holdDepositAmounts],
  ['0019_order_chat', createOrderChat],
  ['0020_saved_details', createSavedDetails],
  ['0021_appeals', createAppeals],
  ['0022_market_rates', createMarketRates],
];

/** A migration as Kysely runs it: told the dialect of the database it runs on. */
function onDialect(migration: DialectMigration, dialect: Dialect): Migration {
  const { up, down } = migration;
  return {
    up: (db) => up(db, dialect),
    ...(down === undefined ? {} : { down: (db) => down(db, dialect) }),
  };
}

export function migrationProvider(dialect: Dialect): MigrationProvider {
  const migrations = Object.fromEntries(
    MIGRATIONS.map(([name, migration]) => [name, onDialect(migration, dialect)]),
  );
  return { getMigrations: () => Promise.resolve(migrations) };
}
