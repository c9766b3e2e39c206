/** Rates, spreads, cities and offices. */
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
