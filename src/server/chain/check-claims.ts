/** Claiming due check rows under a lease, so instances split the work. */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { NetworkId } from '../../shared/networks';
import type { ChainCheckKind, Database } from '../platform/db/schema';
import { CHECK_COLUMNS, type DueCheck } from './check-rows';
import type { ChainCheckContext } from './check-context';

/** Longer than a batch of lookups all timing out; a crashed instance's rows are free after it. */
export const CHAIN_CHECK_LEASE_MS = 5 * 60_000;

/** In turn: seen rows (no call till their final read), rows the scan woke, then looking ones. */
export interface Claim {
  readonly kind: ChainCheckKind;
  readonly state: 'seen' | 'looking';
  readonly woken?: readonly string[];
}

export function dueOn(
  db: Kysely<Database>,
  network: NetworkId,
  now: number,
  kind?: ChainCheckKind,
) {
  let query = db.selectFrom('chain_checks');
  if (kind !== undefined) query = query.where('kind', '=', kind);
  return query
    .where('network', '=', network)
    .where('state', 'in', ['looking', 'seen'])
    .where('next_check_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]));
}

/** The lease is written in the claim's own short transaction, so the lookups hold no lock. */
export async function claimDue(
  ctx: ChainCheckContext,
  network: NetworkId,
  claim: Claim,
  now: number,
  limit: number,
): Promise<DueCheck[]> {
  const { kind } = claim;
  return ctx.db.transaction().execute(async (trx) => {
    let due = dueOn(trx, network, now, kind)
      .select('order_id')
      .where('state', '=', claim.state)
      .orderBy('next_check_at')
      .limit(limit);
    if (claim.woken !== undefined) due = due.where('order_id', 'in', claim.woken);
    if (ctx.dialect === 'postgres') due = due.forUpdate().skipLocked();
    const ids = (await due.execute()).map((row) => row.order_id);
    if (ids.length === 0) return [];
    await trx
      .updateTable('chain_checks')
      .set({ claimed_until: now + CHAIN_CHECK_LEASE_MS, lease: randomUUID() })
      .where('kind', '=', kind)
      .where('order_id', 'in', ids)
      .execute();
    return trx
      .selectFrom('chain_checks')
      .innerJoin('orders', 'orders.id', 'chain_checks.order_id')
      .select(CHECK_COLUMNS)
      .where('chain_checks.kind', '=', kind)
      .where('chain_checks.order_id', 'in', ids)
      .execute();
  });
}
