/**
 * The exact amount a sell sends (docs/chain-checks.md, "One exact amount per sell"): the amount
 * asked plus a tag, unique per network and coin (deposit_amounts' key) while the sell is open and
 * DEPOSIT_AMOUNT_HOLD_HOURS after, so a late transfer is still known as its sell's.
 */
import { randomInt } from 'node:crypto';
import type { Transaction } from 'kysely';
import { CRYPTO_DECIMALS } from '../../shared/limits';
import { SHOWN_CRYPTO_STEP_UNITS } from '../../shared/money';
import type { CryptoCurrency, NetworkId } from '../../shared/networks';
import { FINAL_STATUSES } from '../../shared/order-status';
import type { Database } from '../platform/db/schema';
import { AppError } from '../platform/errors';

/** 1 to 9 999 steps of the last shown decimal. */
const TAGS = 10 ** CRYPTO_DECIMALS - 1;

const TRIES_PER_READ = 8;

export interface AmountKey {
  readonly network: NetworkId;
  readonly coin: CryptoCurrency;
}

/** In millionths, above the amount asked, below one coin more; never ending in 0 (rounded off). */
export function amountsFor(askedUnits: number): number[] {
  const base = Math.floor(askedUnits / SHOWN_CRYPTO_STEP_UNITS);
  const amounts: number[] = [];
  for (let tag = 1; tag <= TAGS; tag += 1) {
    if ((base + tag) % 10 !== 0) amounts.push((base + tag) * SHOWN_CRYPTO_STEP_UNITS);
  }
  return amounts;
}

/**
 * Holds one free amount at random (the next cannot be guessed): an insert that does nothing on
 * the key's conflict, so two instances never give the same. Throws DEPOSIT_AMOUNTS_TAKEN when all
 * are held.
 */
export async function holdDepositAmount(
  trx: Transaction<Database>,
  key: AmountKey,
  askedUnits: number,
  orderId: string,
  now: number,
  holdMs: number,
): Promise<number> {
  const amounts = amountsFor(askedUnits);
  const low = amounts[0] ?? askedUnits;
  const high = amounts.at(-1) ?? askedUnits;
  await releaseEnded(trx, key, { low, high }, now - holdMs);
  for (let read = 0; read < 3; read += 1) {
    const held = await trx
      .selectFrom('deposit_amounts')
      .select('amount_units')
      .where('network', '=', key.network)
      .where('crypto_currency', '=', key.coin)
      .where('amount_units', '>=', low)
      .where('amount_units', '<=', high)
      .execute();
    const taken = new Set(held.map((row) => row.amount_units));
    const free = amounts.filter((units) => !taken.has(units));
    if (free.length === 0) break;
    for (let attempt = 0; attempt < TRIES_PER_READ && free.length > 0; attempt += 1) {
      const [units] = free.splice(randomInt(free.length), 1);
      if (units === undefined) break;
      const inserted = await trx
        .insertInto('deposit_amounts')
        .values({
          network: key.network,
          crypto_currency: key.coin,
          amount_units: units,
          order_id: orderId,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['network', 'crypto_currency', 'amount_units']).doNothing())
        .returning('amount_units')
        .executeTakeFirst();
      if (inserted !== undefined) return units;
    }
  }
  throw new AppError('DEPOSIT_AMOUNTS_TAKEN');
}

async function releaseEnded(
  trx: Transaction<Database>,
  key: AmountKey,
  range: { readonly low: number; readonly high: number },
  endedBefore: number,
): Promise<void> {
  await trx
    .deleteFrom('deposit_amounts')
    .where('network', '=', key.network)
    .where('crypto_currency', '=', key.coin)
    .where('amount_units', '>=', range.low)
    .where('amount_units', '<=', range.high)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('orders')
          .select('orders.id')
          .whereRef('orders.id', '=', 'deposit_amounts.order_id')
          .where('orders.status', 'in', FINAL_STATUSES)
          .where('orders.updated_at', '<', endedBefore),
      ),
    )
    .execute();
}
