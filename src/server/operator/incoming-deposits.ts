/**
 * The unmatched deposits, those that came without a hash: transfers to a deposit address
 * that the chain checker's scan kept (chain/chain-scan.ts) because no submitted hash named them and
 * they matched no single waiting sell. Operators see them (all of them, and on a waiting sell
 * those of its network and coin) and attach one to a sell as its deposit (verbs/attach-deposit.ts), checked by the same rule as a pasted hash.
 */
import type { Kysely, Selectable } from 'kysely';
import { tokenAmountToDecimal } from '../../shared/money';
import type { IncomingDeposit, OperatorIncomingResponse } from '../../shared/operator-api';
import { pageOf, type PageRequest } from '../platform/db/paging';
import type { ChainIncomingTable, Database, OrderRow } from '../platform/db/schema';

/** The most unmatched deposits an order's list shows: the newest of its network and coin. */
export const INCOMING_LISTED = 100;

function asIncoming(row: Selectable<ChainIncomingTable>): IncomingDeposit {
  return {
    network: row.network,
    txHash: row.tx_hash,
    coin: row.coin,
    amount: tokenAmountToDecimal(BigInt(row.amount), row.decimals),
    sender: row.sender,
    blockNumber: row.block_number,
    seenAt: new Date(row.seen_at).toISOString(),
    candidates: row.candidates,
  };
}

/**
 * A page of the unmatched deposits, newest first (the hash breaks ties: pages never skip or
 * repeat a row). A console scoped to its own orders (a demo visitor's) sees none: a transfer
 * belongs to nobody until attached.
 */
export async function unmatchedDeposits(
  db: Kysely<Database>,
  scope: number | null,
  page: PageRequest,
): Promise<OperatorIncomingResponse> {
  if (scope !== null) return { deposits: [], hasMore: false };
  const { rows, hasMore } = await pageOf(
    db
      .selectFrom('chain_incoming')
      .selectAll()
      .where('order_id', 'is', null)
      .where('dust', '=', 0)
      .orderBy('seen_at', 'desc')
      .orderBy('tx_hash'),
    page,
  );
  return { deposits: rows.map(asIncoming), hasMore };
}

/** The unmatched deposits a waiting sell could take: its network's and coin's. */
export async function unmatchedDepositsFor(
  db: Kysely<Database>,
  order: Pick<OrderRow, 'type' | 'status' | 'network' | 'crypto_currency'>,
  chainChecked: boolean,
): Promise<IncomingDeposit[]> {
  if (!chainChecked || order.type !== 'SELL' || order.status !== 'WAITING_CRYPTO') return [];
  const rows = await db
    .selectFrom('chain_incoming')
    .selectAll()
    .where('order_id', 'is', null)
    .where('dust', '=', 0)
    .where('network', '=', order.network)
    .where('coin', '=', order.crypto_currency)
    .orderBy('seen_at', 'desc')
    .limit(INCOMING_LISTED)
    .execute();
  return rows.map(asIncoming);
}
