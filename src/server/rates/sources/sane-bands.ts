/**
 * The band a price of each pair must fall in to be believed, and the one way a reader turns a
 * number it read into a SourcePrice. The bands are wide on purpose: they catch a source that
 * answers in kopecks, swaps base and quote or names another currency, not a market that moved.
 */
import { toUnits } from '../../../shared/money';
import type { ListedCurrency } from '../../../shared/currencies';
import { SourceFault, type PriceBase, type SourcePrice } from './source';

export type PairKey = `${PriceBase}/${ListedCurrency}`;

/** [lowest, highest] of `quote` per one `base`, in whole units; inclusive. */
type Band = readonly [low: number, high: number];

const COIN_BANDS: Readonly<Record<ListedCurrency, Band>> = {
  RUB: [20, 500],
  USD: [0.5, 2],
  EUR: [0.4, 2],
  // The dirham is pegged at 3.6725 to the dollar: the dollar's band times that.
  AED: [1.8, 7.4],
  KZT: [200, 2000],
};

/** Both coins are dollars, so they share a band; fiat pairs are in roubles (the bank's rates). */
export const SANE_BANDS: Readonly<Partial<Record<PairKey, Band>>> = {
  ...Object.fromEntries(
    (['USDT', 'USDC'] as const).flatMap((coin) =>
      Object.entries(COIN_BANDS).map(([quote, band]) => [`${coin}/${quote}`, band] as const),
    ),
  ),
  'USD/RUB': [20, 500],
  'EUR/RUB': [20, 600],
  'AED/RUB': [5, 150],
  'KZT/RUB': [0.01, 1],
};

export interface ReadPrice {
  readonly base: PriceBase;
  readonly quote: ListedCurrency;
  readonly value: number | string;
  readonly at: number;
  readonly detail?: string | undefined;
}

/**
 * `malformed` for a pair with no band or a string that is no number; `absurd` for zero, a
 * negative, NaN, an infinity or a price outside its band.
 */
export function sanePrice(read: ReadPrice): SourcePrice {
  const pair: PairKey = `${read.base}/${read.quote}`;
  const text = typeof read.value === 'number' ? String(read.value) : read.value.trim();
  if (typeof read.value === 'string' && !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) {
    throw new SourceFault('malformed', `${pair}: "${read.value}" is not a number`);
  }
  const number = Number(text);
  if (!Number.isFinite(number) || number <= 0) {
    throw new SourceFault('absurd', `${pair}: ${text} is not a positive price`);
  }
  const units = toUnits(text);
  if (units === undefined) throw new SourceFault('absurd', `${pair}: ${text} is out of range`);
  return saneUnits({ ...read, units });
}

/** As {@link sanePrice}, for a reader that computed the millionths itself (a per-100 rate). */
export function saneUnits(
  read: Omit<ReadPrice, 'value'> & { readonly units: number },
): SourcePrice {
  const pair: PairKey = `${read.base}/${read.quote}`;
  const band = SANE_BANDS[pair];
  if (band === undefined) throw new SourceFault('malformed', `${pair} is not a pair quoted here`);
  const [low, high] = band;
  const [lowUnits, highUnits] = [toUnits(low), toUnits(high)];
  if (
    !Number.isSafeInteger(read.units) ||
    lowUnits === undefined ||
    highUnits === undefined ||
    read.units < lowUnits ||
    read.units > highUnits
  ) {
    throw new SourceFault(
      'absurd',
      `${pair}: ${read.units / 1e6} is outside its sane band ${low}–${high}`,
    );
  }
  return {
    base: read.base,
    quote: read.quote,
    units: read.units,
    at: read.at,
    ...(read.detail === undefined ? {} : { detail: read.detail }),
  };
}
