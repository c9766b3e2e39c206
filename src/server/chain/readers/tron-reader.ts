/**
 * The Tron reader over the TronGrid-compatible HTTP API: transactions from the solidified node
 * first, then the full node; incoming transfers from TronGrid's account index (a bare node has
 * none). Every fault is a ChainUnavailable.
 */
import * as v from 'valibot';
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
import { tronAddressFromHex } from './tron-address';
import {
  ConstantResultSchema,
  GenesisBlockSchema,
  HEX_WORD,
  type LogSchema,
  MAX_SCAN_LIMIT,
  NowBlockSchema,
  TRANSFER_TOPIC,
  TX_ID,
  TransactionInfoSchema,
  Trc20HistorySchema,
  type Trc20Row,
} from './tron-schemas';

export interface TronReaderOptions {
  readonly rpcUrl: string;
  readonly apiKey?: string | undefined;
  readonly timeoutMs?: number;
  readonly observer?: ChainCallObserver;
  /** Rows per page of the account history (TronGrid's `limit`, 200 at most). */
  readonly scanLimit?: number;
  readonly scanPageBudget?: number;
}

/**
 * Pages one scan follows at most, so one call never holds an unbounded answer. The history's
 * only cursor is a block time, so a block must be read whole: the budget holds any real block.
 */
export const SCAN_PAGE_BUDGET = 50;

export class TronReader implements ChainReader {
  readonly network = 'TRC20' as const;
  readonly #baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #timeoutMs: number;
  readonly #observer: ChainCallObserver;
  readonly #scanLimit: number;
  readonly #scanPageBudget: number;
  readonly #decimals = new Map<string, Promise<number>>();

  constructor(options: TronReaderOptions) {
    this.#baseUrl = options.rpcUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this.#observer = options.observer ?? NO_OBSERVER;
    this.#scanLimit = Math.min(options.scanLimit ?? MAX_SCAN_LIMIT, MAX_SCAN_LIMIT);
    this.#scanPageBudget = Math.max(1, options.scanPageBudget ?? SCAN_PAGE_BUDGET);
  }

  async #request<T>(
    method: string,
    path: string,
    schema: v.GenericSchema<unknown, T>,
    body?: unknown,
    emptyIsNotFound = false,
  ): Promise<T | null> {
    const report = startCall(this.#observer, this.network, method);
    const fail = (fault: ChainFault, message: string, details = {}): never => {
      report(fault);
      throw new ChainUnavailable(this.network, method, fault, message, details);
    };
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.#apiKey !== undefined) headers['TRON-PRO-API-KEY'] = this.#apiKey;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.#baseUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      return fail(
        timedOut ? 'timeout' : 'network',
        timedOut ? 'the node did not answer in time' : String(error),
        { cause: error },
      );
    }
    if (response.status === 429) {
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      return fail('rate_limited', 'HTTP 429', {
        status: 429,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
    if (!response.ok) return fail('http', `HTTP ${response.status}`, { status: response.status });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return fail('bad_answer', 'the answer is not JSON', { cause: error });
    }
    // java-tron refuses with 200 and {"Error": …}; TronGrid v1 with {"success": false, …}.
    if (typeof json === 'object' && json !== null) {
      const record = json as Record<string, unknown>;
      if (typeof record['Error'] === 'string') return fail('rpc', record['Error']);
      if (record['success'] === false) {
        return fail('rpc', typeof record['error'] === 'string' ? record['error'] : 'refused');
      }
    }
    // `{}` is java-tron's "no such transaction"; from any other call it is a broken answer.
    if (isEmptyObject(json)) {
      if (!emptyIsNotFound) return fail('bad_answer', 'an empty answer');
      report('ok');
      return null;
    }
    const parsed = v.safeParse(schema, json);
    if (!parsed.success)
      return fail('bad_answer', `unexpected answer: ${parsed.issues[0].message}`);
    report('ok');
    return parsed.output;
  }

  async transaction(hash: string): Promise<TransactionLookup> {
    if (!TX_ID.test(hash)) throw new TypeError(`not a Tron transaction id: ${hash}`);
    const value = hash.replace(/^0x/, '').toLowerCase();
    const info =
      (await this.#request(
        'gettransactioninfobyid:solidified',
        '/walletsolidity/gettransactioninfobyid',
        TransactionInfoSchema,
        { value },
        true,
      )) ??
      (await this.#request(
        'gettransactioninfobyid:latest',
        '/wallet/gettransactioninfobyid',
        TransactionInfoSchema,
        { value },
        true,
      ));
    if (info === null) return { status: 'not_found' };
    // A contract call succeeded when its receipt says SUCCESS; a plain TRX transfer has none.
    const success =
      info.result !== 'FAILED' &&
      (info.receipt.result === undefined || info.receipt.result === 'SUCCESS');
    return {
      status: 'found',
      hash: info.id,
      success,
      blockNumber: info.blockNumber,
      blockHash: null,
      blockTime: info.blockTimeStamp,
      transfers: success ? this.#transfersOf(info.log, 'gettransactioninfobyid') : [],
    };
  }

  #transfersOf(logs: v.InferOutput<typeof LogSchema>[], method: string): TokenTransfer[] {
    const transfers: TokenTransfer[] = [];
    logs.forEach((log, logIndex) => {
      const [topic, from, to] = log.topics.map((t) => t.toLowerCase().replace(/^0x/, ''));
      const data = log.data.replace(/^0x/, '');
      if (topic !== TRANSFER_TOPIC || log.topics.length !== 3 || !HEX_WORD.test(data)) return;
      if (from === undefined || to === undefined || !HEX_WORD.test(from) || !HEX_WORD.test(to)) {
        return;
      }
      try {
        transfers.push({
          logIndex,
          contract: tronAddressFromHex(log.address),
          from: tronAddressFromHex(from.slice(24)),
          to: tronAddressFromHex(to.slice(24)),
          amount: BigInt(`0x${data}`),
        });
      } catch (error) {
        throw new ChainUnavailable(this.network, method, 'bad_answer', 'a log holds no address', {
          cause: error,
        });
      }
    });
    return transfers;
  }

  async head(): Promise<ChainHead> {
    const latest = await this.#request(
      'getnowblock:latest',
      '/wallet/getnowblock',
      NowBlockSchema,
      {},
    );
    const solid = await this.#request(
      'getnowblock:solidified',
      '/walletsolidity/getnowblock',
      NowBlockSchema,
      {},
    );
    if (latest === null || solid === null) {
      throw new ChainUnavailable(
        this.network,
        'getnowblock',
        'bad_answer',
        'no block in the answer',
      );
    }
    return {
      latest: latest.block_header.raw_data.number,
      final: solid.block_header.raw_data.number,
    };
  }

  /** Block 0's id names the network (mainnet, Nile, Shasta, private), as an EVM chain id does. */
  async genesisBlockId(): Promise<string> {
    const block = await this.#request(
      'getblockbynum',
      '/wallet/getblockbynum',
      GenesisBlockSchema,
      { num: 0 },
    );
    if (block === null) {
      throw new ChainUnavailable(this.network, 'getblockbynum', 'bad_answer', 'no block 0');
    }
    return block.blockID.toLowerCase();
  }

  decimals(contract: string): Promise<number> {
    const known = this.#decimals.get(contract);
    if (known !== undefined) return known;
    const reading = this.#readDecimals(contract);
    this.#decimals.set(contract, reading);
    // A failed read is not kept: the next caller asks the node again.
    reading.catch(() => this.#decimals.delete(contract));
    return reading;
  }

  async #readDecimals(contract: string): Promise<number> {
    const answer = await this.#request(
      'triggerconstantcontract',
      '/wallet/triggerconstantcontract',
      ConstantResultSchema,
      {
        // A constant call needs a caller; the contract itself will do (nothing is signed).
        owner_address: contract,
        contract_address: contract,
        function_selector: 'decimals()',
        parameter: '',
        visible: true,
      },
    );
    const word = answer?.constant_result[0];
    if (answer?.result.result !== true || word === undefined || !HEX_WORD.test(word)) {
      throw new ChainUnavailable(
        this.network,
        'triggerconstantcontract',
        'bad_answer',
        `${contract} answered no decimals()`,
      );
    }
    const decimals = BigInt(`0x${word}`);
    if (decimals > 255n) {
      throw new ChainUnavailable(
        this.network,
        'triggerconstantcontract',
        'bad_answer',
        'decimals > 255',
      );
    }
    return Number(decimals);
  }

  /**
   * Only solidified transfers, so the cursor never passes a block that could still change. A
   * fault on any page returns nothing: the scan keeps its cursor and reads them again.
   */
  async transfersTo(
    address: string,
    contract: string,
    since: ScanPosition,
  ): Promise<IncomingTransfers> {
    if (since.kind !== 'time') throw new TypeError('Tron scans start at a block time');
    const query = new URLSearchParams({
      only_to: 'true',
      only_confirmed: 'true',
      contract_address: contract,
      min_timestamp: String(since.timeMs),
      order_by: 'block_timestamp,asc',
      limit: String(this.#scanLimit),
    });
    const path = `/v1/accounts/${encodeURIComponent(address)}/transactions/trc20`;
    const rows: Trc20Row[] = [];
    let caughtUp = false;
    for (let page = 0; page < this.#scanPageBudget && !caughtUp; page += 1) {
      const answer = await this.#request(
        'transactions/trc20',
        `${path}?${query.toString()}`,
        Trc20HistorySchema,
      );
      rows.push(...(answer?.data ?? []));
      // The fingerprint, not links.next: that URL names TronGrid's host, not ours behind a proxy.
      const fingerprint = answer?.meta?.fingerprint;
      if (fingerprint === undefined || fingerprint === '') caughtUp = true;
      else query.set('fingerprint', fingerprint);
    }
    const transfers: IncomingTransfer[] = rows
      .filter(
        (row) =>
          row.type === 'Transfer' && row.to === address && row.token_info.address === contract,
      )
      .map((row) => ({
        hash: row.transaction_id,
        logIndex: null,
        blockNumber: null,
        blockTime: row.block_timestamp,
        contract: row.token_info.address,
        from: row.from,
        to: row.to,
        amount: BigInt(row.value),
      }));
    return {
      transfers,
      next: { kind: 'time', timeMs: nextScanTime(rows, since.timeMs, caughtUp) },
    };
  }
}

/**
 * The last row's time, inclusive, so the rest of its block is not skipped (repeats are absorbed).
 * Should a budget end on rows all of one time, the next scan starts a millisecond later rather
 * than read the same pages forever.
 */
function nextScanTime(rows: readonly Trc20Row[], since: number, caughtUp: boolean): number {
  const first = rows.at(0);
  const last = rows.at(-1);
  if (first === undefined || last === undefined) return since;
  const stuck = !caughtUp && first.block_timestamp === last.block_timestamp;
  return stuck ? last.block_timestamp + 1 : last.block_timestamp;
}

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 0
  );
}
