/**
 * The base rate of a coin in a currency, made of the sources' latest prices: the median of the
 * fresh ones that agree, or none when fewer than the rules' minimum do (the pair then stops
 * quoting: never a stale price). What each source offers for a pair is its candidate:
 * - a market source's own price of the pair; or, when it has none and the currency is not the
 *   rouble, its rouble price crossed with the bank's rate of the currency (USDT/RUB ÷ EUR/RUB);
 * - a bank's cross: the market's price of the coin in dollars (the median of the market
 *   sources' own) × the bank's USD/RUB ÷ its rate of the currency; for the dollar itself, the
 *   market's rouble price ÷ the bank's USD/RUB.
 * A candidate further than the outlier band from the others (the other one of two, the median
 * of three or more) is left out.
 */
import type { CryptoCurrency } from '../../shared/networks';
import type { ListedCurrency } from '../../shared/currencies';
import type { CandidateState } from '../../shared/rate-rules';
import type { PriceBase } from './sources/source';

/** A source's latest price of a pair, as stored. */
export interface StoredPrice {
  readonly source: string;
  readonly base: PriceBase;
  readonly quote: ListedCurrency;
  readonly units: number;
  /** When the source says it was true. */
  readonly at: number;
  readonly readAt: number;
}

export type Cadence = 'market' | 'daily';

export interface MarketRules {
  /** How old a market source's price may be (RATE_SOURCE_MAX_AGE). */
  readonly maxAgeMs: number;
  /** How far from the others' median a candidate may be, in basis points (RATE_OUTLIER_BP). */
  readonly outlierBp: number;
  /** How many fresh candidates must agree for the pair to quote (RATE_MIN_SOURCES). */
  readonly minSources: number;
}

/**
 * A bank's rate is the rate of its day: fresh while the bank still answers it (read within this
 * long) and not older than DAILY_RATE_MAX_DAYS (a bank sets none over a weekend or a holiday).
 */
export const DAILY_READ_MAX_AGE_MS = 6 * 3_600_000;
export const DAILY_RATE_MAX_DAYS = 10;

export interface Candidate {
  readonly source: string;
  readonly units: number;
  /** The oldest of the prices it is made of. */
  readonly at: number;
  /** Made with a bank's rate (a cross), not the source's own price of the pair. */
  readonly crossed: boolean;
  readonly state: CandidateState;
}

export interface PairBase {
  readonly crypto: CryptoCurrency;
  readonly fiat: ListedCurrency;
  /** The base in millionths; undefined when too few fresh candidates agree. */
  readonly units: number | undefined;
  readonly candidates: readonly Candidate[];
}

const MILLION = 1_000_000;

/** The median, the mean of the middle two for an even count, rounded to a unit. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : Math.round(((sorted[middle - 1] ?? 0) + upper) / 2);
}

function isFresh(price: StoredPrice, cadence: Cadence, now: number, rules: MarketRules): boolean {
  if (cadence === 'market') return now - price.at <= rules.maxAgeMs;
  return (
    now - price.readAt <= DAILY_READ_MAX_AGE_MS &&
    now - price.at <= DAILY_RATE_MAX_DAYS * 24 * 3_600_000
  );
}

/** The prices by source, and a lookup of one source's price of one pair. */
function priceBook(prices: readonly StoredPrice[]) {
  const byKey = new Map(prices.map((p) => [`${p.source}:${p.base}:${p.quote}`, p]));
  return (source: string, base: PriceBase, quote: ListedCurrency) =>
    byKey.get(`${source}:${base}:${quote}`);
}

interface Raw {
  readonly source: string;
  readonly units: number;
  readonly at: number;
  readonly crossed: boolean;
  readonly fresh: boolean;
}

/** Each source's candidate for the pair, fresh or not, before the outliers are judged. */
function rawCandidates(
  prices: readonly StoredPrice[],
  cadences: ReadonlyMap<string, Cadence>,
  pair: { readonly crypto: CryptoCurrency; readonly fiat: ListedCurrency },
  now: number,
  rules: MarketRules,
): Raw[] {
  const price = priceBook(prices);
  const fresh = (p: StoredPrice) => isFresh(p, cadences.get(p.source) ?? 'market', now, rules);
  const banks = [...cadences].filter(([, c]) => c === 'daily').map(([name]) => name);
  const markets = [...cadences].filter(([, c]) => c === 'market').map(([name]) => name);
  const raw: Raw[] = [];
  // The bank's rate of the currency in roubles (1 for the rouble), from the first bank that has it.
  const bankRate = (fiat: ListedCurrency) => {
    for (const bank of banks) {
      const rate = price(bank, fiat, 'RUB');
      if (rate !== undefined) return rate;
    }
    return undefined;
  };
  for (const source of markets) {
    const own = price(source, pair.crypto, pair.fiat);
    if (own !== undefined) {
      raw.push({ source, units: own.units, at: own.at, crossed: false, fresh: fresh(own) });
      continue;
    }
    const inRoubles = price(source, pair.crypto, 'RUB');
    const fiatRate = pair.fiat === 'RUB' ? undefined : bankRate(pair.fiat);
    if (inRoubles === undefined || fiatRate === undefined) continue;
    raw.push({
      source,
      units: Math.round((inRoubles.units * MILLION) / fiatRate.units),
      at: Math.min(inRoubles.at, fiatRate.at),
      crossed: true,
      fresh: fresh(inRoubles) && fresh(fiatRate),
    });
  }
  // The bank's cross starts from the market's price of the coin in dollars, or, for the dollar
  // itself, in roubles; the bank's rates carry it to the pair's currency.
  const from: ListedCurrency = pair.fiat === 'USD' ? 'RUB' : 'USD';
  const marketPrices = markets.flatMap((source) => {
    const own = price(source, pair.crypto, from);
    return own !== undefined && fresh(own) ? [own] : [];
  });
  const coinPrice = median(marketPrices.map((p) => p.units));
  for (const bank of banks) {
    // Each currency's rate in roubles; the rouble's own is 1.
    const inRoubles = (fiat: ListedCurrency) =>
      fiat === 'RUB' ? { units: MILLION, at: now, readAt: now } : price(bank, fiat, 'RUB');
    const fromRate = inRoubles(from);
    const toRate = inRoubles(pair.fiat);
    if (coinPrice === undefined || fromRate === undefined || toRate === undefined) continue;
    const parts = [fromRate, toRate].filter((part): part is StoredPrice => 'source' in part);
    raw.push({
      source: bank,
      units: Math.round((coinPrice * fromRate.units) / toRate.units),
      at: Math.min(...parts.map((p) => p.at), ...marketPrices.map((p) => p.at)),
      crossed: true,
      fresh: parts.every(fresh),
    });
  }
  return raw;
}

/** The base of one pair from the sources' latest prices, with how each source stood. */
export function marketBase(
  prices: readonly StoredPrice[],
  cadences: ReadonlyMap<string, Cadence>,
  pair: { readonly crypto: CryptoCurrency; readonly fiat: ListedCurrency },
  now: number,
  rules: MarketRules,
): PairBase {
  const raw = rawCandidates(prices, cadences, pair, now, rules);
  const fresh = raw.filter((c) => c.fresh);
  // Two sources are judged against each other; three or more against the median of all, which
  // one far-off source cannot move (the median of the others would be pulled by it).
  const center = fresh.length >= 3 ? median(fresh.map((c) => c.units)) : undefined;
  const candidates = raw.map((c): Candidate => {
    const { fresh: isFreshCandidate, ...rest } = c;
    if (!isFreshCandidate) return { ...rest, state: 'stale' };
    const against =
      center ?? median(fresh.filter((other) => other !== c).map((other) => other.units));
    const apart = against === undefined ? 0 : (Math.abs(c.units - against) * 10_000) / against;
    return { ...rest, state: apart > rules.outlierBp ? 'outlier' : 'fresh' };
  });
  const agreeing = candidates.filter((c) => c.state === 'fresh').map((c) => c.units);
  return {
    ...pair,
    units: agreeing.length >= rules.minSources ? median(agreeing) : undefined,
    candidates,
  };
}
