/**
 * What operators change of the rates, each change audited (rate-changes.ts): a typed base (the
 * rates in force when no market source is configured), a spread, a pair's fixed base for a time,
 * and a held jump taken. A base changed by more than RATE_CHANGE_CONFIRM_BP needs the operator's
 * second confirmation. Each answers every rate as it now stands.
 */
import type { CryptoCurrency } from '../../shared/networks';
import type { ListedCurrency } from '../../shared/currencies';
import type { OrderType, PaymentMethod } from '../../shared/order-status';
import { rateChangeNeedsConfirmation } from '../../shared/rate-rules';
import { fromUnits, toUnits } from '../../shared/money';
import type { Transaction } from 'kysely';
import type { ServerContext } from '../platform/context';
import type { Database } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { marketFor } from './configured-market';
import { pairBase, pairRow } from './market';
import { baseInForce, fixedBase } from './pair-state';
import { BASE_SERIES, recordRateChange } from './rate-changes';
import { readRates } from './rates-view';

const HOUR_MS = 3_600_000;

/** Refuses a change of more than RATE_CHANGE_CONFIRM_BP from `current` the operator did not confirm. */
function confirmedChange(current: number | undefined, next: number, confirmed: boolean): void {
  if (current !== undefined && !confirmed && rateChangeNeedsConfirmation(current, next)) {
    throw new AppError('RATE_CHANGE_UNCONFIRMED', { rate: fromUnits(current) });
  }
}

function unitsOf(rate: number): number {
  const units = toUnits(rate);
  if (units === undefined) throw new AppError('VALIDATION_FAILED');
  return units;
}

/** An operator types the base rate of a fiat and coin. */
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
  const units = unitsOf(body.baseRate);
  const current = await ctx.db
    .selectFrom('rates')
    .select('base_rate_units')
    .where('fiat', '=', body.fiat)
    .where('crypto', '=', body.crypto)
    .executeTakeFirst();
  confirmedChange(current?.base_rate_units, units, body.confirmLargeChange);
  const now = ctx.now();
  const set = { base_rate_units: units, updated_at: now, updated_by: operatorId };
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('rates')
      .values({ fiat: body.fiat, crypto: body.crypto, ...set })
      .onConflict((oc) => oc.columns(['fiat', 'crypto']).doUpdateSet(set))
      .execute();
    const subject = `${body.crypto}/${body.fiat}`;
    const before = current?.base_rate_units ?? null;
    await recordRateChange(trx, operatorId, 'base', subject, before, units, now);
  });
  return readRates(ctx);
}

/** An operator sets the spread of a method and direction. */
export async function setSpread(
  ctx: ServerContext,
  operatorId: number,
  body: {
    readonly paymentMethod: PaymentMethod;
    readonly operation: OrderType;
    readonly spreadBp: number;
  },
): ReturnType<typeof readRates> {
  const now = ctx.now();
  const set = { spread_bp: body.spreadBp, updated_at: now, updated_by: operatorId };
  await ctx.db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('rate_spreads')
      .select('spread_bp')
      .where('payment_method', '=', body.paymentMethod)
      .where('operation', '=', body.operation)
      .executeTakeFirst();
    await trx
      .insertInto('rate_spreads')
      .values({ payment_method: body.paymentMethod, operation: body.operation, ...set })
      .onConflict((oc) => oc.columns(['payment_method', 'operation']).doUpdateSet(set))
      .execute();
    const subject = `${body.paymentMethod}/${body.operation}`;
    const before = current?.spread_bp ?? null;
    await recordRateChange(trx, operatorId, 'spread', subject, before, body.spreadBp, now);
  });
  return readRates(ctx);
}

/** The market of the server, or VALIDATION_FAILED: fixing and jumps are the market's. */
function configuredMarket(ctx: ServerContext) {
  const market = marketFor(ctx.config);
  if (market === undefined) throw new AppError('VALIDATION_FAILED');
  return market;
}

type MarketPair = { readonly crypto: CryptoCurrency; readonly fiat: ListedCurrency };

/** Writes an operator's change of a pair's row, whichever state the watch left it in. */
async function upsertPair(
  db: Transaction<Database>,
  now: number,
  pair: MarketPair,
  set: {
    readonly fixed_units?: number | null;
    readonly fixed_until?: number | null;
    readonly fixed_by?: number | null;
  },
): Promise<void> {
  await db
    .insertInto('rate_pairs')
    .values({ ...pair, quoting: 0, changed_at: now, ...set })
    .onConflict((oc) =>
      oc.columns(['crypto', 'fiat']).doUpdateSet((eb) => ({
        ...set,
        revision: eb(eb.ref('rate_pairs.revision'), '+', 1),
      })),
    )
    .execute();
}

/** An operator fixes a pair's base for some hours, or ends the fixed base (`baseRate: null`). */
export async function fixRate(
  ctx: ServerContext,
  operatorId: number,
  body: MarketPair & {
    readonly baseRate: number | null;
    readonly hours: number;
    readonly confirmLargeChange: boolean;
  },
): ReturnType<typeof readRates> {
  const market = configuredMarket(ctx);
  const pair = { crypto: body.crypto, fiat: body.fiat };
  const subject = `${pair.crypto}/${pair.fiat}`;
  const now = ctx.now();
  if (body.baseRate === null) {
    const before = fixedBase(await pairRow(ctx.db, pair), now) ?? null;
    await ctx.db.transaction().execute(async (trx) => {
      await upsertPair(trx, now, pair, { fixed_units: null, fixed_until: null, fixed_by: null });
      await recordRateChange(trx, operatorId, 'unfixed', subject, before, null, now);
    });
    return readRates(ctx);
  }
  const units = unitsOf(body.baseRate);
  const [row, live] = await Promise.all([
    pairRow(ctx.db, pair),
    pairBase(ctx.db, market, pair, now),
  ]);
  const inForce = baseInForce(row, live.units, now, market.rules);
  // Measured against what customers are quoted now, or the market's base when nothing is.
  const current = 'units' in inForce ? inForce.units : (live.units ?? row?.base_units ?? undefined);
  confirmedChange(current, units, body.confirmLargeChange);
  const until = now + body.hours * HOUR_MS;
  await ctx.db.transaction().execute(async (trx) => {
    await upsertPair(trx, now, pair, {
      fixed_units: units,
      fixed_until: until,
      fixed_by: operatorId,
    });
    const before = current ?? null;
    await recordRateChange(trx, operatorId, 'fixed', subject, before, units, now, until);
  });
  return readRates(ctx);
}

/** An operator takes the jump a pair's market base made: the base is the market's now. */
export async function confirmJump(
  ctx: ServerContext,
  operatorId: number,
  pair: MarketPair,
): ReturnType<typeof readRates> {
  const market = configuredMarket(ctx);
  const now = ctx.now();
  const [row, live] = await Promise.all([
    pairRow(ctx.db, pair),
    pairBase(ctx.db, market, pair, now),
  ]);
  if (live.units === undefined) throw new AppError('RATE_UNAVAILABLE');
  if (row === undefined || row.held_units === null) throw new AppError('RATE_JUMP_NOT_HELD');
  const units = live.units;
  const taken = await ctx.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('rate_pairs')
      .set({
        base_units: units,
        base_at: now,
        window_from: now,
        charted_at: now,
        held_units: null,
        held_from_units: null,
        held_since: null,
        revision: row.revision + 1,
      })
      .where('crypto', '=', pair.crypto)
      .where('fiat', '=', pair.fiat)
      .where('revision', '=', row.revision)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return false;
    await trx
      .insertInto('rate_history')
      .values({ source: BASE_SERIES, base: pair.crypto, quote: pair.fiat, units, read_at: now })
      .execute();
    const subject = `${pair.crypto}/${pair.fiat}`;
    await recordRateChange(
      trx,
      operatorId,
      'jump_confirmed',
      subject,
      row.held_from_units,
      units,
      now,
    );
    return true;
  });
  // Another instance's watch moved the row meanwhile: the operator looks again.
  if (!taken) throw new AppError('RATE_JUMP_NOT_HELD');
  return readRates(ctx);
}
