/**
 * The one port through which the server reads a chain: EVM and Tron readers answer in the same
 * shapes, so nothing above this folder sees a wire format. Whether a transfer is right is not
 * decided here.
 */
import type { NetworkId } from '../../../shared/networks';

/** One ERC-20 / TRC-20 `Transfer` event, amounts in base units. */
export interface TokenTransfer {
  /** EVM: the log's index in its block; Tron: its place in `log`. Unique with network and hash. */
  readonly logIndex: number;
  readonly contract: string;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
}

/** A mined transaction; `success: false` is one that reverted. */
export interface TransactionFound {
  readonly status: 'found';
  readonly hash: string;
  readonly success: boolean;
  readonly blockNumber: number;
  /** Null where the lookup does not give it (Tron): a re-mined transaction is in another block. */
  readonly blockHash: string | null;
  readonly blockTime: number;
  /** Every Transfer event of any contract: the caller judges them. */
  readonly transfers: readonly TokenTransfer[];
}

/** `not_found`: the node answered and knows no such transaction; a node that fails throws. */
export type TransactionLookup = TransactionFound | { readonly status: 'not_found' };

/** The head: `final` is `latest - confirmations + 1` on EVM, the solidified block on Tron. */
export interface ChainHead {
  readonly latest: number;
  readonly final: number;
}

export function confirmationsOf(blockNumber: number, head: ChainHead): number {
  return Math.max(0, head.latest - blockNumber + 1);
}

export function isFinal(blockNumber: number, head: ChainHead): boolean {
  return blockNumber <= head.final;
}

/** EVM logs are filtered by block number, TronGrid's account history by block time. */
export type ScanPosition =
  | { readonly kind: 'block'; readonly block: number }
  | { readonly kind: 'time'; readonly timeMs: number };

/** A transfer seen arriving; Tron leaves block and index null, so a candidate is read again. */
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
   * By time the next scan starts at the last transfer's time, inclusive, so a transfer in the same
   * millisecond is not missed; the unique deposit key absorbs repeats.
   */
  readonly next: ScanPosition;
}

export interface ChainReader {
  readonly network: NetworkId;
  transaction(hash: string): Promise<TransactionLookup>;
  head(): Promise<ChainHead>;
  /** Read once per contract and kept: a token's decimals never change. */
  decimals(contract: string): Promise<number>;
  /** Transfers of `contract` to `address` from `since`, oldest first; EVM stops at `head`. */
  transfersTo(
    address: string,
    contract: string,
    since: ScanPosition,
    head?: ChainHead,
  ): Promise<IncomingTransfers>;
}

export type ChainFault =
  | 'network' // connection refused, reset, DNS
  | 'timeout'
  | 'http' // an HTTP status other than 429
  | 'rate_limited' // HTTP 429, or a JSON-RPC "limit exceeded"
  | 'rpc' // a JSON-RPC error answer
  | 'bad_answer' // an answer that is not what the API documents
  | 'unverified'; // not asked: the node has not answered its network's chain (checked-reader.ts)

/** A chain call that failed: callers retry later; a fault is never "not found". */
export class ChainUnavailable extends Error {
  constructor(
    readonly network: NetworkId,
    readonly method: string,
    readonly fault: ChainFault,
    message: string,
    readonly details: {
      readonly status?: number;
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

export interface ChainCallEvent {
  readonly network: NetworkId;
  readonly method: string;
  readonly outcome: 'ok' | ChainFault;
  readonly durationMs: number;
}

/** Each call is reported here, so this folder needs no prom-client and stays a plain client. */
export interface ChainCallObserver {
  onCall(event: ChainCallEvent): void;
}

/** Counts calls and failures by network and method (tests, benches). */
export class ChainCallCounter implements ChainCallObserver {
  readonly #calls = new Map<string, number>();
  readonly #failures = new Map<string, number>();

  onCall(event: ChainCallEvent): void {
    const key = `${event.network} ${event.method}`;
    this.#calls.set(key, (this.#calls.get(key) ?? 0) + 1);
    if (event.outcome !== 'ok') this.#failures.set(key, (this.#failures.get(key) ?? 0) + 1);
  }

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

/** Starts timing a call of `method`; the function it returns reports it to `observer`. */
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

export const NO_OBSERVER: ChainCallObserver = { onCall: () => undefined };

export const DEFAULT_CALL_TIMEOUT_MS = 10_000;

/** A manual network has no reader. */
export type ChainReaders = Readonly<Partial<Record<NetworkId, ChainReader>>>;

export interface NetworkFigure {
  readonly network: NetworkId;
  readonly value: number;
}
