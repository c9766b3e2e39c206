/** A seller's deposit checked on the chain: what the submission and the chain checker share. */
import type { Insertable, Transaction } from 'kysely';
import { tokenAmountToDecimal, unitsToTokenAmount } from '../../shared/money';
import type { WalletRequisites } from '../../shared/api';
import type { NetworkId } from '../../shared/networks';
import {
  ChainUnavailable,
  confirmationsOf,
  type ChainHead,
  type ChainReader,
  type TokenTransfer,
  type TransactionFound,
} from './readers/chain-reader';
import type { NetworkChainConfig } from '../platform/config/chain-config';
import { judgeDeposit, type AmountRule, type DepositJudgement } from './deposit-rules';
import type { ServerContext } from '../platform/context';
import type { ChainChecksTable, Database, OrderRow } from '../platform/db/schema';

/** The first wait before an unknown hash is asked again; it doubles up to MAX_RETRY_MS. */
export const FIRST_RETRY_MS = 15_000;
export const MAX_RETRY_MS = 5 * 60_000;

/** Shown for Tron before solidification is known (19 of 27 super representatives); not the rule. */
const TRON_SOLIDIFIED_AFTER = 19;

export type DepositOrder = Pick<
  OrderRow,
  'id' | 'network' | 'crypto_currency' | 'amount_units' | 'requisites' | 'created_at'
>;

export interface DepositTarget {
  readonly reader: ChainReader;
  readonly settings: NetworkChainConfig;
  readonly contract: string;
}

export function depositTargetOf(
  ctx: Pick<ServerContext, 'chain' | 'config'>,
  order: Pick<DepositOrder, 'network' | 'crypto_currency'>,
): DepositTarget | undefined {
  const reader = ctx.chain[order.network];
  const settings = ctx.config.chain[order.network];
  if (reader === undefined || settings === 'manual') return undefined;
  const contract = settings.tokens[order.crypto_currency];
  return contract === undefined ? undefined : { reader, settings, contract };
}

/** Confirmations shown to the customer: EVM's configured count; Tron's head-to-solid distance. */
export function requiredConfirmations(
  settings: NetworkChainConfig,
  head: ChainHead | null,
): number {
  if (settings.family === 'evm') return settings.confirmations;
  return head === null ? TRON_SOLIDIFIED_AFTER : Math.max(1, head.latest - head.final + 1);
}

/**
 * A node's fault retries at the next round or its Retry-After, adding nothing to the backoff (a
 * fault is not "not found"); an unknown hash waits 15 s, doubling to 5 minutes.
 */
export function retryDelay(attempts: number, fault?: unknown): number {
  if (fault instanceof ChainUnavailable) {
    return Math.min(MAX_RETRY_MS, Math.max(1, fault.retryAfterMs ?? 0));
  }
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

/** How long a lookup waits for the node while a person waits on the screen. */
export const PERSON_WAITS_MS = 4_000;

/** A lookup and a head read, each settled within `waitMs`; no answer in time is a fault. */
export async function settledWithin<Lookup, Head>(
  network: NetworkId,
  method: string,
  waitMs: number,
  lookup: Promise<Lookup>,
  head: Promise<Head>,
): Promise<[PromiseSettledResult<Lookup>, PromiseSettledResult<Head>]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new ChainUnavailable(network, method, 'timeout', `no answer within ${waitMs} ms`));
    }, waitMs);
  });
  try {
    return await Promise.allSettled([Promise.race([lookup, late]), Promise.race([head, late])]);
  } finally {
    clearTimeout(timer);
  }
}

/** The node's fault of a settled lookup, if any; any other failure is our bug, and is thrown. */
export function nodeFaultOf(lookup: PromiseSettledResult<unknown>): ChainUnavailable | undefined {
  if (lookup.status === 'fulfilled') return undefined;
  const failure: unknown = lookup.reason;
  if (failure instanceof ChainUnavailable) return failure;
  throw failure instanceof Error ? failure : new Error('chain lookup failed', { cause: failure });
}

export type Judged<Problem> =
  | { readonly ok: true; readonly transfer: TokenTransfer }
  | { readonly ok: false; readonly problem: Problem };

/** A lookup's transaction, the token's decimals and the rule's judgement. */
export type HashLookup<Judgement> =
  | { readonly kind: 'not_found' }
  | {
      readonly kind: 'found';
      readonly tx: TransactionFound;
      readonly decimals: number;
      readonly judgement: Judgement;
    };

export type FirstCheck<Problem> =
  | { readonly kind: 'looking'; readonly row: Insertable<ChainChecksTable> }
  | { readonly kind: 'wrong'; readonly problem: Problem; readonly decimals: number }
  | {
      readonly kind: 'seen';
      readonly row: Insertable<ChainChecksTable>;
      readonly tx: TransactionFound;
      readonly transfer: TokenTransfer;
      readonly decimals: number;
    };

/** One lookup while a person waits; `wrong` writes no row, and a fault only keeps looking. */
export async function firstCheck<Problem>(
  ctx: Pick<ServerContext, 'config'>,
  target: DepositTarget,
  check: {
    readonly order: Pick<OrderRow, 'id' | 'network'>;
    readonly kind: ChainChecksTable['kind'];
    readonly hash: string;
    readonly method: string;
  },
  lookup: Promise<HashLookup<Judged<Problem>>>,
  now: number,
): Promise<FirstCheck<Problem>> {
  const { order } = check;
  const [settled, head] = await settledWithin(
    order.network,
    check.method,
    PERSON_WAITS_MS,
    lookup,
    target.reader.head(),
  );
  const known = head.status === 'fulfilled' ? head.value : null;
  const row = {
    order_id: order.id,
    kind: check.kind,
    network: order.network,
    tx_hash: check.hash.toLowerCase(),
    required_confirmations: requiredConfirmations(target.settings, known),
    attempts: 1,
    look_until: now + ctx.config.chainLookupWindowMs,
    created_at: now,
    updated_at: now,
  };
  if (settled.status === 'rejected' || settled.value.kind === 'not_found') {
    const fault = nodeFaultOf(settled);
    return {
      kind: 'looking',
      row: {
        ...row,
        state: 'looking',
        next_check_at: now + retryDelay(1, fault),
        last_fault: fault === undefined ? null : fault.message,
      },
    };
  }
  const { tx, decimals, judgement } = settled.value;
  if (!judgement.ok) return { kind: 'wrong', problem: judgement.problem, decimals };
  return {
    kind: 'seen',
    row: {
      ...row,
      ...transferColumns(tx, judgement.transfer, decimals),
      state: 'seen',
      confirmations: confirmationsBy(tx.blockNumber, known),
      next_check_at: now,
    },
    tx,
    transfer: judgement.transfer,
    decimals,
  };
}

export type DepositLookup = HashLookup<DepositJudgement>;

/** The amount a lookup holds a transfer to: the order's exact one, at least it, or `accepted`. */
export interface DepositAcceptance {
  readonly rule: AmountRule;
  readonly accepted?: string | null;
}

const ORDERS_OWN_AMOUNT: DepositAcceptance = { rule: 'exact' };

/** Looks `hash` up and judges it against the order; a node fault throws ChainUnavailable. */
export async function lookUpDeposit(
  target: DepositTarget,
  order: DepositOrder,
  hash: string,
  acceptance: DepositAcceptance = ORDERS_OWN_AMOUNT,
): Promise<DepositLookup> {
  const found = await target.reader.transaction(hash);
  if (found.status === 'not_found') return { kind: 'not_found' };
  const decimals = await target.reader.decimals(target.contract);
  const requisites = JSON.parse(order.requisites ?? '{}') as Partial<WalletRequisites>;
  const { rule, accepted } = acceptance;
  const judgement = judgeDeposit(found, {
    coin: order.crypto_currency,
    contract: target.contract,
    depositAddress: requisites.walletAddress ?? '',
    amount:
      accepted === undefined || accepted === null
        ? unitsToTokenAmount(order.amount_units, decimals)
        : BigInt(accepted),
    decimals,
    orderCreatedAt: order.created_at,
    rule,
  });
  return { kind: 'found', tx: found, decimals, judgement };
}

export function transferColumns(
  tx: TransactionFound,
  transfer: TokenTransfer,
  decimals: number,
): Pick<
  Insertable<ChainChecksTable>,
  | 'log_index'
  | 'block_number'
  | 'block_hash'
  | 'block_time'
  | 'amount'
  | 'decimals'
  | 'sender'
  | 'contract'
> {
  return {
    log_index: transfer.logIndex,
    block_number: tx.blockNumber,
    block_hash: tx.blockHash,
    block_time: tx.blockTime,
    amount: transfer.amount.toString(),
    decimals,
    sender: transfer.from,
    contract: transfer.contract,
  };
}

export function newDepositCheck(
  order: DepositOrder,
  hash: string,
  fields: Omit<
    Insertable<ChainChecksTable>,
    'order_id' | 'kind' | 'network' | 'tx_hash' | 'created_at' | 'updated_at'
  >,
  now: number,
): Insertable<ChainChecksTable> {
  return {
    order_id: order.id,
    kind: 'deposit',
    network: order.network,
    tx_hash: hash.toLowerCase(),
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

export async function insertDepositCheck(
  trx: Transaction<Database>,
  row: Insertable<ChainChecksTable>,
): Promise<void> {
  await trx.insertInto('chain_checks').values(row).execute();
}

export function confirmationsBy(blockNumber: number, head: ChainHead | null): number {
  return head === null ? 0 : confirmationsOf(blockNumber, head);
}

/** The audit trail's words for a deposit the chain confirmed: enough to find the transfer again. */
export function depositEvidence(evidence: {
  readonly network: string;
  readonly coin: string;
  readonly txHash: string;
  readonly logIndex: number;
  readonly blockNumber: number;
  readonly confirmations: number;
  readonly amount: bigint;
  readonly decimals: number;
  readonly sender: string;
  readonly contract: string;
}): string {
  const coins = tokenAmountToDecimal(evidence.amount, evidence.decimals);
  return (
    `confirmed on ${evidence.network}: ${coins} ${evidence.coin} ` +
    `(${evidence.amount} base units, ${evidence.decimals} decimals) from ${evidence.sender}, ` +
    `contract ${evidence.contract}, tx ${evidence.txHash} log ${evidence.logIndex}, ` +
    `block ${evidence.blockNumber}, ${evidence.confirmations} confirmations`
  );
}
