/**
 * A chain check's row as a round reads it, and its writes: each names the lease the row was
 * claimed by, so a verdict reached after the lease passed to another instance is dropped rather
 * than written over that instance's (chain/chain-checker.ts claims the rows and judges them).
 */
import type { ExpressionBuilder, Kysely, Updateable } from 'kysely';
import type { NetworkId } from '../../shared/networks';
import type { ChainFlag } from '../../shared/notifications';
import type { ChainCheckKind, ChainChecksTable, Database, OrderRow } from '../platform/db/schema';
import type { NotificationFacts } from '../orders';
import { flagForOperators } from '../orders';

/** The columns of a check row and of its order that a round reads. */
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
  /** The claim this instance holds the row by; null for a row read without a claim. */
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

/** What the operators' alert of a wrong deposit found by the checker says. */
export type FlagFacts = Partial<
  Pick<NotificationFacts, 'chainDifference' | 'chainAmount' | 'chainHash' | 'otherOrderIds'>
> & { readonly chainFlag: ChainFlag };

/** Writes a check row's columns and releases it. */
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

/** A check row as this instance holds it: which row, and by which lease. */
export type HeldRow = Pick<DueCheck, 'order_id' | 'kind' | 'lease'>;

/**
 * Thrown when a check's row is no longer this instance's (its lease ran out and another instance
 * claimed it): whatever this instance concluded is older than that instance's verdict, and is
 * dropped with the transaction it was in, so a check only ever moves forward.
 */
export class LeaseLost extends Error {
  constructor() {
    super('the chain check row is held by another lease');
  }
}

/**
 * Every write of a check names the lease it holds: the row's own (claimed), or for a row read
 * without a claim (a head that could not be read), that nobody holds it now.
 */
export function stillHeld(row: Pick<DueCheck, 'lease'>, now: number) {
  return (eb: ExpressionBuilder<Database, 'chain_checks'>) =>
    row.lease === null
      ? eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)])
      : eb('lease', '=', row.lease);
}

/**
 * Changes the check and flags the order for operators in one transaction: the order's
 * `needs_attention` and an alert to their chat, once per `event`.
 */
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
