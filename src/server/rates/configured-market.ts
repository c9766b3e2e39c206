/**
 * The market of a configuration: a reader per source RATE_SOURCES names, with its URL and its
 * interval. Made once per configuration, so the quotes and the reading job share it.
 */
import type { AppConfig } from '../platform/config/config';
import type { RateSourceName, RateSourceSettings } from '../platform/config/rates-config';
import { marketOf, type Market } from './market';
import { cbrSource } from './sources/cbr';
import { coinGeckoSource } from './sources/coingecko';
import { exmoSource } from './sources/exmo';
import type { RateSource } from './sources/source';

const READERS: Readonly<Record<RateSourceName, (settings: RateSourceSettings) => RateSource>> = {
  coingecko: coinGeckoSource,
  exmo: exmoSource,
  cbr: cbrSource,
};

const markets = new WeakMap<AppConfig, Market | undefined>();

/** The configuration's market; undefined when it names no source. */
export function marketFor(config: AppConfig): Market | undefined {
  if (!markets.has(config)) {
    const sources = config.rateSources.map((name) => {
      const settings = config.rateSourceSettings[name];
      return { source: READERS[name](settings), everyMs: settings.everyMs };
    });
    markets.set(config, marketOf(sources, config.rateRules));
  }
  return markets.get(config);
}
