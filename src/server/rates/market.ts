/**
 * The market the base rates follow: the configured sources with their schedules, and the base of
 * a pair made of their latest stored prices (market-base.ts). No source configured, no market:
 * the base rates are the ones operators type.
 */
import type { Kysely } from 'kysely';
import { CRYPTO_CURRENCIES, type CryptoCurrency } from '../../shared/networks';
import { LISTED_CURRENCIES, type ListedCurrency } from '../../shared/currencies';
import type { AppConfig } from '../platform/config/config';
import type { Database } from '../platform/db/schema';
import { marketBase, type Cadence, type PairBase, type StoredPrice } from './market-base';
import type { RateSource } from './sources/source';

/** Every pair the app offers: each coin in each listed currency. */
export const MARKET_PAIRS = CRYPTO_CURRENCIES.flatMap((crypto) =>
  LISTED_CURRENCIES.map((fiat) => ({ crypto, fiat })),
);

/** A source as the reading job reads it: the reader and how often. */
export interface ScheduledSource {
  readonly source: RateSource;
  readonly everyMs: number;
}

export interface Market {
  readonly sources: readonly ScheduledSource[];
  readonly cadences: ReadonlyMap<string, Cadence>;
  readonly rules: AppConfig['rateRules'];
}

export function marketOf(
  sources: readonly ScheduledSource[],
  rules: AppConfig['rateRules'],
): Market | undefined {
  if (sources.length === 0) return undefined;
  return {
    sources,
    cadences: new Map(sources.map(({ source }) => [source.name, source.cadence])),
    rules,
  };
}

/** The configured sources' latest prices, as stored by the reader. */
export async function storedPrices(db: Kysely<Database>, market: Market): Promise<StoredPrice[]> {
  const rows = await db
    .selectFrom('rate_prices')
    .select(['source', 'base', 'quote', 'units', 'at', 'read_at'])
    .where('source', 'in', [...market.cadences.keys()])
    .execute();
  return rows.map(({ read_at: readAt, ...row }) => ({ ...row, readAt }));
}

/** The base of a pair now, with how each source stood. */
export async function pairBase(
  db: Kysely<Database>,
  market: Market,
  pair: { readonly crypto: CryptoCurrency; readonly fiat: ListedCurrency },
  now: number,
): Promise<PairBase> {
  return marketBase(await storedPrices(db, market), market.cadences, pair, now, market.rules);
}

/** A pair's state row, if the watch has looked at it. */
export function pairRow(
  db: Kysely<Database>,
  pair: { readonly crypto: CryptoCurrency; readonly fiat: ListedCurrency },
) {
  return db
    .selectFrom('rate_pairs')
    .selectAll()
    .where('crypto', '=', pair.crypto)
    .where('fiat', '=', pair.fiat)
    .executeTakeFirst();
}
