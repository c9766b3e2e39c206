/**
 * The server's own quotes: a base rate per fiat and coin, and a spread per method and direction
 * set by operators. The base follows the market when sources are configured (market.ts), else it
 * is the one operators type. A buy pays base × (1 + spread), a sell receives base × (1 − spread),
 * rounded to 2 decimals.
 */
import type { Kysely } from 'kysely';
import type * as v from 'valibot';
import type { RateResponse } from '../../shared/api';
import type { OrderType } from '../../shared/order-status';
import type { RateQuerySchema } from '../../shared/schemas/queries';
import { isListedCurrency, methodTakesCurrency } from '../../shared/currencies';
import { applyBasisPoints, fromUnits } from '../../shared/money';
import type { ServerContext } from '../platform/context';
import type { Database } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import type { QuoteRequest } from '../orders';
import { marketFor } from './configured-market';
import { pairBase, pairRow } from './market';
import { baseInForce } from './pair-state';

/** base × (1 ± spread) in millionths, rounded to the rate's display precision. */
export function applySpread(baseUnits: number, spreadBp: number, operation: OrderType): number {
  return applyBasisPoints(baseUnits, operation === 'BUY' ? spreadBp : -spreadBp);
}

/** The base operators typed for a pair, when they have. */
async function typedBase(db: Kysely<Database>, request: QuoteRequest): Promise<number | undefined> {
  const row = await db
    .selectFrom('rates')
    .select('base_rate_units')
    .where('fiat', '=', request.fiat)
    .where('crypto', '=', request.crypto)
    .executeTakeFirst();
  return row?.base_rate_units;
}

/**
 * The base in force: the market's when sources are configured (a fixed one while an operator
 * holds it, none while a jump waits or too few sources agree: RATE_UNAVAILABLE), else the typed one.
 */
async function baseOf(ctx: ServerContext, request: QuoteRequest): Promise<number | undefined> {
  const market = marketFor(ctx.config);
  if (market === undefined || !isListedCurrency(request.fiat)) return typedBase(ctx.db, request);
  const pair = { crypto: request.crypto, fiat: request.fiat };
  const now = ctx.now();
  const [row, live] = await Promise.all([
    pairRow(ctx.db, pair),
    pairBase(ctx.db, market, pair, now),
  ]);
  const base = baseInForce(row, live.units, now, market.rules);
  if (!('units' in base)) throw new AppError('RATE_UNAVAILABLE');
  return base.units;
}

/**
 * The current quote in millionths of the fiat per coin: VALIDATION_FAILED for a pair not
 * offered, RATE_UNAVAILABLE for one the market cannot price now.
 */
export async function quote(ctx: ServerContext, request: QuoteRequest): Promise<number> {
  if (!methodTakesCurrency(request.method, request.fiat)) throw new AppError('VALIDATION_FAILED');
  const [base, spread] = await Promise.all([
    baseOf(ctx, request),
    ctx.db
      .selectFrom('rate_spreads')
      .select('spread_bp')
      .where('payment_method', '=', request.method)
      .where('operation', '=', request.operation)
      .executeTakeFirst(),
  ]);
  if (base === undefined || spread === undefined) throw new AppError('VALIDATION_FAILED');
  return applySpread(base, spread.spread_bp, request.operation);
}

/** The customer's quote (`GET /api/rates/calculate`): fiat per coin, 2 decimals. */
export async function currentRate(
  ctx: ServerContext,
  query: v.InferOutput<typeof RateQuerySchema>,
): Promise<RateResponse> {
  const rateUnits = await quote(ctx, {
    fiat: query.currency,
    crypto: query.cryptoCurrency,
    method: query.paymentMethod,
    operation: query.operation,
  });
  return { rate: fromUnits(rateUnits) };
}
