/**
 * The rates and spreads the service starts with: inserted once, then the operators' to change
 * (rates/rates.ts reads and sets them).
 */
import type { Kysely } from 'kysely';
import type { CryptoCurrency } from '../../../../shared/networks';
import type { OrderType, PaymentMethod } from '../../../../shared/order-status';
import { toUnits } from '../../../../shared/money';
import type { Database } from '../schema';

/** Realistic starting rates (late 2026), in whole fiat per coin. */
const SEED_BASE_RATES: readonly { fiat: string; crypto: CryptoCurrency; rate: number }[] = [
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
const SEED_SPREADS: readonly { method: PaymentMethod; operation: OrderType; bp: number }[] = [
  { method: 'P2P', operation: 'BUY', bp: 250 },
  { method: 'P2P', operation: 'SELL', bp: 250 },
  { method: 'BANK_ACCOUNT', operation: 'BUY', bp: 150 },
  { method: 'OFFICE', operation: 'BUY', bp: 100 },
];

/** Inserts the seed rates and spreads that are missing; never overwrites an operator's change. */
export async function seedRates(db: Kysely<Database>, now: number): Promise<void> {
  for (const r of SEED_BASE_RATES) {
    const units = toUnits(r.rate);
    if (units === undefined) throw new Error(`seed rate ${r.fiat}/${r.crypto} is not a rate`);
    await db
      .insertInto('rates')
      .values({
        fiat: r.fiat,
        crypto: r.crypto,
        base_rate_units: units,
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
