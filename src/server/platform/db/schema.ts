/**
 * The tables as Kysely sees them. Times are epoch milliseconds (bigint), money is integer minor
 * units (design.md: never a binary float): crypto in millionths of a coin, fiat in hundredths,
 * rates in millionths of the fiat per coin.
 */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { ChatAuthor, Language } from '../../../shared/api';
import type { AppealDecision, AppealReason } from '../../../shared/appeals';
import type { CryptoCurrency, NetworkId } from '../../../shared/networks';
import type { NotificationKind, NotificationStatus } from '../../../shared/notifications';
import type { RejectReason } from '../../../shared/reject-reasons';
import type {
  Actor,
  CancelReason,
  OrderStatus,
  OrderType,
  PaymentMethod,
} from '../../../shared/order-status';

export interface UsersTable {
  telegram_id: number;
  first_name: string;
  last_name: string | null;
  username: string | null;
  language_code: string | null;
  first_seen_at: number;
  last_seen_at: number;
  /** The language chosen in the app, sent with every call; notifications are written in it. */
  language: ColumnType<Language | null, Language | null | undefined, Language | null>;
  /** When the bot found itself blocked by this customer (403); cleared by their next /start. */
  bot_blocked_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface OrdersTable {
  id: string;
  user_id: number;
  type: OrderType;
  status: OrderStatus;
  payment_method: PaymentMethod;
  crypto_currency: CryptoCurrency;
  network: NetworkId;
  currency: string;
  amount_units: number;
  total_minor: number;
  rate_units: number;
  wallet_address: string | null;
  /** JSON: the requisites in the shape of the order's method (spec section 3). */
  requisites: string | null;
  /** JSON: the card a sell pays out to. */
  payout_card: string | null;
  city_id: string | null;
  office_instructions: string | null;
  /** JSON: the office reservation once an operator gives instructions. */
  reservation: string | null;
  /** The free text of a rejection, beside its catalogue reason. */
  reject_reason: string | null;
  /** The catalogue reason of a REJECTED order (src/shared/reject-reasons.ts). */
  reject_reason_code: ColumnType<
    RejectReason | null,
    RejectReason | null | undefined,
    RejectReason | null
  >;
  tx_hash: string | null;
  outgoing_tx_hash: string | null;
  created_at: number;
  updated_at: number;
  requisites_ready_at: number | null;
  expires_at: number | null;
  reserved_until: number | null;
  /**
   * Moved on by the database itself (triggers) at every change of the order and of its receipts:
   * the version of the customer's status answer (its ETag).
   */
  version: ColumnType<number, never, never>;
  /** Set when an order needs a person: past its deadline after the customer paid, a reused receipt. */
  needs_attention: ColumnType<number, number | undefined, number>;
  /** The office of an office buy, once an operator gives instructions. */
  office_id: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * When the sweeper flagged the order for operators in its current wait: no answer within the
   * usual 10 minutes, or paid past its deadline. Cleared when an operator answers.
   */
  deadline_alerted_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** Why a CANCELLED order was cancelled (src/shared/order-status.ts CANCEL_REASONS). */
  cancel_reason: ColumnType<
    CancelReason | null,
    CancelReason | null | undefined,
    CancelReason | null
  >;
  /** When the customer was reminded of the deadline of the order's current wait. */
  reminded_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** The operator who opened the order in the console first (the autopilot leaves it to them). */
  taken_by: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * The order's verification code (src/shared/verification-code.ts), never changed: written by
   * the server at creation, or by the database when a row comes without one (migration 0019).
   */
  verification_code: ColumnType<string, string | undefined, string>;
  /** The last message of the operators in the order's chat its customer has read (0: none). */
  customer_read_message_id: ColumnType<number, number | undefined, number>;
  /** The last message of the customer in the order's chat an operator has read (0: none). */
  operator_read_message_id: ColumnType<number, number | undefined, number>;
}

export interface OrderEventsTable {
  id: Generated<number>;
  order_id: string;
  from_status: OrderStatus | null;
  to_status: OrderStatus;
  actor: Actor;
  actor_id: number | null;
  reason: string | null;
  created_at: number;
  /**
   * A message written in the order's chat (migration 0019), whose event this is: its status
   * stays (`from_status` and `to_status` are the status it had). Null for a change of status.
   */
  message_id: ColumnType<number | null, number | null | undefined, never>;
}

/** The base rate of a coin in a fiat currency, in millionths (e.g. 95 400 000 = 95.40 RUB). */
export interface RatesTable {
  fiat: string;
  crypto: CryptoCurrency;
  base_rate_units: number;
  updated_at: number;
  updated_by: number | null;
}

/** The margin of a method and direction over the base rate, in basis points (150 = 1.5 %). */
export interface RateSpreadsTable {
  payment_method: PaymentMethod;
  operation: OrderType;
  spread_bp: number;
  updated_at: number;
  updated_by: number | null;
}

export interface ReceiptsTable {
  id: string;
  order_id: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  sha256: string;
  storage_key: string;
  uploaded_at: number;
}

/** One message of an order's chat (migration 0019): kept for good, as evidence. */
export interface OrderMessagesTable {
  id: Generated<number>;
  order_id: string;
  author: ChatAuthor;
  /** The Telegram id of the customer or operator who wrote it. */
  author_id: number;
  /** Trimmed; null for a file sent alone. */
  text: string | null;
  /** The attached file, checked and stored as a receipt's (receipts/receipts.ts); all null without one. */
  attachment_name: string | null;
  attachment_type: string | null;
  attachment_size: number | null;
  attachment_sha256: string | null;
  /** Its file's name under RECEIPTS_DIR. */
  attachment_key: string | null;
  created_at: number;
}

/** An order's appeal (migration 0021): opened by its customer, decided by a senior operator. */
export interface AppealsTable {
  id: Generated<number>;
  order_id: string;
  /** The customer who opened it: the order's. */
  user_id: number;
  reason: AppealReason;
  /** The customer's words; empty when they gave none. */
  text: string;
  /** JSON: the ids of the order's chat messages given as evidence. */
  evidence: string;
  opened_at: number;
  /** Null while the appeal is open. */
  decided_at: number | null;
  /** The senior operator's Telegram id. */
  decided_by: number | null;
  decision: AppealDecision | null;
  /** What the senior operator wrote to the customer. */
  outcome: string | null;
  /** A buy's refund: the requisites it went to, or its reference. */
  refund_details: string | null;
  /** A sell's refund: the hash of the transfer back to where the deposit came from. */
  refund_tx_hash: string | null;
}

export interface CitiesTable {
  id: string;
  name_ru: string;
  name_en: string;
  country_code: string;
  /** JSON array of the cash currencies its offices take. */
  currencies: string;
  position: number;
}

export interface OfficesTable {
  id: string;
  city_id: string;
  address_ru: string;
  address_en: string;
  working_hours_ru: string;
  working_hours_en: string;
  phone: string;
  map_link: string;
  position: number;
}

/** Calls of one kind a customer made in the current one-minute window (src/server/platform/limits/rate-limit.ts). */
export interface CallCountsTable {
  customer_id: number;
  call: string;
  window_start: number;
  count: number;
}

/** The per-address call limits' windows (rate-limit.ts: `addressKey` names the address). */
export interface AddressCallCountsTable {
  address: string;
  call: string;
  window_start: number;
  count: number;
}

/**
 * The transactional outbox: a message to Telegram, written in the same transaction as the change
 * that causes it, unique per (event, recipient) by `dedupe_key`, sent later by the outbox worker.
 */
export interface NotificationsTable {
  id: Generated<number>;
  dedupe_key: string;
  /** `customer:<telegram id>` or `operators` (the chat of OPERATOR_CHAT_ID, read when sent). */
  recipient: string;
  order_id: string | null;
  kind: NotificationKind;
  /** The customer's language; null for the operators' chat (OPERATOR_CHAT_LANGUAGE, when sent). */
  language: Language | null;
  /** JSON: the facts of the event, as they were when it happened. */
  payload: string;
  status: ColumnType<NotificationStatus, NotificationStatus, NotificationStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: number;
  /** While a worker holds the row: no other claims it before this time. */
  claimed_until: ColumnType<number | null, number | null | undefined, number | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  /** The Telegram message it became: a later update of the order's thread edits it. */
  message_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: number;
  sent_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Every failed attempt to send a notification, kept. */
export interface NotificationFailuresTable {
  id: Generated<number>;
  notification_id: number;
  attempt: number;
  error: string;
  created_at: number;
}

export interface Database {
  users: UsersTable;
  orders: OrdersTable;
  order_events: OrderEventsTable;
  rates: RatesTable;
  rate_spreads: RateSpreadsTable;
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

/**
 * An order whose version moved or that was removed, in the order they happened (SQLite only,
 * migration 0017): what the status poll's kept versions must forget (orders/status/status-answers.ts).
 */
export interface OrderChangesTable {
  seq: Generated<number>;
  order_id: string;
}

/** What a chain check is for: the seller's deposit (a buy's payout later). */
export type ChainCheckKind = 'deposit' | 'payout';

/**
 * Where a chain check stands: `looking` for a hash the node does not know (yet), `seen` once
 * found and right and counting its confirmations, `confirmed` once they are reached (the order
 * moved), `not_found` when the lookup window passed (operators flagged), `wrong` when a
 * transfer found later breaks a deposit rule (operators flagged), `closed` when the order left
 * the status the check was for by other means (an operator, a cancel).
 */
export type ChainCheckState = 'looking' | 'seen' | 'confirmed' | 'not_found' | 'wrong' | 'closed';

/** The chain checker's row of an order's transaction (migration 0015). */
export interface ChainChecksTable {
  order_id: string;
  kind: ChainCheckKind;
  network: NetworkId;
  /** Lower-case, as the unique transfer key compares it. */
  tx_hash: string;
  state: ChainCheckState;
  /** The transfer's (network, hash, log index): set once found, unique among deposits. */
  log_index: number | null;
  block_number: number | null;
  /** The seen block's hash, where the chain gives it (migration 0018). */
  block_hash: ColumnType<string | null, string | null | undefined, string | null>;
  block_time: number | null;
  /** When a final read first found the transfer gone: read once more before it is a reorg. */
  vanished_at: ColumnType<number | null, number | null | undefined, number | null>;
  confirmations: ColumnType<number, number | undefined, number>;
  required_confirmations: number;
  /** In the token's base units, as a decimal string (18-decimal amounts exceed a double). */
  amount: string | null;
  decimals: number | null;
  sender: string | null;
  contract: string | null;
  /** 1 once a transfer seen was gone on a later read (a reorganised block). */
  reorged: ColumnType<number, number | undefined, number>;
  attempts: ColumnType<number, number | undefined, number>;
  next_check_at: number;
  look_until: number;
  /** Until when an instance's checker holds the row; null when nobody does. */
  claimed_until: ColumnType<number | null, number | null | undefined, number | null>;
  /** The claim that holds it (migration 0018): every write of the check names it. */
  lease: ColumnType<string | null, string | null | undefined, string | null>;
  last_fault: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * What an operator accepted as a deposit instead of the order's exact amount, in base units
   * (migration 0018); null: the order's own amount.
   */
  accepted_amount: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: number;
  updated_at: number;
}

/**
 * The exact amount a sell was given to send (migration 0018), held unique per network and coin
 * while the sell is open and for DEPOSIT_AMOUNT_HOLD_HOURS after it ended.
 */
export interface DepositAmountsTable {
  network: NetworkId;
  crypto_currency: CryptoCurrency;
  /** The order's amount, in millionths (orders.amount_units). */
  amount_units: number;
  order_id: string;
  created_at: number;
}

/** Where the scan of a deposit address for one token's transfers stands (migration 0016). */
export interface ChainScansTable {
  network: NetworkId;
  /** As `addressKey` keeps it (chain/deposit-rules.ts): EVM in lower case, Tron as it is. */
  address: string;
  contract: string;
  /** EVM: the first block the next scan reads. */
  next_block: number | null;
  /** Tron: the block time (ms) the next scan starts from, inclusive. */
  next_time: number | null;
  claimed_until: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * EVM: the final blocks not scanned yet at the last scan (migration 0018); null for Tron,
   * whose history is read to its end every round.
   */
  lag_blocks: ColumnType<number | null, number | null | undefined, number | null>;
  updated_at: number;
}

/**
 * A transfer to a deposit address that no submitted hash names and that matched no single waiting
 * order (migration 0016): listed for operators until one attaches it to an order (`order_id`).
 */
export interface ChainIncomingTable {
  network: NetworkId;
  tx_hash: string;
  contract: string;
  coin: CryptoCurrency;
  sender: string;
  recipient: string;
  /** In the token's base units, as a decimal string. */
  amount: string;
  decimals: number;
  log_index: number | null;
  block_number: number | null;
  block_time: number | null;
  /**
   * How many sells hold its exact amount: 0 (kept for operators), or 1 (the order it is, when
   * that order could not take it: ended, or waiting on another hash).
   */
  candidates: number;
  order_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: under CHAIN_DUST_BELOW and no sell's amount, never listed (migration 0018). */
  dust: ColumnType<number, number | undefined, number>;
  seen_at: number;
}

/** A customer's saved wallet, for one network (migration 0020). */
export interface SavedWalletsTable {
  id: Generated<number>;
  user_id: number;
  network: NetworkId;
  address: string;
  /** shared/saved-details.ts `walletKey`: what tells two of a customer's wallets apart. */
  address_key: string;
  label: string;
  created_at: number;
  /** When it was saved or last saved again: the lists are most recent first. */
  used_at: number;
}

/** A customer's saved card, kept whole for the sell form, shown masked (migration 0020). */
export interface SavedCardsTable {
  id: Generated<number>;
  user_id: number;
  card_number: string;
  card_holder: string;
  bank_name: string;
  label: string;
  created_at: number;
  used_at: number;
}

export type UserRow = Selectable<UsersTable>;
export type OrderRow = Selectable<OrdersTable>;

/**
 * Every column of `orders`, by name: a query that reads a whole order names them rather than
 * `*`, so on PostgreSQL it stays a prepared statement (platform/db/database.ts) and its result keeps its
 * shape when a later version's migration adds a column under a running instance.
 */
export const ORDER_COLUMNS = [
  'id',
  'user_id',
  'type',
  'status',
  'payment_method',
  'crypto_currency',
  'network',
  'currency',
  'amount_units',
  'total_minor',
  'rate_units',
  'wallet_address',
  'requisites',
  'payout_card',
  'city_id',
  'office_instructions',
  'reservation',
  'reject_reason',
  'reject_reason_code',
  'tx_hash',
  'outgoing_tx_hash',
  'created_at',
  'updated_at',
  'requisites_ready_at',
  'expires_at',
  'reserved_until',
  'version',
  'needs_attention',
  'office_id',
  'deadline_alerted_at',
  'cancel_reason',
  'reminded_at',
  'taken_by',
  'verification_code',
  'customer_read_message_id',
  'operator_read_message_id',
] as const satisfies readonly (keyof OrdersTable)[];

/** A type that compiles only while `T` is `never`. */
type Nothing<T extends never> = T;

/** Compiles only while ORDER_COLUMNS names every column of OrdersTable. */
export type OrderColumnsLeftOut = Nothing<
  Exclude<keyof OrdersTable, (typeof ORDER_COLUMNS)[number]>
>;
export type NewOrderRow = Insertable<OrdersTable>;
export type NotificationRow = Selectable<NotificationsTable>;
