/**
 * The server's own quotes: a base rate per fiat and coin, and a spread per method and direction
 * set by operators. The base follows the market when sources are configured (market.ts), else it
 * is the one operators type. A buy pays base × (1 + spread), a sell receives base × (1 − spread),
 * rounded to 2 decimals.
 */
import type { Kysely } from 'kysely';
import type * as v from 'valibot';
import type { RateResponse } from '../../shared/api';
import type { OperatorRatesResponse } from '../../shared/operator-api';
import type { CryptoCurrency } from '../../shared/networks';
import type { OrderType, PaymentMethod } from '../../shared/order-status';
import type { RateQuerySchema } from '../../shared/schemas/queries';
import { isListedCurrency, methodTakesCurrency } from '../../shared/currencies';
import { rateChangeNeedsConfirmation } from '../../shared/rate-rules';
import { applyBasisPoints, fromUnits, toUnits } from '../../shared/money';
import type { ServerContext } from '../platform/context';
import type { Database } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import type { QuoteRequest } from '../orders';
import { marketFor } from './configured-market';
import { pairBase } from './market';

/** base × (1 ± spread) in millionths, rounded to the rate's display precision. */
function applySpread(baseUnits: number, spreadBp: number, operation: OrderType): number {
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

/** The base in force: the market's when sources are configured, RATE_UNAVAILABLE when it has none. */
async function baseOf(ctx: ServerContext, request: QuoteRequest): Promise<number | undefined> {
  const market = marketFor(ctx.config);
  if (market === undefined || !isListedCurrency(request.fiat)) return typedBase(ctx.db, request);
  const pair = { crypto: request.crypto, fiat: request.fiat };
  const base = await pairBase(ctx.db, market, pair, ctx.now());
  if (base.units === undefined) throw new AppError('RATE_UNAVAILABLE');
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

/** Base rates and spreads as operators read them, with who set each and when. */
export async function readRates({ db }: Pick<ServerContext, 'db'>): Promise<OperatorRatesResponse> {
  const [rates, spreads] = await Promise.all([
    db.selectFrom('rates').selectAll().orderBy('fiat').orderBy('crypto').execute(),
    db
      .selectFrom('rate_spreads')
      .selectAll()
      .orderBy('payment_method')
      .orderBy('operation')
      .execute(),
  ]);
  return {
    rates: rates.map((r) => ({
      fiat: r.fiat,
      crypto: r.crypto,
      baseRate: fromUnits(r.base_rate_units),
      updatedAt: new Date(r.updated_at).toISOString(),
      updatedBy: r.updated_by,
    })),
    spreads: spreads.map((s) => ({
      paymentMethod: s.payment_method,
      operation: s.operation,
      spreadBp: s.spread_bp,
      updatedAt: new Date(s.updated_at).toISOString(),
      updatedBy: s.updated_by,
    })),
  };
}

/** An operator sets the base rate of a fiat and coin; answers every rate as it now stands. */
export async function setBaseRate(
  ctx: ServerContext,
  operatorId: number,
  body: {
    readonly fiat: string;
    readonly crypto: CryptoCurrency;
    readonly baseRate: number;
    readonly confirmLargeChange: boolean;
  },
): ReturnType<typeof readRates> {
  const units = toUnits(body.baseRate);
  if (units === undefined) throw new AppError('VALIDATION_FAILED');
  const current = await ctx.db
    .selectFrom('rates')
    .select('base_rate_units')
    .where('fiat', '=', body.fiat)
    .where('crypto', '=', body.crypto)
    .executeTakeFirst();
  if (
    current !== undefined &&
    !body.confirmLargeChange &&
    rateChangeNeedsConfirmation(current.base_rate_units, units)
  ) {
    throw new AppError('RATE_CHANGE_UNCONFIRMED', { rate: fromUnits(current.base_rate_units) });
  }
  const set = { base_rate_units: units, updated_at: ctx.now(), updated_by: operatorId };
  await ctx.db
    .insertInto('rates')
    .values({ fiat: body.fiat, crypto: body.crypto, ...set })
    .onConflict((oc) => oc.columns(['fiat', 'crypto']).doUpdateSet(set))
    .execute();
  return readRates(ctx);
}

/** An operator sets the spread of a method and direction; answers every rate as it now stands. */
export async function setSpread(
  ctx: ServerContext,
  operatorId: number,
  body: {
    readonly paymentMethod: PaymentMethod;
    readonly operation: OrderType;
    readonly spreadBp: number;
  },
): ReturnType<typeof readRates> {
  const set = { spread_bp: body.spreadBp, updated_at: ctx.now(), updated_by: operatorId };
  await ctx.db
    .insertInto('rate_spreads')
    .values({ payment_method: body.paymentMethod, operation: body.operation, ...set })
    .onConflict((oc) => oc.columns(['payment_method', 'operation']).doUpdateSet(set))
    .execute();
  return readRates(ctx);
}
