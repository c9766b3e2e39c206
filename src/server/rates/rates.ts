/**
 * The server's own quotes (design.md, "The server is the authority"): a base rate per fiat and
 * coin, and a spread per method and direction, both in the database and changeable by operators.
 * A buy pays base × (1 + spread), a sell receives base × (1 − spread), rounded to 2 decimals.
 */
import type { Kysely } from 'kysely';
import type { CryptoCurrency } from '../../shared/networks';
import type { OrderType, PaymentMethod } from '../../shared/order-status';
import { RATE_DECIMALS } from '../../shared/limits';
import { UNITS_PER_COIN } from '../../shared/money';
import type { Database } from '../db/schema';
import { AppError } from '../errors';

/** Realistic starting rates (late 2026), in whole fiat per coin. */
export const SEED_BASE_RATES: readonly { fiat: string; crypto: CryptoCurrency; rate: number }[] = [
  { fiat: 'RUB', crypto: 'USDT', rate: 95.4 },
  { fiat: 'RUB', crypto: 'USDC', rate: 95.25 },
  { fiat: 'USD', crypto: 'USDT', rate: 1 },
  { fiat: 'USD', crypto: 'USDC', rate: 1 },
  { fiat: 'EUR', crypto: 'USDT', rate: 0.92 },
  { fiat: 'EUR', crypto: 'USDC', rate: 0.92 },
  { fiat: 'AED', crypto: 'USDT', rate: 3.6725 },
  { fiat: 'AED', crypto: 'USDC', rate: 3.6725 },
  { fiat: 'KZT', crypto: 'USDT', rate: 512.3 },
  { fiat: 'KZT', crypto: 'USDC', rate: 511.8 },
];

/** Spreads in basis points per method and direction; the pairs not listed are not offered. */
export const SEED_SPREADS: readonly { method: PaymentMethod; operation: OrderType; bp: number }[] =
  [
    { method: 'P2P', operation: 'BUY', bp: 250 },
    { method: 'P2P', operation: 'SELL', bp: 250 },
    { method: 'BANK_ACCOUNT', operation: 'BUY', bp: 150 },
    { method: 'OFFICE', operation: 'BUY', bp: 100 },
  ];

/** Which fiat currencies each method takes (spec section 1: RUB by P2P and bank, all at offices). */
export function methodTakesCurrency(method: PaymentMethod, fiat: string): boolean {
  return method === 'OFFICE' ? SEED_BASE_RATES.some((r) => r.fiat === fiat) : fiat === 'RUB';
}

const RATE_STEP_UNITS = UNITS_PER_COIN / 10 ** RATE_DECIMALS;

/** base × (1 ± spread) in millionths, rounded to the rate's display precision. */
export function applySpread(baseUnits: number, spreadBp: number, operation: OrderType): number {
  const factor = operation === 'BUY' ? 10_000 + spreadBp : 10_000 - spreadBp;
  const exact = (baseUnits * factor) / 10_000;
  return Math.round(exact / RATE_STEP_UNITS) * RATE_STEP_UNITS;
}

export interface QuoteRequest {
  readonly fiat: string;
  readonly crypto: CryptoCurrency;
  readonly method: PaymentMethod;
  readonly operation: OrderType;
}

/** The current quote in millionths of the fiat per coin; VALIDATION_FAILED for a pair not offered. */
export async function quote(db: Kysely<Database>, request: QuoteRequest): Promise<number> {
  if (!methodTakesCurrency(request.method, request.fiat)) throw new AppError('VALIDATION_FAILED');
  const [base, spread] = await Promise.all([
    db
      .selectFrom('rates')
      .select('base_rate_units')
      .where('fiat', '=', request.fiat)
      .where('crypto', '=', request.crypto)
      .executeTakeFirst(),
    db
      .selectFrom('rate_spreads')
      .select('spread_bp')
      .where('payment_method', '=', request.method)
      .where('operation', '=', request.operation)
      .executeTakeFirst(),
  ]);
  if (base === undefined || spread === undefined) throw new AppError('VALIDATION_FAILED');
  return applySpread(base.base_rate_units, spread.spread_bp, request.operation);
}

/** Inserts the seed rates and spreads that are missing; never overwrites an operator's change. */
export async function seedRates(db: Kysely<Database>, now: number): Promise<void> {
  for (const r of SEED_BASE_RATES) {
    await db
      .insertInto('rates')
      .values({
        fiat: r.fiat,
        crypto: r.crypto,
        base_rate_units: Math.round(r.rate * UNITS_PER_COIN),
        updated_at: now,
        updated_by: null,
      })
      .onConflict((oc) => oc.columns(['fiat', 'crypto']).doNothing())
      .execute();
  }
  for (const s of SEED_SPREADS) {
    await db
      .insertInto('rate_spreads')
      .values({
        payment_method: s.method,
        operation: s.operation,
        spread_bp: s.bp,
        updated_at: now,
        updated_by: null,
      })
      .onConflict((oc) => oc.columns(['payment_method', 'operation']).doNothing())
      .execute();
  }
}
