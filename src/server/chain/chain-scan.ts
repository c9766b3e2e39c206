/**
 * The deposit address's scan (docs/chain-checks.md, "Deposits without a hash"): once a round per
 * network and contract, whatever the number of waiting orders. A scan is claimed per round
 * through `claimed_until`, and its cursor moves only once what it found is written.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Insertable, Kysely } from 'kysely';
import { tokenAmountToDecimal, unitsToTokenAmount } from '../../shared/money';
import { isFinalStatus } from '../../shared/order-status';
import type { CryptoCurrency, NetworkId } from '../../shared/networks';
import {
  ChainUnavailable,
  type ChainHead,
  type ChainReader,
  type IncomingTransfer,
  type ScanPosition,
  type NetworkFigure,
} from './readers/chain-reader';
import type { NetworkChainConfig } from '../platform/config/chain-config';
import type { ServerContext } from '../platform/context';
import { addressKey } from './deposit-rules';
import { ORDER_COLUMNS, type ChainIncomingTable, type Database } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { alertOperatorsOf } from '../platform/outbox';
import { flagForOperators } from '../orders';
import { holderOf, type AmountHolder } from './amount-holders';
import { depositAddressFor } from '../orders';
import { attachDeposit } from './deposit-attach';
import { lookUpDeposit, type DepositTarget } from './deposit-check';

type ScanContext = Pick<ServerContext, 'db' | 'config'>;

interface ScanOptions {
  readonly signal?: AbortSignal | undefined;
  readonly log?: FastifyBaseLogger | undefined;
}

/** Longer than the scan's one call can take. */
const SCAN_LEASE_MS = 2 * 60_000;

export interface ScanResult {
  /** Orders whose looking check named a transfer found: looked up this round. */
  readonly woken: string[];
  attached: number;
  unmatched: number;
  /** Transfers of a sell's exact amount that the sell could not take: flagged on it. */
  flagged: number;
  dust: number;
}

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
  const result: ScanResult = { woken: [], attached: 0, unmatched: 0, flagged: 0, dust: 0 };
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
        if (typeof done === 'string') result[done] += 1;
        else result.woken.push(...done.woken);
      }
      next = found.next;
    } catch (error) {
      if (!(error instanceof ChainUnavailable)) throw error;
      options.log?.warn({ network, contract, fault: error.fault, err: error }, 'chain scan failed');
    } finally {
      const lag = next.kind === 'block' ? Math.max(0, head.final + 1 - next.block) : null;
      await ctx.db
        .updateTable('chain_scans')
        .set({
          next_block: next.kind === 'block' ? next.block : null,
          next_time: next.kind === 'time' ? next.timeMs : null,
          lag_blocks: lag,
          claimed_until: now,
          updated_at: now,
        })
        .where('network', '=', key.network)
        .where('address', '=', key.address)
        .where('contract', '=', key.contract)
        .execute();
      if (lag !== null && lag >= SCAN_BEHIND_ALERT_BLOCKS)
        await tellScanBehind(ctx, network, lag, now);
    }
  }
  return result;
}

/** Beyond what a round catches up (8 ranges of 1 000), a scan this far behind needs a person. */
export const SCAN_BEHIND_ALERT_BLOCKS = 10_000;

/** At most once an hour per network. */
async function tellScanBehind(
  ctx: ScanContext,
  network: NetworkId,
  lagBlocks: number,
  now: number,
): Promise<void> {
  const hour = Math.floor(now / 3_600_000);
  await ctx.db
    .transaction()
    .execute((trx) =>
      alertOperatorsOf(
        trx,
        'scan_behind',
        { network, lagBlocks },
        `scan_behind:${network}:${hour}`,
        now,
      ),
    );
}

/**
 * Undefined when another instance holds the scan. A first scan starts at the final block (EVM) or
 * a lookup window back (Tron): older transfers predate every order still waiting.
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

async function takeTransfer(
  ctx: ScanContext,
  target: DepositTarget,
  coin: CryptoCurrency,
  transfer: IncomingTransfer,
  head: ChainHead,
  now: number,
): Promise<'attached' | 'unmatched' | 'flagged' | 'dust' | { readonly woken: string[] }> {
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
  const key = { network, coin };
  const holdMs = ctx.config.depositAmountHoldMs;
  const holder = await holderOf(ctx.db, key, transfer.amount, decimals, now, holdMs);
  const incoming = incomingRow(transfer, { network, coin, decimals, now });
  if (holder === undefined) {
    // Dust (an address poisoner's, say) is counted, never put before operators.
    const dust = transfer.amount < unitsToTokenAmount(ctx.config.chainDustBelowUnits, decimals);
    if (dust) {
      await keepIncoming(ctx.db, { ...incoming, dust: 1 });
      return 'dust';
    }
    await keepUnmatched(ctx.db, incoming, now);
    return 'unmatched';
  }
  if (
    holder.status === 'WAITING_CRYPTO' &&
    (await attachToHolder(ctx, target, holder, hash, head, now))
  ) {
    return 'attached';
  }
  // A sell that cannot take its exact amount keeps it, flagged, off the unmatched list.
  await flagHolder(ctx.db, holder, incoming, now);
  return 'flagged';
}

async function attachToHolder(
  ctx: ScanContext,
  target: DepositTarget,
  holder: AmountHolder,
  hash: string,
  head: ChainHead,
  now: number,
): Promise<boolean> {
  const order = await ctx.db
    .selectFrom('orders')
    .select(ORDER_COLUMNS)
    .where('id', '=', holder.id)
    .executeTakeFirstOrThrow();
  const network = target.reader.network;
  const lookup = await lookUpDeposit(target, order, hash);
  const attachment = await attachDeposit(ctx, target, order, hash, lookup, head, now, {
    actor: 'chain',
    actorId: null,
    reason: `deposit of this order's exact amount found on ${network} without its hash: tx ${hash}`,
  }).catch((error: unknown) => {
    // Taken meanwhile (the seller pasted the hash, an operator acted): left to operators.
    if (error instanceof AppError) return { attached: false } as const;
    throw error;
  });
  return attachment.attached;
}

function incomingRow(
  transfer: IncomingTransfer,
  seen: {
    readonly network: NetworkId;
    readonly coin: CryptoCurrency;
    readonly decimals: number;
    readonly now: number;
  },
): Insertable<ChainIncomingTable> {
  return {
    network: seen.network,
    tx_hash: transfer.hash.toLowerCase(),
    contract: addressKey(transfer.contract),
    coin: seen.coin,
    sender: transfer.from,
    recipient: transfer.to,
    amount: transfer.amount.toString(),
    decimals: seen.decimals,
    log_index: transfer.logIndex,
    block_number: transfer.blockNumber,
    block_time: transfer.blockTime,
    candidates: 0,
    seen_at: seen.now,
  };
}

async function keepIncoming(
  db: Kysely<Database>,
  row: Insertable<ChainIncomingTable>,
): Promise<void> {
  await db
    .insertInto('chain_incoming')
    .values(row)
    .onConflict((oc) => oc.columns(['network', 'tx_hash', 'contract', 'amount']).doNothing())
    .execute();
}

async function keepUnmatched(
  db: Kysely<Database>,
  incoming: Insertable<ChainIncomingTable>,
  now: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await keepIncoming(trx, incoming);
    const facts = {
      network: incoming.network,
      coin: incoming.coin,
      amount: tokenAmountToDecimal(BigInt(incoming.amount), incoming.decimals),
      sender: incoming.sender,
      txHash: incoming.tx_hash,
    };
    const event = `incoming:${incoming.network}:${incoming.tx_hash}:${incoming.amount}`;
    await alertOperatorsOf(trx, 'unmatched_deposit', facts, event, now);
  });
}

/** Once per sell and hash. */
async function flagHolder(
  db: Kysely<Database>,
  holder: AmountHolder,
  incoming: Insertable<ChainIncomingTable>,
  now: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await keepIncoming(trx, { ...incoming, candidates: 1, order_id: holder.id });
    const event = `chain:holder:${holder.id}:${incoming.tx_hash}`;
    await flagForOperators(trx, holder.id, 'flag_chain_deposit', event, now, {
      chainFlag: isFinalStatus(holder.status) ? 'late_deposit' : 'other_hash',
      chainAmount: tokenAmountToDecimal(BigInt(incoming.amount), incoming.decimals),
      chainHash: incoming.tx_hash,
    });
  });
}

export async function chainDustCount(db: Kysely<Database>): Promise<NetworkFigure[]> {
  const rows = await db
    .selectFrom('chain_incoming')
    .select((eb) => ['network', eb.fn.countAll<number | string>().as('count')])
    .where('dust', '=', 1)
    .groupBy('network')
    .execute();
  return rows.map((row) => ({ network: row.network, value: Number(row.count) }));
}

export async function chainScanLag(db: Kysely<Database>): Promise<NetworkFigure[]> {
  const rows = await db
    .selectFrom('chain_scans')
    .select((eb) => ['network', eb.fn.max<number>('lag_blocks').as('lag')])
    .where('lag_blocks', 'is not', null)
    .groupBy('network')
    .execute();
  return rows.map((row) => ({ network: row.network, value: row.lag }));
}
