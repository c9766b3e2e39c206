/**
 * The EVM reader over JSON-RPC with viem, its retries off: a fault comes back at once and the
 * checker decides when to ask again, so calls stay bounded whatever waits.
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
  readonly confirmations: number;
  readonly timeoutMs?: number;
  readonly observer?: ChainCallObserver;
  /** Hosted nodes refuse wide `eth_getLogs` ranges, so a scan advances by at most this much. */
  readonly maxLogBlocks?: number;
  /** One JSON-RPC batch per tick; off by default, since some providers refuse or meter batches. */
  readonly batch?: boolean;
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const DEFAULT_MAX_LOG_BLOCKS = 1_000;
export const RANGES_PER_SCAN = 8;

/** A range or size refusal, worded by each provider its own way; a 429 is a rate limit instead. */
function isRangeRefusal(error: unknown): boolean {
  if (!(error instanceof ChainUnavailable) || error.method !== 'getLogs') return false;
  if (error.fault !== 'rpc' && error.fault !== 'rate_limited') return false;
  if (error.details.status !== undefined) return false;
  return /range|too (many|large|wide)|more than|size|limit|exceed/i.test(error.message);
}
/** By block hash: a block's time never changes, and a reorganised block has another hash. */
const BLOCK_TIMES_KEPT = 1_000;

/** Block numbers fit for centuries, but a node may answer nonsense. */
function blockNumberOf(value: bigint, network: EvmNetworkId, method: string): number {
  if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new ChainUnavailable(network, method, 'bad_answer', `block number ${value} out of range`);
  }
  return Number(value);
}

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
    // The node's own words: viem's short message only names the JSON-RPC code.
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
  /** Asked until the node answers the `safe` tag with an error. */
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
      // The checker asks once per interval and wants the node's answer, not viem's cached copy.
      cacheTime: 0,
    });
  }

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
        if (error instanceof this.#viem.TransactionReceiptNotFoundError) return null;
        throw error;
      }
    });
    if (receipt === null) return { status: 'not_found' };
    const blockNumber = blockNumberOf(receipt.blockNumber, this.network, 'getTransactionReceipt');
    const blockTime = await this.#blockTime(receipt.blockHash);
    // strict: a log that does not decode as an ERC-20 Transfer (ERC-721's) is left out.
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
        // Reorganised away since the receipt: not "not found" (it may be in another block now).
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

  chainId(): Promise<number> {
    return this.#call('getChainId', () => this.#client.getChainId());
  }

  /**
   * `final` is `confirmations` deep and no newer than the node's `safe` block, where it knows the
   * tag; a node that does not is not asked it again.
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
   * Up to RANGES_PER_SCAN calls, so a scan behind catches up in a few rounds. A refused range
   * halves the span from then on; a fault after some ranges keeps them, on the first it throws.
   */
  async transfersTo(
    address: string,
    contract: string,
    since: ScanPosition,
    head?: ChainHead,
  ): Promise<IncomingTransfers> {
    if (since.kind !== 'block') throw new TypeError('EVM scans start at a block number');
    const { latest, final } = head ?? (await this.head());
    // On a young chain the final block may lie below block 0.
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
        if (from === Math.max(0, since.block)) throw error;
        break;
      }
      transfers.push(...found);
      // Never past the final block: blocks above it may still be reorganised.
      const next = Math.max(from, Math.min(to, final) + 1);
      const caughtUp = next > final || to >= latest;
      from = next;
      if (caughtUp) break;
    }
    return { transfers, next: { kind: 'block', block: from } };
  }

  get logSpan(): number {
    return this.#logSpan;
  }

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
