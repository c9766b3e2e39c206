/**
 * The deposit address's scan (issue 23: "Calls stay bounded whatever the number of waiting
 * orders"; "Deposits without a hash"): once a round per network, each official contract's
 * transfers to the network's deposit address since the last scan, one call per contract
 * whatever the number of waiting orders. What it finds:
 *
 * - a transfer whose hash a looking check names: that check is due at once, so the round looks
 *   it up now rather than at the end of its backoff (hash lookups are rationed per round:
 *   chain-checker.ts, LOOKUPS_PER_ROUND);
 * - a transfer no check names that matches exactly one sell waiting for its deposit (same
 *   network, coin, address and amount, created before the transfer's block): looked up, judged
 *   by the deposit rule and attached to that order (actor `chain`), then followed like a hash the
 *   seller pasted;
 * - anything else (no such order, or several): kept in `chain_incoming` for operators, who attach
 *   it to an order.
 *
 * The scan of a (network, address, contract) is claimed for the round through its row's
 * `claimed_until` (held while scanning, then left at the round's time), so of several instances
 * one scans it a round; its cursor moves on only once what it found is written. A node's fault
 * leaves the cursor where it was for the next round.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { unitsToTokenAmount } from '../../shared/money';
import type { CryptoCurrency, NetworkId } from '../../shared/networks';
import {
  ChainUnavailable,
  type ChainHead,
  type ChainReader,
  type IncomingTransfer,
  type ScanPosition,
} from '../chain/chain-reader';
import type { NetworkChainConfig } from '../chain/chain-config';
import type { ServerContext } from '../context';
import { addressKey, sameAddress } from '../chain/deposit-rules';
import { ORDER_COLUMNS, type Database, type OrderRow } from '../db/schema';
import { AppError } from '../errors';
import { depositAddressFor } from '../orders/create';
import { attachDeposit } from '../orders/deposit-attach';
import { lookUpDeposit, type DepositTarget } from '../orders/deposit-check';

/** What a scan reads and writes: the database and the configuration (the checker's context). */
type ScanContext = Pick<ServerContext, 'db' | 'config'>;

/** How a round runs a scan: stopped with the server, its node's faults logged. */
interface ScanOptions {
  readonly signal?: AbortSignal | undefined;
  readonly log?: FastifyBaseLogger | undefined;
}

/** How long a scan's claim is held: longer than its one call can take. */
const SCAN_LEASE_MS = 2 * 60_000;

/** What one network's scan did this round. */
export interface ScanResult {
  /** The orders whose looking check named a transfer found: due at once, looked up this round. */
  readonly woken: string[];
  /** Transfers attached to the one waiting order they matched. */
  attached: number;
  /** Transfers kept for operators. */
  unmatched: number;
}

/** Whether a network has anything a scan is for: a sell waiting for its deposit or a looking hash. */
export async function scanWanted(db: Kysely<Database>, network: NetworkId): Promise<boolean> {
  const waiting = await db
    .selectFrom('orders')
    .select('id')
    .where('network', '=', network)
    .where('type', '=', 'SELL')
    .where('status', '=', 'WAITING_CRYPTO')
    .limit(1)
    .executeTakeFirst();
  if (waiting !== undefined) return true;
  const looking = await db
    .selectFrom('chain_checks')
    .select('order_id')
    .where('network', '=', network)
    .where('kind', '=', 'deposit')
    .where('state', '=', 'looking')
    .limit(1)
    .executeTakeFirst();
  return looking !== undefined;
}

/** One round's scan of a network's deposit address, for each contract it reads. */
export async function scanDeposits(
  ctx: ScanContext,
  network: NetworkId,
  reader: ChainReader,
  settings: NetworkChainConfig,
  head: ChainHead,
  now: number,
  options: ScanOptions = {},
): Promise<ScanResult> {
  const address = addressKey(depositAddressFor(ctx.config, network));
  const result: ScanResult = { woken: [], attached: 0, unmatched: 0 };
  for (const [coin, contract] of Object.entries(settings.tokens) as [CryptoCurrency, string][]) {
    if (options.signal?.aborted === true) break;
    const key = { network, address, contract: addressKey(contract) };
    const since = await claimScan(ctx, key, settings, head, now);
    if (since === undefined) continue;
    let next: ScanPosition = since;
    try {
      const found = await reader.transfersTo(address, contract, since, head);
      const target: DepositTarget = { reader, settings, contract };
      for (const transfer of found.transfers) {
        const done = await takeTransfer(ctx, target, coin, transfer, head, now);
        if (done === 'attached' || done === 'unmatched') result[done] += 1;
        else result.woken.push(...done.woken);
      }
      next = found.next;
    } catch (error) {
      if (!(error instanceof ChainUnavailable)) throw error;
      options.log?.warn({ network, contract, fault: error.fault, err: error }, 'chain scan failed');
    } finally {
      await ctx.db
        .updateTable('chain_scans')
        .set({
          next_block: next.kind === 'block' ? next.block : null,
          next_time: next.kind === 'time' ? next.timeMs : null,
          // Scanned for the round at `now`: no instance scans it again before a later round.
          claimed_until: now,
          updated_at: now,
        })
        .where('network', '=', key.network)
        .where('address', '=', key.address)
        .where('contract', '=', key.contract)
        .execute();
    }
  }
  return result;
}

/**
 * Claims the scan of `key` for this round and gives where it starts; undefined when another
 * instance holds it. A first scan starts at the final block (EVM) or a lookup window back (Tron):
 * the transfers before it are older than any order still waiting for a hash it could match.
 */
async function claimScan(
  ctx: ScanContext,
  key: { readonly network: NetworkId; readonly address: string; readonly contract: string },
  settings: NetworkChainConfig,
  head: ChainHead,
  now: number,
): Promise<ScanPosition | undefined> {
  await ctx.db
    .insertInto('chain_scans')
    .values({
      ...key,
      // A young chain (a local one) may have no final block yet.
      next_block: settings.family === 'evm' ? Math.max(0, head.final + 1) : null,
      next_time: settings.family === 'evm' ? null : now - ctx.config.chainLookupWindowMs,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['network', 'address', 'contract']).doNothing())
    .execute();
  const claimed = await ctx.db
    .updateTable('chain_scans')
    .set({ claimed_until: now + SCAN_LEASE_MS })
    .where('network', '=', key.network)
    .where('address', '=', key.address)
    .where('contract', '=', key.contract)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .returning(['next_block', 'next_time'])
    .executeTakeFirst();
  if (claimed === undefined) return undefined;
  return claimed.next_block !== null
    ? { kind: 'block', block: claimed.next_block }
    : { kind: 'time', timeMs: claimed.next_time ?? now };
}

/** One transfer to the deposit address: a looking check woken, an order attached, or kept. */
async function takeTransfer(
  ctx: ScanContext,
  target: DepositTarget,
  coin: CryptoCurrency,
  transfer: IncomingTransfer,
  head: ChainHead,
  now: number,
): Promise<'attached' | 'unmatched' | { readonly woken: string[] }> {
  const hash = transfer.hash.toLowerCase();
  const network = target.reader.network;
  const known = await ctx.db
    .selectFrom('chain_checks')
    .select(['order_id', 'state'])
    .where('network', '=', network)
    .where('kind', '=', 'deposit')
    .where('tx_hash', '=', hash)
    .execute();
  if (known.length > 0) {
    // Named by a submitted hash: its own check judges it, now rather than after its backoff.
    const looking = known.filter((row) => row.state === 'looking').map((row) => row.order_id);
    if (looking.length > 0) {
      await ctx.db
        .updateTable('chain_checks')
        .set({ next_check_at: now })
        .where('kind', '=', 'deposit')
        .where('order_id', 'in', looking)
        .where('state', '=', 'looking')
        .execute();
    }
    return { woken: looking };
  }
  const decimals = await target.reader.decimals(target.contract);
  const candidates = await waitingFor(ctx.db, network, coin, transfer, decimals);
  const only = candidates.length === 1 ? candidates[0] : undefined;
  if (only !== undefined) {
    const lookup = await lookUpDeposit(target, only, hash);
    const attachment = await attachDeposit(ctx, target, only, hash, lookup, head, now, {
      actor: 'chain',
      actorId: null,
      reason: `deposit found on ${network} without its hash, matching this order alone: tx ${hash}`,
    }).catch((error: unknown) => {
      // Taken meanwhile (the seller pasted the hash, an operator acted): kept for operators.
      if (error instanceof AppError) return { attached: false } as const;
      throw error;
    });
    if (attachment.attached) return 'attached';
  }
  await ctx.db
    .insertInto('chain_incoming')
    .values({
      network,
      tx_hash: hash,
      contract: addressKey(transfer.contract),
      coin,
      sender: transfer.from,
      recipient: transfer.to,
      amount: transfer.amount.toString(),
      decimals,
      log_index: transfer.logIndex,
      block_number: transfer.blockNumber,
      block_time: transfer.blockTime,
      candidates: candidates.length,
      seen_at: now,
    })
    .onConflict((oc) => oc.columns(['network', 'tx_hash', 'contract', 'amount']).doNothing())
    .execute();
  return 'unmatched';
}

/** The sells waiting for their deposit that `transfer` could be: same coin, address, amount. */
async function waitingFor(
  db: Kysely<Database>,
  network: NetworkId,
  coin: CryptoCurrency,
  transfer: IncomingTransfer,
  decimals: number,
): Promise<OrderRow[]> {
  const orders = await db
    .selectFrom('orders')
    .select(ORDER_COLUMNS)
    .where('network', '=', network)
    .where('type', '=', 'SELL')
    .where('status', '=', 'WAITING_CRYPTO')
    .where('crypto_currency', '=', coin)
    .where('created_at', '<=', transfer.blockTime ?? Number.MAX_SAFE_INTEGER)
    .execute();
  return orders.filter((order) => {
    const requisites = JSON.parse(order.requisites ?? '{}') as { walletAddress?: string };
    return (
      sameAddress(requisites.walletAddress ?? '', transfer.to) &&
      unitsToTokenAmount(order.amount_units, decimals) === transfer.amount
    );
  });
}
