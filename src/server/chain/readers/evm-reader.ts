/**
 * The chain reader of the EVM networks (BEP20, ERC20, Polygon, Arbitrum, Optimism, Base) over
 * JSON-RPC with viem. viem's own retries are off: a fault comes back at once as
 * ChainUnavailable and the chain checker decides when to ask again, so that the number of calls
 * stays bounded and counted whatever the number of waiting orders.
 */
import type { Hash, PublicClient } from 'viem';
import { remember } from '../../platform/bounded-map';
import { parseRetryAfter } from '../../platform/http/retry-after';
import {
  ChainUnavailable,
  DEFAULT_CALL_TIMEOUT_MS,
  NO_OBSERVER,
  startCall,
  type ChainCallObserver,
  type ChainFault,
  type ChainHead,
  type ChainReader,
  type IncomingTransfer,
  type IncomingTransfers,
  type ScanPosition,
  type TokenTransfer,
  type TransactionLookup,
} from './chain-reader';
import { viemPackage } from '../../platform/packages';
import type { EvmNetworkId } from '../../../shared/networks';

export interface EvmReaderOptions {
  readonly network: EvmNetworkId;
  readonly rpcUrl: string;
  /** Blocks a transfer waits for, its own included (chain-config.ts). */
  readonly confirmations: number;
  readonly timeoutMs?: number;
  readonly observer?: ChainCallObserver;
  /**
   * The most blocks one `eth_getLogs` covers. Hosted nodes refuse wide ranges (often above
   * 1 000–10 000 blocks, some far fewer on free plans), so a scan advances by at most this much.
   */
  readonly maxLogBlocks?: number;
  /**
   * Sends the calls made in the same tick as one JSON-RPC batch (viem's `batch`). Off by
   * default: some hosted nodes refuse or meter batches; turn it on where the provider allows.
   */
  readonly batch?: boolean;
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const DEFAULT_MAX_LOG_BLOCKS = 1_000;
/** `eth_getLogs` calls one scan of one contract makes at most, however far behind it is. */
export const RANGES_PER_SCAN = 8;

/**
 * Whether a node refused an `eth_getLogs` for its block range or its result's size: each
 * provider words it its own way ("block range is too wide", "query returned more than 10000
 * results", "Log response size exceeded", "limit exceeded"), as a JSON-RPC error, never as
 * HTTP 429 (that is a rate limit, waited out, not a smaller range).
 */
function isRangeRefusal(error: unknown): boolean {
  if (!(error instanceof ChainUnavailable) || error.method !== 'getLogs') return false;
  if (error.fault !== 'rpc' && error.fault !== 'rate_limited') return false;
  if (error.details.status !== undefined) return false;
  return /range|too (many|large|wide)|more than|size|limit|exceed/i.test(error.message);
}
/** Block times kept by block hash: a block's time never changes, a reorganised block has another hash. */
const BLOCK_TIMES_KEPT = 1_000;

/** A safe integer from a block number: they fit for centuries, but a node may answer nonsense. */
function blockNumberOf(value: bigint, network: EvmNetworkId, method: string): number {
  if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new ChainUnavailable(network, method, 'bad_answer', `block number ${value} out of range`);
  }
  return Number(value);
}

/** Classifies whatever viem threw into one fault; anything unrecognised is a bad answer. */
function faultOf(error: unknown): {
  fault: ChainFault;
  message: string;
  status?: number;
  retryAfterMs?: number;
} {
  if (error instanceof ChainUnavailable) return { fault: error.fault, message: error.message };
  const {
    BaseError,
    HttpRequestError,
    LimitExceededRpcError,
    RpcError,
    RpcRequestError,
    TimeoutError,
  } = viemPackage();
  if (!(error instanceof BaseError)) {
    return { fault: 'network', message: error instanceof Error ? error.message : String(error) };
  }
  const timeout = error.walk((e) => e instanceof TimeoutError);
  if (timeout !== null) return { fault: 'timeout', message: 'the node did not answer in time' };
  const limited = error.walk((e) => e instanceof LimitExceededRpcError);
  if (limited instanceof BaseError) {
    return { fault: 'rate_limited', message: limited.details || error.shortMessage };
  }
  const request = error.walk((e) => e instanceof HttpRequestError);
  if (request instanceof HttpRequestError) {
    const status = request.status;
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(request.headers?.get('retry-after'));
      return {
        fault: 'rate_limited',
        message: 'HTTP 429',
        status,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      };
    }
    if (status === undefined) return { fault: 'network', message: request.details };
    if (status >= 200 && status < 300) return { fault: 'bad_answer', message: request.details };
    return { fault: 'http', message: `HTTP ${status}`, status };
  }
  const rpc = error.walk((e) => e instanceof RpcRequestError || e instanceof RpcError);
  if (rpc !== null) {
    // The node's own words (viem's short message only names the JSON-RPC code): a provider
    // says there why it refused, a block range too wide, say.
    const said = rpc instanceof BaseError ? rpc.details : '';
    return { fault: 'rpc', message: said === '' ? error.shortMessage : said };
  }
  return { fault: 'bad_answer', message: error.shortMessage };
}

export class EvmReader implements ChainReader {
  readonly network: EvmNetworkId;
  readonly #client: PublicClient;
  readonly #confirmations: number;
  readonly #observer: ChainCallObserver;
  #logSpan: number;
  /** Whether the node is asked its `safe` block: until it answers the tag with an error. */
  #asksSafe = true;
  readonly #decimals = new Map<string, Promise<number>>();
  readonly #blockTimes = new Map<string, number>();
  readonly #viem = viemPackage();
  readonly #transferEvent = this.#viem.parseAbiItem(
    'event Transfer(address indexed from, address indexed to, uint256 value)',
  );

  constructor(options: EvmReaderOptions) {
    this.network = options.network;
    this.#confirmations = options.confirmations;
    this.#observer = options.observer ?? NO_OBSERVER;
    this.#logSpan = options.maxLogBlocks ?? DEFAULT_MAX_LOG_BLOCKS;
    const { createPublicClient, http } = this.#viem;
    this.#client = createPublicClient({
      transport: http(options.rpcUrl, {
        retryCount: 0,
        timeout: options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
        batch: options.batch ?? false,
      }),
      // viem keeps the block number for a few seconds by default; the chain checker asks once
      // per interval and wants the node's answer, not a copy.
      cacheTime: 0,
    });
  }

  /** Runs one call to the node, reports it, and turns every failure into ChainUnavailable. */
  async #call<T>(method: string, run: () => Promise<T>): Promise<T> {
    const report = startCall(this.#observer, this.network, method);
    try {
      const result = await run();
      report('ok');
      return result;
    } catch (error) {
      const { fault, message, ...details } = faultOf(error);
      report(fault);
      throw new ChainUnavailable(this.network, method, fault, message, {
        ...details,
        cause: error,
      });
    }
  }

  async transaction(hash: string): Promise<TransactionLookup> {
    if (!TX_HASH.test(hash)) throw new TypeError(`not an EVM transaction hash: ${hash}`);
    const receipt = await this.#call('getTransactionReceipt', async () => {
      try {
        return await this.#client.getTransactionReceipt({ hash: hash as Hash });
      } catch (error) {
        // The node answered null: it knows no mined transaction by this hash.
        if (error instanceof this.#viem.TransactionReceiptNotFoundError) return null;
        throw error;
      }
    });
    if (receipt === null) return { status: 'not_found' };
    const blockNumber = blockNumberOf(receipt.blockNumber, this.network, 'getTransactionReceipt');
    const blockTime = await this.#blockTime(receipt.blockHash);
    // strict: a log that does not decode as ERC-20 Transfer (an ERC-721 Transfer indexes its
    // third argument) is not a token transfer and is left out.
    const { erc20Abi, getAddress, parseEventLogs } = this.#viem;
    const events = parseEventLogs({
      abi: erc20Abi,
      eventName: 'Transfer',
      logs: receipt.logs,
      strict: true,
    });
    const transfers: TokenTransfer[] = events.map((event) => ({
      logIndex: event.logIndex,
      contract: getAddress(event.address),
      from: getAddress(event.args.from),
      to: getAddress(event.args.to),
      amount: event.args.value,
    }));
    return {
      status: 'found',
      hash: receipt.transactionHash,
      success: receipt.status === 'success',
      blockNumber,
      blockHash: receipt.blockHash.toLowerCase(),
      blockTime,
      transfers,
    };
  }

  async #blockTime(blockHash: Hash): Promise<number> {
    const known = this.#blockTimes.get(blockHash);
    if (known !== undefined) return known;
    const block = await this.#call('getBlock', async () => {
      try {
        return await this.#client.getBlock({ blockHash });
      } catch (error) {
        // The receipt named this block a moment ago: it was reorganised away in between. Not
        // "not found" (the transaction may be in another block now): ask again later.
        if (error instanceof this.#viem.BlockNotFoundError) {
          throw new ChainUnavailable(this.network, 'getBlock', 'bad_answer', 'block vanished', {
            cause: error,
          });
        }
        throw error;
      }
    });
    const time = Number(block.timestamp) * 1000;
    remember(this.#blockTimes, blockHash, time, BLOCK_TIMES_KEPT);
    return time;
  }

  /** The node's chain id (eth_chainId), to compare with EVM_CHAIN_IDS (src/shared/networks.ts) at start-up. */
  chainId(): Promise<number> {
    return this.#call('getChainId', () => this.#client.getChainId());
  }

  /**
   * The newest block and the final one: `confirmations` deep, and no newer than the node's
   * `safe` block where it answers that tag (a chain whose consensus has not yet settled the
   * counted blocks, a long reorganisation under way, keeps them waiting). A node that does not
   * know the tag (a JSON-RPC error) is not asked it again; a fault fails the head as usual.
   */
  async head(): Promise<ChainHead> {
    const [latestBlock, safe] = await Promise.all([
      this.#call('getBlockNumber', () => this.#client.getBlockNumber({ cacheTime: 0 })),
      this.#safeBlock(),
    ]);
    const latest = blockNumberOf(latestBlock, this.network, 'getBlockNumber');
    const counted = latest - this.#confirmations + 1;
    return { latest, final: safe === undefined ? counted : Math.min(counted, safe) };
  }

  /** The node's `safe` block number, or undefined where the node has no such tag. */
  async #safeBlock(): Promise<number | undefined> {
    if (!this.#asksSafe) return undefined;
    try {
      const block = await this.#call('getBlock', () =>
        this.#client.getBlock({ blockTag: 'safe', includeTransactions: false }),
      );
      return blockNumberOf(block.number, this.network, 'getBlock');
    } catch (error) {
      if (error instanceof ChainUnavailable && error.fault === 'rpc') {
        this.#asksSafe = false;
        return undefined;
      }
      throw error;
    }
  }

  decimals(contract: string): Promise<number> {
    const { erc20Abi, getAddress, isAddress } = this.#viem;
    if (!isAddress(contract, { strict: false })) {
      return Promise.reject(new TypeError(`not an EVM contract address: ${contract}`));
    }
    const key = contract.toLowerCase();
    const known = this.#decimals.get(key);
    if (known !== undefined) return known;
    const reading = this.#call('decimals', () =>
      this.#client.readContract({
        address: getAddress(contract),
        abi: erc20Abi,
        functionName: 'decimals',
      }),
    );
    this.#decimals.set(key, reading);
    // A failed read is not kept: the next caller asks the node again.
    reading.catch(() => this.#decimals.delete(key));
    return reading;
  }

  /**
   * Transfers of `contract` to `address` from `since` on, as far as the final block allows: up
   * to RANGES_PER_SCAN `eth_getLogs` calls of the current span, so a scan that fell behind (an
   * idle day, a node that was down) catches up in a few rounds with its calls still bounded. A
   * provider refusing the range or the result's size halves the span for this reader from then
   * on and the same blocks are asked again. A fault after some ranges were read keeps them: the
   * cursor stops where the failed range starts; a fault on the first range is thrown.
   */
  async transfersTo(
    address: string,
    contract: string,
    since: ScanPosition,
    head?: ChainHead,
  ): Promise<IncomingTransfers> {
    if (since.kind !== 'block') throw new TypeError('EVM scans start at a block number');
    const { latest, final } = head ?? (await this.head());
    // Block 0 at the earliest: on a young chain the final block may lie below it.
    let from = Math.max(0, since.block);
    if (from > latest) return { transfers: [], next: since };
    const transfers: IncomingTransfer[] = [];
    for (let call = 0; call < RANGES_PER_SCAN; call += 1) {
      const to = Math.min(latest, from + this.#logSpan - 1);
      let found: IncomingTransfer[];
      try {
        found = await this.#logs(address, contract, from, to);
      } catch (error) {
        if (isRangeRefusal(error) && this.#logSpan > 1) {
          this.#logSpan = Math.max(1, Math.floor(this.#logSpan / 2));
          continue;
        }
        // Nothing read yet: the scan's fault, logged, its cursor left where it was.
        if (from === Math.max(0, since.block)) throw error;
        break;
      }
      transfers.push(...found);
      // The cursor never passes the final block: blocks above it may still be reorganised, and
      // a transfer re-mined there must be seen by the next scan (repeats are absorbed by the
      // unique deposit key).
      const next = Math.max(from, Math.min(to, final) + 1);
      const caughtUp = next > final || to >= latest;
      from = next;
      if (caughtUp) break;
    }
    return { transfers, next: { kind: 'block', block: from } };
  }

  /** The blocks one `eth_getLogs` covers now: the configured span, halved by each refusal. */
  get logSpan(): number {
    return this.#logSpan;
  }

  /** One `eth_getLogs` of `contract`'s Transfer events to `address` in [from, to]. */
  async #logs(
    address: string,
    contract: string,
    from: number,
    to: number,
  ): Promise<IncomingTransfer[]> {
    const { getAddress } = this.#viem;
    const logs = await this.#call('getLogs', () =>
      this.#client.getLogs({
        address: getAddress(contract),
        event: this.#transferEvent,
        args: { to: getAddress(address) },
        fromBlock: BigInt(from),
        toBlock: BigInt(to),
        strict: true,
      }),
    );
    return logs
      .filter((log) => !log.removed)
      .map((log) => ({
        hash: log.transactionHash,
        logIndex: log.logIndex,
        blockNumber: blockNumberOf(log.blockNumber, this.network, 'getLogs'),
        blockTime: null,
        contract: getAddress(log.address),
        from: getAddress(log.args.from),
        to: getAddress(log.args.to),
        amount: log.args.value,
      }));
  }
}
