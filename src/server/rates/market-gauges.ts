/**
 * The market's figures for the metrics, read at each scrape from what the reader stored: each
 * source's age and whether its last read failed, and each pair's base in force and whether it quotes.
 */
import type { DatabaseGauge, Reading } from '../platform/metrics/metrics';
import { MARKET_PAIRS, storedPrices, type Market } from './market';
import { marketBase } from './market-base';
import { baseInForce } from './pair-state';

export function marketGauges(market: Market): readonly DatabaseGauge[] {
  const names = [...market.cadences.keys()];
  const sourceRows = (db: Parameters<DatabaseGauge['read']>[0]) =>
    db
      .selectFrom('rate_sources')
      .select(['name', 'read_at', 'failed_at'])
      .where('name', 'in', names)
      .execute();
  // What customers are quoted now: a fixed base, the market's accepted one, or none.
  const bases = async (db: Parameters<DatabaseGauge['read']>[0], now: number) => {
    const [prices, rows] = await Promise.all([
      storedPrices(db, market),
      db.selectFrom('rate_pairs').selectAll().execute(),
    ]);
    return MARKET_PAIRS.map((pair) => {
      const live = marketBase(prices, market.cadences, pair, now, market.rules);
      const row = rows.find((r) => r.crypto === pair.crypto && r.fiat === pair.fiat);
      const inForce = baseInForce(row, live.units, now, market.rules);
      return { ...pair, units: 'units' in inForce ? inForce.units : undefined };
    });
  };
  const pairLabels = (base: { crypto: string; fiat: string }) => ({
    crypto: base.crypto,
    fiat: base.fiat,
  });
  return [
    {
      name: 'exchange_rate_source_age_seconds',
      help: "Seconds since each market source's last successful read (none yet: not listed)",
      labelNames: ['source'],
      read: async (db, now): Promise<Reading[]> =>
        (await sourceRows(db)).flatMap((row) =>
          row.read_at === null
            ? []
            : [{ labels: { source: row.name }, value: (now - row.read_at) / 1000 }],
        ),
    },
    {
      name: 'exchange_rate_source_failing',
      help: 'Whether the last read of each market source failed (1) or answered prices (0)',
      labelNames: ['source'],
      read: async (db): Promise<Reading[]> =>
        (await sourceRows(db)).map((row) => ({
          labels: { source: row.name },
          value: row.failed_at === null ? 0 : 1,
        })),
    },
    {
      name: 'exchange_rate_quoting',
      help: 'Whether each pair is quoted (1) or answers RATE_UNAVAILABLE (0), by coin and currency',
      labelNames: ['crypto', 'fiat'],
      read: async (db, now): Promise<Reading[]> =>
        (await bases(db, now)).map((base) => ({
          labels: pairLabels(base),
          value: base.units === undefined ? 0 : 1,
        })),
    },
    {
      name: 'exchange_rate_base',
      help: "The base rate each pair is quoted at now (an operator's fixed one or the market's), in the currency per coin (unquoted pairs not listed)",
      labelNames: ['crypto', 'fiat'],
      read: async (db, now): Promise<Reading[]> =>
        (await bases(db, now)).flatMap((base) =>
          base.units === undefined ? [] : [{ labels: pairLabels(base), value: base.units / 1e6 }],
        ),
    },
  ];
}
