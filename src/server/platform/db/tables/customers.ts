/** Customers, their saved details and their calls' limit windows. */
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Language } from '../../../../shared/api';
import type { NetworkId } from '../../../../shared/networks';

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
