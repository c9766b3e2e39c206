/**
 * CoinGecko's "Coin Price by IDs" (docs.coingecko.com/reference/simple-price): `GET
 * /api/v3/simple/price?ids=tether,usd-coin&vs_currencies=rub,usd,eur,aed,kzt
 * &include_last_updated_at=true` answers `{ "tether": { "rub": 81.2, …, "last_updated_at":
 * 1711356300 }, "usd-coin": {…} }`, a number per currency and the time in Unix seconds.
 * The demo plan's key goes in `x-cg-demo-api-key` (api.coingecko.com), a paid plan's in
 * `x-cg-pro-api-key` (pro-api.coingecko.com); each host refuses the other's, so `plan` follows the
 * URL, demo (the free plan) by default. A coin or currency the answer lacks is left out; an answer
 * with none of them is `malformed`; one price out of its band makes the whole read `absurd`.
 */
import * as v from 'valibot';
import { LISTED_CURRENCIES } from '../../../shared/currencies';
import type { CryptoCurrency } from '../../../shared/networks';
import { getJson } from './http';
import { sanePrice } from './sane-bands';
import { SourceFault, type RateSource, type SourcePrice } from './source';

export interface CoinGeckoOptions {
  /** https://api.coingecko.com (keyless or demo) or https://pro-api.coingecko.com. */
  readonly url: string;
  readonly apiKey?: string | undefined;
  readonly plan?: 'demo' | 'pro';
  readonly timeoutMs?: number | undefined;
}

export const COINGECKO_IDS: Readonly<Record<CryptoCurrency, string>> = {
  USDT: 'tether',
  USDC: 'usd-coin',
};

/** A price per currency, null when CoinGecko has none. */
const CoinEntrySchema = v.objectWithRest(
  { last_updated_at: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))) },
  v.nullable(v.number()),
);
const AnswerSchema = v.record(v.string(), v.unknown());

export function coinGeckoSource(options: CoinGeckoOptions): RateSource {
  const origin = options.url.replace(/\/+$/, '');
  const plan = options.plan ?? (/\/\/pro-api\./.test(origin) ? 'pro' : 'demo');
  const query = new URLSearchParams({
    ids: Object.values(COINGECKO_IDS).join(','),
    vs_currencies: LISTED_CURRENCIES.map((code) => code.toLowerCase()).join(','),
    include_last_updated_at: 'true',
  });
  const url = `${origin}/api/v3/simple/price?${query.toString().replaceAll('%2C', ',')}`;
  const headers: Record<string, string> =
    options.apiKey === undefined ? {} : { [`x-cg-${plan}-api-key`]: options.apiKey };
  return {
    name: 'coingecko',
    cadence: 'market',
    async read(signal, now) {
      const json = await getJson(url, { signal, timeoutMs: options.timeoutMs, headers });
      return pricesOf(json, now);
    },
  };
}

/** The prices of a `simple/price` answer; `now` stands for a coin that gives no time. */
export function pricesOf(json: unknown, now: number): readonly SourcePrice[] {
  const answer = v.safeParse(AnswerSchema, json);
  if (!answer.success) throw new SourceFault('malformed', 'the answer is not an object of coins');
  const prices: SourcePrice[] = [];
  for (const [coin, id] of Object.entries(COINGECKO_IDS) as [CryptoCurrency, string][]) {
    if (answer.output[id] === undefined) continue;
    const entry = v.safeParse(CoinEntrySchema, answer.output[id]);
    if (!entry.success) {
      throw new SourceFault('malformed', `${id}: ${entry.issues[0].message}`);
    }
    const { last_updated_at: updatedAt, ...byCurrency } = entry.output;
    const at = updatedAt === undefined ? now : updatedAt * 1000;
    for (const quote of LISTED_CURRENCIES) {
      const value = byCurrency[quote.toLowerCase()];
      if (value === undefined || value === null) continue;
      prices.push(sanePrice({ base: coin, quote, value, at }));
    }
  }
  if (prices.length === 0) {
    throw new SourceFault('malformed', 'the answer holds none of the prices asked for');
  }
  return prices;
}
