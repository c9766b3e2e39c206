/** Rates from the market: which sources are read and the rules their prices are judged by. */
import * as v from 'valibot';
import { documented } from './documented';
import { commaList, text, wholeNumber, type ParsedVariables } from './values';

/** The sources the server can read (rates/sources/), by the name RATE_SOURCES lists them. */
export const RATE_SOURCE_NAMES = ['coingecko', 'exmo', 'cbr'] as const;
export type RateSourceName = (typeof RATE_SOURCE_NAMES)[number];

/** Where a source is read and how often. */
export interface RateSourceSettings {
  readonly url: string;
  readonly apiKey?: string | undefined;
  readonly everyMs: number;
}

export interface RatesConfig {
  /** The sources read; none: the base rates are the ones operators type, as they always were. */
  readonly rateSources: readonly RateSourceName[];
  readonly rateSourceSettings: Readonly<Record<RateSourceName, RateSourceSettings>>;
  readonly rateRules: {
    readonly maxAgeMs: number;
    readonly outlierBp: number;
    readonly minSources: number;
    readonly jumpBp: number;
    readonly jumpAgreeMs: number;
  };
}

const sourceUrl = (name: string, fallback: string, what: string) =>
  documented(
    v.optional(v.pipe(text, v.url(`${name} must be a URL, e.g. ${fallback}`)), fallback),
    `the origin ${what} is read from (a test or a proxy points it elsewhere)`,
    { group: 'rates' },
  );

const readEvery = (name: string, fallback: number, what: string) =>
  documented(wholeNumber(name, fallback, 10, 86_400), `seconds between two reads of ${what}`, {
    group: 'rates',
  });

export const RATES_VARIABLES = {
  RATE_SOURCES: documented(
    v.optional(
      commaList(
        v.picklist(
          RATE_SOURCE_NAMES,
          (issue) =>
            `RATE_SOURCES lists ${RATE_SOURCE_NAMES.join(', ')}, got "${String(issue.input)}"`,
        ),
      ),
    ),
    `the market price sources the base rates follow, comma-separated (${RATE_SOURCE_NAMES.map((name) => `\`${name}\``).join(', ')}); see docs/rates.md`,
    { group: 'rates', unset: 'none: the base rates are the ones operators set in the console' },
  ),
  RATE_COINGECKO_URL: sourceUrl(
    'RATE_COINGECKO_URL',
    'https://api.coingecko.com',
    "CoinGecko's `simple/price` (its demo plan; `https://pro-api.coingecko.com` for a paid one)",
  ),
  RATE_COINGECKO_KEY: documented(
    v.optional(text),
    "CoinGecko's API key, sent in the header of the plan the URL names",
    { group: 'rates', unset: 'none: the keyless public API, a few calls a minute' },
  ),
  // The demo plan allows 10 000 calls a month: one every 4.5 minutes lasts it.
  RATE_COINGECKO_EVERY: readEvery('RATE_COINGECKO_EVERY', 270, 'CoinGecko'),
  RATE_EXMO_URL: sourceUrl('RATE_EXMO_URL', 'https://api.exmo.me', "EXMO's USDT/RUB order book"),
  RATE_EXMO_EVERY: readEvery('RATE_EXMO_EVERY', 30, "EXMO's order book"),
  RATE_CBR_URL: sourceUrl('RATE_CBR_URL', 'https://www.cbr.ru', "the Bank of Russia's `XML_daily`"),
  RATE_CBR_EVERY: readEvery('RATE_CBR_EVERY', 3_600, "the Bank of Russia's daily rates"),
  RATE_SOURCE_MAX_AGE: documented(
    wholeNumber('RATE_SOURCE_MAX_AGE', 300, 30, 3_600),
    "seconds a market source's price stays fresh; an older one is left out of the base",
    { group: 'rates' },
  ),
  RATE_OUTLIER_BP: documented(
    wholeNumber('RATE_OUTLIER_BP', 150, 1, 5_000),
    "basis points a source's price may be from the median of the others' before it is left out as an outlier",
    { group: 'rates' },
  ),
  RATE_MIN_SOURCES: documented(
    wholeNumber('RATE_MIN_SOURCES', 2, 1, 5),
    'how many fresh sources must agree for a pair to be quoted; with fewer the pair answers `RATE_UNAVAILABLE` until they do',
    { group: 'rates' },
  ),
  RATE_JUMP_BP: documented(
    wholeNumber('RATE_JUMP_BP', 300, 10, 5_000),
    "basis points a pair's market base may move within 10 minutes before the move is held: the pair is not quoted until an operator confirms it in the console or the sources have agreed on it for `RATE_JUMP_AGREE`",
    { group: 'rates' },
  ),
  RATE_JUMP_AGREE: documented(
    wholeNumber('RATE_JUMP_AGREE', 900, 60, 86_400),
    'seconds the sources must agree on a held jump before the base takes it by itself',
    { group: 'rates' },
  ),
};

export function ratesConfigOf(variables: ParsedVariables<typeof RATES_VARIABLES>): RatesConfig {
  return {
    rateSources: [...new Set(variables.RATE_SOURCES ?? [])],
    rateSourceSettings: {
      coingecko: {
        url: variables.RATE_COINGECKO_URL,
        apiKey: variables.RATE_COINGECKO_KEY,
        everyMs: variables.RATE_COINGECKO_EVERY * 1000,
      },
      exmo: { url: variables.RATE_EXMO_URL, everyMs: variables.RATE_EXMO_EVERY * 1000 },
      cbr: { url: variables.RATE_CBR_URL, everyMs: variables.RATE_CBR_EVERY * 1000 },
    },
    rateRules: {
      maxAgeMs: variables.RATE_SOURCE_MAX_AGE * 1000,
      outlierBp: variables.RATE_OUTLIER_BP,
      minSources: variables.RATE_MIN_SOURCES,
      jumpBp: variables.RATE_JUMP_BP,
      jumpAgreeMs: variables.RATE_JUMP_AGREE * 1000,
    },
  };
}
