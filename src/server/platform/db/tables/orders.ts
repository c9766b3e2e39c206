/** An order, its events, receipts, chat messages and appeal. */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { ChatAuthor } from '../../../../shared/api';
import type { AppealDecision, AppealReason } from '../../../../shared/appeals';
import type { CryptoCurrency, NetworkId } from '../../../../shared/networks';
import type { RejectReason } from '../../../../shared/reject-reasons';
import type {
  Actor,
  CancelReason,
  OrderStatus,
  OrderType,
  PaymentMethod,
} from '../../../../shared/order-status';

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
  /** JSON: the requisites in the shape of the order's method. */
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

/**
 * An order whose version moved or that was removed, in the order they happened (SQLite only,
 * migration 0017): what the status poll's kept versions must forget (orders/status/status-answers.ts).
 */
export interface OrderChangesTable {
  seq: Generated<number>;
  order_id: string;
}

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
