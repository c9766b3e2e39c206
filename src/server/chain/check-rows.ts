/**
 * A chain check's row and its writes: each write names the lease the row was claimed by, so a
 * verdict reached after the lease passed to another instance is dropped, not written over theirs.
 */
import type { ExpressionBuilder, Kysely, Updateable } from 'kysely';
import type { NetworkId } from '../../shared/networks';
import type { ChainFlag } from '../../shared/notifications';
import type { ChainCheckKind, ChainChecksTable, Database, OrderRow } from '../platform/db/schema';
import type { NotificationFacts } from '../orders';
import { flagForOperators } from '../orders';

export const CHECK_COLUMNS = [
  'chain_checks.order_id',
  'chain_checks.kind',
  'chain_checks.tx_hash',
  'chain_checks.state',
  'chain_checks.log_index',
  'chain_checks.block_number',
  'chain_checks.block_hash',
  'chain_checks.vanished_at',
  'chain_checks.confirmations',
  'chain_checks.required_confirmations',
  'chain_checks.attempts',
  'chain_checks.look_until',
  'chain_checks.accepted_amount',
  'chain_checks.lease',
  'orders.status',
  'orders.user_id',
  'orders.network',
  'orders.crypto_currency',
  'orders.amount_units',
  'orders.requisites',
  'orders.wallet_address',
  'orders.created_at',
] as const;

export interface DueCheck {
  readonly order_id: string;
  readonly kind: ChainCheckKind;
  readonly tx_hash: string;
  readonly state: ChainChecksTable['state'];
  readonly log_index: number | null;
  readonly block_number: number | null;
  readonly block_hash: string | null;
  readonly vanished_at: number | null;
  readonly confirmations: number;
  readonly required_confirmations: number;
  readonly attempts: number;
  readonly look_until: number;
  readonly accepted_amount: string | null;
  /** Null for a row read without a claim. */
  readonly lease: string | null;
  readonly status: OrderRow['status'];
  readonly user_id: number;
  readonly network: NetworkId;
  readonly crypto_currency: OrderRow['crypto_currency'];
  readonly amount_units: number;
  readonly requisites: string | null;
  readonly wallet_address: string | null;
  readonly created_at: number;
}

export type FlagFacts = Partial<
  Pick<NotificationFacts, 'chainDifference' | 'chainAmount' | 'chainHash' | 'otherOrderIds'>
> & { readonly chainFlag: ChainFlag };

export async function updateCheck(
  ctx: { readonly db: Kysely<Database> },
  row: HeldRow,
  set: Updateable<ChainChecksTable>,
  now: number,
): Promise<void> {
  const written = await ctx.db
    .updateTable('chain_checks')
    .set({ ...set, claimed_until: null, lease: null, updated_at: now })
    .where('kind', '=', row.kind)
    .where('order_id', '=', row.order_id)
    .where(stillHeld(row, now))
    .executeTakeFirst();
  if (written.numUpdatedRows === 0n) throw new LeaseLost();
}

export type HeldRow = Pick<DueCheck, 'order_id' | 'kind' | 'lease'>;

/** The row is another instance's now: this older verdict rolls back with its transaction. */
export class LeaseLost extends Error {
  constructor() {
    super('the chain check row is held by another lease');
  }
}

export function stillHeld(row: Pick<DueCheck, 'lease'>, now: number) {
  return (eb: ExpressionBuilder<Database, 'chain_checks'>) =>
    row.lease === null
      ? eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)])
      : eb('lease', '=', row.lease);
}

/** The check's change and the order's flag and alert in one transaction, once per `event`. */
export async function flag(
  ctx: { readonly db: Kysely<Database> },
  row: HeldRow,
  event: string,
  now: number,
  facts: FlagFacts,
  set: Updateable<ChainChecksTable>,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await updateCheck({ db: trx }, row, set, now);
    await flagForOperators(trx, row.order_id, 'flag_chain_deposit', event, now, facts);
  });
}
