/**
 * Judging a transfer by its amount: each sell's exact amount is its own, so a transfer of another
 * sell's amount is that sell's, and another customer's open sell goes to operators.
 */
import type { Kysely } from 'kysely';
import { tokenAmountToUnits } from '../../shared/money';
import { isFinalStatus, type OrderStatus } from '../../shared/order-status';
import type { Database, OrderRow } from '../platform/db/schema';
import { flagForOperators, type AmountKey } from '../orders';
import type { AmountProblem } from './deposit-rules';

export interface AmountHolder {
  readonly id: string;
  readonly userId: number;
  readonly status: OrderStatus;
  readonly createdAt: number;
}

/** The sell holding the exact amount: open, or ended less than `holdMs` ago. */
export async function holderOf(
  db: Kysely<Database>,
  key: AmountKey,
  amount: bigint,
  decimals: number,
  now: number,
  holdMs: number,
): Promise<AmountHolder | undefined> {
  const units = tokenAmountToUnits(amount, decimals);
  if (units === undefined) return undefined;
  const row = await db
    .selectFrom('deposit_amounts')
    .innerJoin('orders', 'orders.id', 'deposit_amounts.order_id')
    .select(['orders.id', 'orders.user_id', 'orders.status', 'orders.created_at', 'updated_at'])
    .where('deposit_amounts.network', '=', key.network)
    .where('deposit_amounts.crypto_currency', '=', key.coin)
    .where('deposit_amounts.amount_units', '=', units)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  if (isFinalStatus(row.status) && row.updated_at < now - holdMs) return undefined;
  return { id: row.id, userId: row.user_id, status: row.status, createdAt: row.created_at };
}

export interface AmountRefusal {
  readonly problem: AmountProblem;
  /** Another customer's open sell: the sign of a seller pasting a transfer not theirs. */
  readonly foreignOrder?: string;
}

/** Another sell's exact amount is refused as TX_AMOUNT_MISMATCH, even below this order's. */
export async function amountRefusal(
  db: Kysely<Database>,
  order: Pick<OrderRow, 'id' | 'user_id' | 'network' | 'crypto_currency'>,
  problem: AmountProblem,
  decimals: number,
  expected: bigint,
  now: number,
  holdMs: number,
): Promise<AmountRefusal> {
  const key = { network: order.network, coin: order.crypto_currency };
  const holder = await holderOf(db, key, problem.sent, decimals, now, holdMs);
  if (holder === undefined || holder.id === order.id) return { problem };
  const mismatch: AmountProblem = { code: 'TX_AMOUNT_MISMATCH', sent: problem.sent, expected };
  const foreign = holder.userId !== order.user_id && !isFinalStatus(holder.status);
  return foreign ? { problem: mismatch, foreignOrder: holder.id } : { problem: mismatch };
}

/** Once per order and hash. */
export async function flagForeignAmount(
  db: Kysely<Database>,
  orderId: string,
  otherId: string,
  transfer: { readonly amount: string; readonly hash: string; readonly now: number },
): Promise<void> {
  const event = `chain:foreign:${orderId}:${transfer.hash}`;
  await db.transaction().execute((trx) =>
    flagForOperators(trx, orderId, 'flag_chain_deposit', event, transfer.now, {
      chainFlag: 'foreign_amount',
      chainAmount: transfer.amount,
      chainHash: transfer.hash,
      otherOrderIds: [otherId],
    }),
  );
}
