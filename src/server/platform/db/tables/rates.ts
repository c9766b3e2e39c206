/** Rates, spreads, market prices, cities and offices. */
import type { Generated } from 'kysely';
import type { ListedCurrency } from '../../../../shared/currencies';
import type { CryptoCurrency } from '../../../../shared/networks';
import type { OrderType, PaymentMethod } from '../../../../shared/order-status';
import type { RateChangeKind } from '../../../../shared/rate-rules';

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

/** A source of market prices: when it is read next, who reads it now, how its last read went. */
export interface RateSourcesTable {
  name: string;
  next_read_at: number;
  /** The instance reading it, until `lease_until`: another instance leaves it alone meanwhile. */
  lease: string | null;
  lease_until: number | null;
  /** The last read that answered prices. */
  read_at: number | null;
  /** The last read that failed, how and why; cleared by the next success. */
  failed_at: number | null;
  fault_kind: string | null;
  fault_message: string | null;
}

/** What a market price is of: a coin or a currency, in a listed currency. */
export type PriceBase = CryptoCurrency | ListedCurrency;

/** A source's latest price of a pair: `quote` per one `base`, in millionths. */
export interface RatePricesTable {
  source: string;
  base: PriceBase;
  quote: ListedCurrency;
  units: number;
  /** When the source says the price was true. */
  at: number;
  read_at: number;
  detail: string | null;
}

/** Every price read, and the market's base each minute (source BASE_SERIES), for the chart. */
export interface RateHistoryTable {
  id: Generated<number>;
  source: string;
  base: PriceBase;
  quote: ListedCurrency;
  units: number;
  read_at: number;
}

/** A pair's state, written only by the rates module, each write conditional on `revision`. */
export interface RatePairsTable {
  crypto: CryptoCurrency;
  fiat: ListedCurrency;
  revision: Generated<number>;
  /** Whether customers can order it now (1) or not (0), and since when. */
  quoting: number;
  changed_at: number;
  /** The market base last accepted, and when it last changed. */
  base_units: number | null;
  base_at: number | null;
  /** A jump accepted here: the base before it no longer counts as a reference. */
  window_from: number | null;
  /** When the base last went to the history. */
  charted_at: number | null;
  /** A jump held: the market's base, the accepted one it jumped from, and since when. */
  held_units: number | null;
  held_from_units: number | null;
  held_since: number | null;
  /** An operator's fixed base, in force until `fixed_until`, and who fixed it. */
  fixed_units: number | null;
  fixed_until: number | null;
  fixed_by: number | null;
}

/** Every change of what customers are quoted: who (null: the server), what, from and to. */
export interface RateChangesTable {
  id: Generated<number>;
  at: number;
  operator_id: number | null;
  kind: RateChangeKind;
  /** The pair (`USDT/RUB`) or the method and direction (`P2P/BUY`). */
  subject: string;
  /** Rates in millionths, spreads in basis points. */
  before_units: number | null;
  after_units: number | null;
  until: number | null;
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
