/**
 * The rates as operators read them: the typed bases and the spreads with who set each, the
 * market (each source's state, each pair's candidates, base, hold, fixed rate and the quotes it
 * gives per method) when sources are configured, and the latest audited changes.
 */
import type { Kysely } from 'kysely';
import type { OperatorRatesResponse } from '../../shared/operator-api';
import { methodTakesCurrency } from '../../shared/currencies';
import { PAYMENT_METHODS, ORDER_TYPES } from '../../shared/order-status';
import { fromUnits } from '../../shared/money';
import type { ServerContext } from '../platform/context';
import type { Database } from '../platform/db/schema';
import { marketFor } from './configured-market';
import { MARKET_PAIRS, storedPrices, type Market } from './market';
import { marketBase, type PairBase } from './market-base';
import { baseInForce, fixedBase, type PairRow } from './pair-state';
import { applySpread } from './rates';

/** How many of the latest changes the screen lists. */
const CHANGES_SHOWN = 30;

type Spread = {
  readonly payment_method: string;
  readonly operation: string;
  readonly spread_bp: number;
};

type MarketPairView = NonNullable<OperatorRatesResponse['market']>['pairs'][number];

const iso = (at: number) => new Date(at).toISOString();
const isoOrNull = (at: number | null) => (at === null ? null : iso(at));

/** A pair as operators read it: its candidates, its base, its hold and fixed rate, its quotes. */
function pairView(
  live: PairBase,
  row: PairRow | undefined,
  spreads: readonly Spread[],
  now: number,
  market: Market,
): MarketPairView {
  const inForce = baseInForce(row, live.units, now, market.rules);
  const fixed = fixedBase(row, now);
  const base = 'units' in inForce ? inForce.units : undefined;
  const quotes = PAYMENT_METHODS.filter((method) => methodTakesCurrency(method, live.fiat)).flatMap(
    (paymentMethod) =>
      ORDER_TYPES.flatMap((operation) => {
        const spread = spreads.find(
          (s) => s.payment_method === paymentMethod && s.operation === operation,
        );
        if (base === undefined || spread === undefined) return [];
        return [
          {
            paymentMethod,
            operation,
            rate: fromUnits(applySpread(base, spread.spread_bp, operation)),
          },
        ];
      }),
  );
  return {
    crypto: live.crypto,
    fiat: live.fiat,
    base: base === undefined ? null : fromUnits(base),
    unquoted: 'unquoted' in inForce ? inForce.unquoted : null,
    median: live.units === undefined ? null : fromUnits(live.units),
    accepted: row?.base_units == null ? null : fromUnits(row.base_units),
    held:
      row?.held_units == null
        ? null
        : {
            rate: fromUnits(row.held_units),
            from: fromUnits(row.held_from_units ?? row.held_units),
            since: iso(row.held_since ?? now),
          },
    fixed:
      fixed === undefined || row === undefined
        ? null
        : { rate: fromUnits(fixed), until: iso(row.fixed_until ?? now), by: row.fixed_by },
    candidates: live.candidates.map((c) => ({
      source: c.source,
      rate: fromUnits(c.units),
      at: iso(c.at),
      crossed: c.crossed,
      state: c.state,
    })),
    quotes,
  };
}

async function marketView(
  db: Kysely<Database>,
  market: Market,
  spreads: readonly Spread[],
  now: number,
): Promise<NonNullable<OperatorRatesResponse['market']>> {
  const [prices, rows, sources] = await Promise.all([
    storedPrices(db, market),
    db.selectFrom('rate_pairs').selectAll().execute(),
    db
      .selectFrom('rate_sources')
      .selectAll()
      .where('name', 'in', [...market.cadences.keys()])
      .execute(),
  ]);
  const rowOf = new Map<string, PairRow>(rows.map((row) => [`${row.crypto}/${row.fiat}`, row]));
  const pairs = MARKET_PAIRS.map((pair) =>
    pairView(
      marketBase(prices, market.cadences, pair, now, market.rules),
      rowOf.get(`${pair.crypto}/${pair.fiat}`),
      spreads,
      now,
      market,
    ),
  );
  return {
    sources: sources.map((row) => ({
      name: row.name,
      readAt: isoOrNull(row.read_at),
      nextReadAt: iso(row.next_read_at),
      fault:
        row.failed_at === null
          ? null
          : {
              at: iso(row.failed_at),
              kind: row.fault_kind ?? '',
              message: row.fault_message ?? '',
            },
    })),
    pairs,
    jumpBp: market.rules.jumpBp,
  };
}

/** A change's figure as operators read it: a rate in the currency per coin, a spread in bp. */
const figure = (kind: string, units: number | null) =>
  units === null ? null : kind === 'spread' ? units : fromUnits(units);

export async function readRates(ctx: ServerContext): Promise<OperatorRatesResponse> {
  const { db } = ctx;
  const [rates, spreads, changes] = await Promise.all([
    db.selectFrom('rates').selectAll().orderBy('fiat').orderBy('crypto').execute(),
    db
      .selectFrom('rate_spreads')
      .selectAll()
      .orderBy('payment_method')
      .orderBy('operation')
      .execute(),
    db.selectFrom('rate_changes').selectAll().orderBy('id', 'desc').limit(CHANGES_SHOWN).execute(),
  ]);
  const market = marketFor(ctx.config);
  return {
    rates: rates.map((r) => ({
      fiat: r.fiat,
      crypto: r.crypto,
      baseRate: fromUnits(r.base_rate_units),
      updatedAt: iso(r.updated_at),
      updatedBy: r.updated_by,
    })),
    spreads: spreads.map((s) => ({
      paymentMethod: s.payment_method,
      operation: s.operation,
      spreadBp: s.spread_bp,
      updatedAt: iso(s.updated_at),
      updatedBy: s.updated_by,
    })),
    market: market === undefined ? null : await marketView(db, market, spreads, ctx.now()),
    changes: changes.map((c) => ({
      at: iso(c.at),
      operatorId: c.operator_id,
      kind: c.kind,
      subject: c.subject,
      before: figure(c.kind, c.before_units),
      after: figure(c.kind, c.after_units),
      until: isoOrNull(c.until),
    })),
  };
}
