/** Rates, spreads, market prices, cities and offices. */
import type { Generated } from 'kysely';
import type { ListedCurrency } from '../../../../shared/currencies';
import type { CryptoCurrency } from '../../../../shared/networks';
import type { OrderType, PaymentMethod } from '../../../../shared/order-status';

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

/** Every price read, for the console's chart. */
export interface RateHistoryTable {
  id: Generated<number>;
  source: string;
  base: PriceBase;
  quote: ListedCurrency;
  units: number;
  read_at: number;
}

/** Whether a pair was quoted when last looked at (1) or not (0), and since when. */
export interface RatePairsTable {
  crypto: CryptoCurrency;
  fiat: ListedCurrency;
  quoting: number;
  changed_at: number;
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
