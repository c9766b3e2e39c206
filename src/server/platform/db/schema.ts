/**
 * The tables as Kysely sees them, by area in tables/. Times are epoch milliseconds (bigint), money
 * is integer minor units, never a binary float: crypto in millionths of a coin, fiat in
 * hundredths, rates in millionths of the fiat per coin.
 */
import type {
  ChainChecksTable,
  ChainIncomingTable,
  ChainScansTable,
  DepositAmountsTable,
} from './tables/chain';
import type {
  AddressCallCountsTable,
  CallCountsTable,
  SavedCardsTable,
  SavedWalletsTable,
  UsersTable,
} from './tables/customers';
import type { NotificationFailuresTable, NotificationsTable } from './tables/notifications';
import type {
  AppealsTable,
  OrderChangesTable,
  OrderEventsTable,
  OrderMessagesTable,
  OrdersTable,
  ReceiptsTable,
} from './tables/orders';
import type {
  CitiesTable,
  OfficesTable,
  RateHistoryTable,
  RateChangesTable,
  RatePairsTable,
  RatePricesTable,
  RateSourcesTable,
  RateSpreadsTable,
  RatesTable,
} from './tables/rates';

export type * from './tables/chain';
export type * from './tables/customers';
export type * from './tables/notifications';
export type * from './tables/rates';
export * from './tables/orders';

export interface Database {
  users: UsersTable;
  orders: OrdersTable;
  order_events: OrderEventsTable;
  rates: RatesTable;
  rate_spreads: RateSpreadsTable;
  rate_sources: RateSourcesTable;
  rate_prices: RatePricesTable;
  rate_history: RateHistoryTable;
  rate_pairs: RatePairsTable;
  rate_changes: RateChangesTable;
  receipts: ReceiptsTable;
  order_messages: OrderMessagesTable;
  appeals: AppealsTable;
  cities: CitiesTable;
  offices: OfficesTable;
  call_counts: CallCountsTable;
  address_call_counts: AddressCallCountsTable;
  notifications: NotificationsTable;
  notification_failures: NotificationFailuresTable;
  chain_checks: ChainChecksTable;
  chain_scans: ChainScansTable;
  chain_incoming: ChainIncomingTable;
  deposit_amounts: DepositAmountsTable;
  saved_wallets: SavedWalletsTable;
  saved_cards: SavedCardsTable;
  /** SQLite only. */
  order_changes: OrderChangesTable;
}
