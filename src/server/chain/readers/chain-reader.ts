/**
 * The one port through which the server reads a chain:
 * what a transaction moved, to whom, how final, and which transfers reached an address. EVM
 * networks (evm-reader.ts) and Tron (tron-reader.ts) answer in the same shapes, so nothing above
 * this folder sees a chain's wire format. Whether a transfer is the right deposit is not decided
 * here: that is a rule of the order logic.
 */
import type { NetworkId } from '../../../shared/networks';

/** One ERC-20 / TRC-20 `Transfer` event, amounts in the token's base units. */
export interface TokenTransfer {
  /**
   * Which event of the transaction this is. EVM: the log's index in its block, as the node
   * reports it; Tron: the event's position in the transaction's `log` array. Either way
   * (network, hash, logIndex) names one transfer for good, which the unique deposit key needs.
   */
  readonly logIndex: number;
  /** The token contract that emitted the event: EIP-55 `0x…` on EVM networks, `T…` on Tron. */
  readonly contract: string;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
}

/** A transaction in a block. `success: false` is a transaction that was mined and reverted. */
export interface TransactionFound {
  readonly status: 'found';
  readonly hash: string;
  readonly success: boolean;
  readonly blockNumber: number;
  /**
   * The block's hash, where the lookup gives it (EVM receipts do; Tron's transaction info does
   * not): a transaction re-mined at the same height after a reorganisation is in another block.
   */
  readonly blockHash: string | null;
  /** The block's time, in milliseconds since the epoch. */
  readonly blockTime: number;
  /** Every Transfer event the transaction emitted, of any contract: the caller judges them. */
  readonly transfers: readonly TokenTransfer[];
}

/**
 * What a lookup by hash answers. `not_found` means the node answered and knows no such mined
 * transaction (not broadcast yet, dropped, or its block was reorganised away); a node that did not
 * answer throws {@link ChainUnavailable} instead, never this.
 */
export type TransactionLookup = TransactionFound | { readonly status: 'not_found' };

/**
 * The network's head, read once per interval whatever the number of waiting orders.
 * `latest`: the newest block; `final`: the newest block the network counts as final. On EVM
 * networks that is `latest - confirmations + 1` (the configured count, the transaction's own block
 * counting as the first); on Tron it is the solidified block (`/walletsolidity/getnowblock`).
 */
export interface ChainHead {
  readonly latest: number;
  readonly final: number;
}

/** Confirmations of a transaction mined in `blockNumber`: 1 in its own block, 0 if beyond the head. */
export function confirmationsOf(blockNumber: number, head: ChainHead): number {
  return Math.max(0, head.latest - blockNumber + 1);
}

/** Whether a transaction mined in `blockNumber` is final by the network's rule. */
export function isFinal(blockNumber: number, head: ChainHead): boolean {
  return blockNumber <= head.final;
}

/**
 * Where a scan for incoming transfers starts, and where the next one should: EVM logs are
 * filtered by block number, TronGrid's account history by block time (it has no block filter).
 */
export type ScanPosition =
  | { readonly kind: 'block'; readonly block: number }
  | { readonly kind: 'time'; readonly timeMs: number };

/**
 * A transfer seen arriving at a watched address. Tron's account history does not carry the block
 * number or the event's index, so those may be null there: the caller checks any candidate with
 * {@link ChainReader.transaction}, which gives both, before attaching it to an order.
 */
export interface IncomingTransfer {
  readonly hash: string;
  readonly logIndex: number | null;
  readonly blockNumber: number | null;
  readonly blockTime: number | null;
  readonly contract: string;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
}

export interface IncomingTransfers {
  readonly transfers: readonly IncomingTransfer[];
  /**
   * Where the next scan starts. For blocks it is the block after the last one scanned (a scan
   * covers at most the reader's block span, and never past the head); for time it is the last
   * transfer's time, inclusive, so a transfer in the same millisecond is not missed and may be
   * seen twice: the unique deposit key absorbs repeats (a reader whose call could not get past
   * one millisecond moves a millisecond on rather than read it again forever).
   */
  readonly next: ScanPosition;
}

export interface ChainReader {
  readonly network: NetworkId;
  /** The transaction and its Transfer events, or `not_found`. */
  transaction(hash: string): Promise<TransactionLookup>;
  /** The head and the final block; see {@link ChainHead}. */
  head(): Promise<ChainHead>;
  /** The token's `decimals()`, read once per contract and kept (a token's decimals never change). */
  decimals(contract: string): Promise<number>;
  /**
   * Transfers of `contract` to `address` from `since` on, oldest first, bounded per call. An EVM
   * scan stops at `head` when given (the round's, read once), otherwise reads the head itself.
   */
  transfersTo(
    address: string,
    contract: string,
    since: ScanPosition,
    head?: ChainHead,
  ): Promise<IncomingTransfers>;
}

/** Why a call to a chain failed. */
export type ChainFault =
  | 'network' // connection refused, reset, DNS
  | 'timeout'
  | 'http' // an HTTP status other than 429
  | 'rate_limited' // HTTP 429, or a JSON-RPC "limit exceeded"
  | 'rpc' // a JSON-RPC error answer
  | 'bad_answer' // an answer that is not what the API documents
  | 'unverified'; // not asked: the node has not answered its network's chain (checked-reader.ts)

/**
 * Every fault of a chain call: the node could not be asked or did not answer properly. Callers
 * retry later (after `retryAfterMs` when the provider said so); a fault is never "not found".
 */
export class ChainUnavailable extends Error {
  constructor(
    readonly network: NetworkId,
    readonly method: string,
    readonly fault: ChainFault,
    message: string,
    readonly details: {
      readonly status?: number;
      /** From a 429's Retry-After (seconds or an HTTP date), in milliseconds. */
      readonly retryAfterMs?: number;
      readonly cause?: unknown;
    } = {},
  ) {
    super(`${network} ${method}: ${message}`, { cause: details.cause });
    this.name = 'ChainUnavailable';
  }

  get status(): number | undefined {
    return this.details.status;
  }

  get retryAfterMs(): number | undefined {
    return this.details.retryAfterMs;
  }
}

/** One finished call, for the metrics: its network, method, outcome and duration. */
export interface ChainCallEvent {
  readonly network: NetworkId;
  readonly method: string;
  readonly outcome: 'ok' | ChainFault;
  readonly durationMs: number;
}

/**
 * The hook a reader reports each call to. The server passes one that feeds its Prometheus
 * counters; this folder does not import prom-client so that it stays a plain client.
 */
export interface ChainCallObserver {
  onCall(event: ChainCallEvent): void;
}

/** A simple observer that counts calls and failures by network and method (tests, benches). */
export class ChainCallCounter implements ChainCallObserver {
  readonly #calls = new Map<string, number>();
  readonly #failures = new Map<string, number>();

  onCall(event: ChainCallEvent): void {
    const key = `${event.network} ${event.method}`;
    this.#calls.set(key, (this.#calls.get(key) ?? 0) + 1);
    if (event.outcome !== 'ok') this.#failures.set(key, (this.#failures.get(key) ?? 0) + 1);
  }

  /** Calls made, of one method or (without it) all methods, on `network`. */
  calls(network: NetworkId, method?: string): number {
    return sumMatching(this.#calls, network, method);
  }

  failures(network: NetworkId, method?: string): number {
    return sumMatching(this.#failures, network, method);
  }
}

function sumMatching(counts: Map<string, number>, network: NetworkId, method?: string): number {
  let total = 0;
  for (const [key, count] of counts) {
    const [keyNetwork, keyMethod] = key.split(' ');
    if (keyNetwork === network && (method === undefined || keyMethod === method)) total += count;
  }
  return total;
}

/**
 * Starts the clock of one call of `method`: the function it gives back reports the call to
 * `observer` once it ends, with its outcome and how long it took.
 */
export function startCall(
  observer: ChainCallObserver,
  network: NetworkId,
  method: string,
): (outcome: 'ok' | ChainFault) => void {
  const started = performance.now();
  return (outcome) => {
    observer.onCall({ network, method, outcome, durationMs: performance.now() - started });
  };
}

/** An observer that records nothing, when the caller passes none. */
export const NO_OBSERVER: ChainCallObserver = { onCall: () => undefined };

/** How long one call to a node may take before it counts as a timeout fault. */
export const DEFAULT_CALL_TIMEOUT_MS = 10_000;

/** The reader of each network read from a node; a manual network has none. */
export type ChainReaders = Readonly<Partial<Record<NetworkId, ChainReader>>>;

/** One network's figure of the chain checks (a backlog, a count, a lag), as metrics export it. */
export interface NetworkFigure {
  readonly network: NetworkId;
  readonly value: number;
}
