/**
 * A seller's deposit checked on the chain: what the submission
 * of a hash (tx-hash-submission.ts) and the chain checker (chain/chain-checker.ts)
 * share: which node and contract an order's deposit is read with, one lookup of a hash judged by
 * the one deposit rule (chain/deposit-rules.ts), the confirmations a network asks, the backoff of
 * a hash not found yet, the check row a lookup while a person waits starts (a payout's too:
 * payout-check.ts), and the audit trail's words for a confirmed deposit.
 */
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

/** The first wait before a hash the node does not know is asked again; it doubles from there. */
export const FIRST_RETRY_MS = 15_000;
/** The longest wait between two lookups of one hash. */
export const MAX_RETRY_MS = 5 * 60_000;

/**
 * The confirmations shown for a Tron deposit before its block's solidification is known from a
 * head: 2/3 of the 27 super representatives building on it, 19 blocks. The decision itself is
 * the node's `final` (isFinal), never this number.
 */
const TRON_SOLIDIFIED_AFTER = 19;

/** The order's fields a deposit is judged by. */
export type DepositOrder = Pick<
  OrderRow,
  'id' | 'network' | 'crypto_currency' | 'amount_units' | 'requisites' | 'created_at'
>;

/** Where an order's deposit is read: its network's reader, settings and the coin's contract. */
export interface DepositTarget {
  readonly reader: ChainReader;
  readonly settings: NetworkChainConfig;
  readonly contract: string;
}

/** The target of a sell's deposit, or undefined when its network is manual (no node). */
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

/**
 * Confirmations a deposit waits for on its network, as shown to the customer. On an EVM network
 * the configured count, which is also the reader's rule for `final`; on Tron the distance from
 * the head to the solidified block when a head is known (what solidification takes now).
 */
export function requiredConfirmations(
  settings: NetworkChainConfig,
  head: ChainHead | null,
): number {
  if (settings.family === 'evm') return settings.confirmations;
  return head === null ? TRON_SOLIDIFIED_AFTER : Math.max(1, head.latest - head.final + 1);
}

/**
 * When a hash is asked again: after a node's fault, when the node said (Retry-After) or else at
 * the next round (1 ms on: a round never claims a row twice); a fault is not "not found" and adds
 * nothing to its backoff. A hash the node does not know after `attempts` lookups waits 15 s,
 * doubling to 5 minutes.
 */
export function retryDelay(attempts: number, fault?: unknown): number {
  if (fault instanceof ChainUnavailable) {
    return Math.min(MAX_RETRY_MS, Math.max(1, fault.retryAfterMs ?? 0));
  }
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

/**
 * How long a lookup waits for the node while a person waits on the screen: a seller submitting a
 * hash, an operator completing a buy or attaching a deposit.
 */
export const PERSON_WAITS_MS = 4_000;

/**
 * A lookup and a head read side by side while a person waits on the screen: each settles within
 * `waitMs` (PERSON_WAITS_MS), a call with no answer in time as a ChainUnavailable timeout of
 * `method` — a fault, never "not found".
 */
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

/**
 * The node's fault of a lookup that settled while a person waited: undefined when the node
 * answered. A fault (or no answer in time) is "not confirmed yet", never "not found"; any other
 * failure is our bug, and is thrown.
 */
export function nodeFaultOf(lookup: PromiseSettledResult<unknown>): ChainUnavailable | undefined {
  if (lookup.status === 'fulfilled') return undefined;
  const failure: unknown = lookup.reason;
  if (failure instanceof ChainUnavailable) return failure;
  throw failure instanceof Error ? failure : new Error('chain lookup failed', { cause: failure });
}

/** A rule's judgement of a transaction: the transfer it took, or its problem. */
export type Judged<Problem> =
  | { readonly ok: true; readonly transfer: TokenTransfer }
  | { readonly ok: false; readonly problem: Problem };

/**
 * What a lookup of a hash found, whichever rule judged it (the deposit's or the payout's): the
 * transaction, the token's decimals and the rule's judgement.
 */
export type HashLookup<Judgement> =
  | { readonly kind: 'not_found' }
  | {
      readonly kind: 'found';
      readonly tx: TransactionFound;
      readonly decimals: number;
      readonly judgement: Judgement;
    };

/** What the check of a hash starts as, after one lookup while a person waits. */
export type FirstCheck<Problem> =
  /** The node does not know the hash yet or did not answer: the row goes on looking. */
  | { readonly kind: 'looking'; readonly row: Insertable<ChainChecksTable> }
  /** The transaction is not what the order needs: no row, the problem for the person. */
  | { readonly kind: 'wrong'; readonly problem: Problem; readonly decimals: number }
  /** The right transfer: the row follows it to its confirmations. */
  | {
      readonly kind: 'seen';
      readonly row: Insertable<ChainChecksTable>;
      readonly tx: TransactionFound;
      readonly transfer: TokenTransfer;
      readonly decimals: number;
    };

/**
 * Looks a hash up while a person waits on the screen (a seller submitting it, an operator
 * completing a buy with it), the head read beside it, and gives the check row it starts with:
 * `looking` when the node does not know it or did not answer within PERSON_WAITS_MS (a fault is
 * never "not found"), `seen` with the transfer's columns and the confirmations the head shows
 * when the rule took it; `wrong` writes no row.
 */
export async function firstCheck<Problem>(
  ctx: Pick<ServerContext, 'config'>,
  target: DepositTarget,
  check: {
    readonly order: Pick<OrderRow, 'id' | 'network'>;
    readonly kind: ChainChecksTable['kind'];
    readonly hash: string;
    /** The name a lookup with no answer in time is reported under. */
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

/** What a lookup of a hash found, judged as the order's deposit. */
export type DepositLookup = HashLookup<DepositJudgement>;

/**
 * The amount a lookup holds a transfer to: exactly the order's own (the chain's judgement), at
 * least it (an operator attaching a transfer of more, shown both amounts), or exactly what an
 * operator accepted before (`accepted`, base units, kept on the check).
 */
export interface DepositAcceptance {
  readonly rule: AmountRule;
  readonly accepted?: string | null;
}

const ORDERS_OWN_AMOUNT: DepositAcceptance = { rule: 'exact' };

/**
 * Looks `hash` up and judges it against the order: one `transaction` call and (once per
 * contract and reader) `decimals`. A node fault throws ChainUnavailable: never "not found".
 */
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

/** The columns of a transfer found right: the evidence kept on the check row. */
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

/** A new check row of an order's deposit, looking or seen. */
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

/** Writes an order's deposit check in the caller's transaction. */
export async function insertDepositCheck(
  trx: Transaction<Database>,
  row: Insertable<ChainChecksTable>,
): Promise<void> {
  await trx.insertInto('chain_checks').values(row).execute();
}

/** The confirmations of a transfer in `blockNumber` by `head`, when there is one. */
export function confirmationsBy(blockNumber: number, head: ChainHead | null): number {
  return head === null ? 0 : confirmationsOf(blockNumber, head);
}

/**
 * The audit trail's words for a deposit the chain confirmed (order_events.reason): everything an
 * operator or an auditor needs to find the transfer again.
 */
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
