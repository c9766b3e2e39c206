/**
 * The tables as Kysely sees them. Times are epoch milliseconds (bigint), money is integer minor
 * units (design.md: never a binary float): crypto in millionths of a coin, fiat in hundredths,
 * rates in millionths of the fiat per coin.
 */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { CryptoCurrency, NetworkId } from '../../shared/networks';
import type { Actor, OrderStatus, OrderType, PaymentMethod } from '../../shared/order-status';

export interface UsersTable {
  telegram_id: number;
  first_name: string;
  last_name: string | null;
  username: string | null;
  language_code: string | null;
  first_seen_at: number;
  last_seen_at: number;
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
  reject_reason: string | null;
  tx_hash: string | null;
  outgoing_tx_hash: string | null;
  created_at: number;
  updated_at: number;
  requisites_ready_at: number | null;
  expires_at: number | null;
  reserved_until: number | null;
  /** Set when an order needs a person: past its deadline after the customer paid, a reused receipt. */
  needs_attention: ColumnType<number, number | undefined, number>;
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
}

export interface Database {
  users: UsersTable;
  orders: OrdersTable;
  order_events: OrderEventsTable;
}

export type UserRow = Selectable<UsersTable>;
export type OrderRow = Selectable<OrdersTable>;
export type NewOrderRow = Insertable<OrdersTable>;
