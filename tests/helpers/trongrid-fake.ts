/**
 * A fake of the TronGrid HTTP API on 127.0.0.1 for tests, answering in the documented formats
 * (developers.tron.network: gettransactioninfobyid, getnowblock, getblockbynum,
 * triggerconstantcontract; TronGrid v1 "TRC20 transaction info by account address", paged by
 * `limit` and `fingerprint` as TronGrid pages it). The test
 * decides which transactions exist, which are solidified, the heads, the tokens' decimals and
 * which network the fake is (its genesis block: mainnet's unless set), and can make the next
 * answers fail (a status with headers, or a slow answer). Every call is recorded with its path
 * and headers.
 *
 * Addresses are converted here with @scure/base directly, not with the reader's own code, so a
 * bug in the reader's conversion cannot be mirrored by the fake.
 *
 *   const tron = await startTronGridFake();
 *   tron.addTransaction({ id, blockNumber: 100, transfers: [{ contract, from, to, amount }] });
 *   tron.setHeads({ latest: 120, solidified: 99 });
 *   await tron.stop();
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const base58check = createBase58check(sha256);
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** `41…` hex (21 bytes) of a `T…` address. */
export function hexOfTronAddress(address: string): string {
  return bytesToHex(base58check.decode(address));
}

const word = (hex: string) => hex.padStart(64, '0');

/**
 * Tron mainnet's block 0 id, spelled here rather than imported from the server, so that a typo
 * in the server's constant fails the test of a mainnet node instead of being mirrored.
 */
export const MAINNET_GENESIS = '00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc';

export interface FakeTransfer {
  /** `T…` addresses, as the test knows them. */
  readonly contract: string;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
}

export interface FakeTransaction {
  /** 64 hex, no 0x. */
  readonly id: string;
  readonly blockNumber: number;
  /** Block time in ms; defaults to a time derived from the block number (3 s blocks). */
  readonly blockTimeStamp?: number;
  /** The contract called; defaults to the first transfer's. */
  readonly contract?: string;
  /** 'SUCCESS' by default; 'REVERT', 'OUT_OF_ENERGY'… make a failed transaction. */
  readonly receiptResult?: string;
  readonly transfers?: readonly FakeTransfer[];
  /** Whether its block is solidified (then /walletsolidity knows it); true by default. */
  readonly solidified?: boolean;
}

export type FakeFault =
  | { readonly kind: 'status'; readonly status: number; readonly headers?: Record<string, string> }
  | { readonly kind: 'slow'; readonly ms: number }
  /** A 200 whose body is this text: a proxy's error page, a truncated answer. */
  | { readonly kind: 'body'; readonly text: string };

export interface RecordedCall {
  readonly method: string;
  /** The path without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: unknown;
}

export interface TronGridFake {
  readonly url: string;
  readonly calls: readonly RecordedCall[];
  addTransaction(tx: FakeTransaction): void;
  /** Marks a known transaction's block solidified (or not). */
  setSolidified(id: string, solidified: boolean): void;
  setHeads(heads: { latest: number; solidified: number }): void;
  setDecimals(contract: string, decimals: number): void;
  /** The id of block 0, which names the network: {@link MAINNET_GENESIS} until set. */
  setGenesis(blockId: string): void;
  /**
   * The next `times` requests (all, when omitted) meet `fault`; with `after`, only once that
   * many requests have been answered well (a fault on a later page of a history).
   */
  fail(fault: FakeFault, times?: number, after?: number): void;
  clearFaults(): void;
  stop(): Promise<void>;
}

const BASE_TIME = Date.UTC(2026, 10, 1);
const timeOfBlock = (blockNumber: number) => BASE_TIME + blockNumber * 3_000;

export async function startTronGridFake(): Promise<TronGridFake> {
  const transactions = new Map<string, FakeTransaction & { solidified: boolean }>();
  const decimals = new Map<string, number>();
  const calls: RecordedCall[] = [];
  let heads = { latest: 1, solidified: 1 };
  let genesis = MAINNET_GENESIS;
  let fault: { fault: FakeFault; remaining: number; after: number } | undefined;
  const timers = new Set<NodeJS.Timeout>();

  const transactionInfo = (tx: FakeTransaction) => {
    const result = tx.receiptResult ?? 'SUCCESS';
    const failed = result !== 'SUCCESS';
    const contract = tx.contract ?? tx.transfers?.[0]?.contract;
    return {
      id: tx.id,
      fee: 345_000,
      blockNumber: tx.blockNumber,
      blockTimeStamp: tx.blockTimeStamp ?? timeOfBlock(tx.blockNumber),
      contractResult: [failed ? '08c379a0' : word('1')],
      ...(contract === undefined ? {} : { contract_address: hexOfTronAddress(contract) }),
      receipt: {
        energy_usage_total: 14_650,
        net_usage: 345,
        result,
      },
      ...(failed
        ? { result: 'FAILED', resMessage: Buffer.from('REVERT opcode executed').toString('hex') }
        : {
            log: (tx.transfers ?? []).map((transfer) => ({
              // The TVM's log address: 20 bytes, without the 41 prefix.
              address: hexOfTronAddress(transfer.contract).slice(2),
              topics: [
                TRANSFER_TOPIC,
                word(hexOfTronAddress(transfer.from).slice(2)),
                word(hexOfTronAddress(transfer.to).slice(2)),
              ],
              data: word(transfer.amount.toString(16)),
            })),
          }),
    };
  };

  const nowBlock = (number: number) => ({
    blockID: word(number.toString(16)).replace(/^0{16}/, 'a'.repeat(16)),
    block_header: {
      raw_data: {
        number,
        txTrieRoot: word('0'),
        witness_address: '41' + '11'.repeat(20),
        parentHash: word((number - 1).toString(16)),
        version: 31,
        timestamp: timeOfBlock(number),
      },
      witness_signature: 'ab'.repeat(65),
    },
  });

  /**
   * getblockbynum: block 0 as java-tron gives it (fields that are zero, its number and time
   * among them, left out of the JSON), a later block up to the head, `{}` past it.
   */
  const blockByNumber = (number: number) => {
    if (number > heads.latest) return {};
    if (number > 0) return nowBlock(number);
    return {
      blockID: genesis,
      block_header: {
        raw_data: {
          txTrieRoot: word('0'),
          witness_address: '41' + '00'.repeat(20),
          parentHash: word('0'),
        },
      },
    };
  };

  /**
   * One page of an account's TRC-20 history. When more rows match than `limit`, `meta` carries
   * a `fingerprint` and `links.next` (the same query with it), as TronGrid answers; a request
   * with the fingerprint continues after the page that gave it. TronGrid's fingerprint is
   * opaque; this one is the offset in base64, which holds as long as the test adds no row
   * before the offset while it pages.
   */
  const trc20History = (origin: string, path: string, address: string, query: URLSearchParams) => {
    const contract = query.get('contract_address');
    const minTimestamp = Number(query.get('min_timestamp') ?? 0);
    const onlyConfirmed = query.get('only_confirmed') === 'true';
    const onlyTo = query.get('only_to') === 'true';
    const limit = Math.min(Number(query.get('limit') ?? 20), 200);
    const fingerprint = query.get('fingerprint');
    const offset =
      fingerprint === null ? 0 : Number(Buffer.from(fingerprint, 'base64').toString('utf8'));
    const matching = [...transactions.values()]
      .filter((tx) => (tx.receiptResult ?? 'SUCCESS') === 'SUCCESS')
      .filter((tx) => !onlyConfirmed || tx.solidified)
      .flatMap((tx) =>
        (tx.transfers ?? []).map((transfer) => ({
          transaction_id: tx.id,
          token_info: {
            symbol: 'USDT',
            address: transfer.contract,
            decimals: decimals.get(transfer.contract) ?? 6,
            name: 'Tether USD',
          },
          block_timestamp: tx.blockTimeStamp ?? timeOfBlock(tx.blockNumber),
          from: transfer.from,
          to: transfer.to,
          type: 'Transfer',
          value: transfer.amount.toString(),
        })),
      )
      .filter((row) => row.to === address || (!onlyTo && row.from === address))
      .filter((row) => contract === null || row.token_info.address === contract)
      .filter((row) => row.block_timestamp >= minTimestamp)
      // Stable: rows of one block keep the order their transactions were added in.
      .sort((a, b) => a.block_timestamp - b.block_timestamp);
    const rows = matching.slice(offset, offset + limit);
    const meta = { at: Date.now(), page_size: rows.length };
    if (offset + limit >= matching.length) return { data: rows, success: true, meta };
    const next = new URLSearchParams(query);
    next.set('fingerprint', Buffer.from(String(offset + limit)).toString('base64'));
    return {
      data: rows,
      success: true,
      meta: {
        ...meta,
        fingerprint: next.get('fingerprint'),
        links: { next: `${origin}${path}?${next.toString()}` },
      },
    };
  };

  const answer = (req: RecordedCall): { status: number; body: unknown } => {
    const value = (req.body as { value?: string } | null)?.value?.toLowerCase() ?? '';
    switch (req.path) {
      case '/walletsolidity/gettransactioninfobyid': {
        const tx = transactions.get(value);
        return { status: 200, body: tx?.solidified === true ? transactionInfo(tx) : {} };
      }
      case '/wallet/gettransactioninfobyid': {
        const tx = transactions.get(value);
        return { status: 200, body: tx === undefined ? {} : transactionInfo(tx) };
      }
      case '/wallet/getnowblock':
        return { status: 200, body: nowBlock(heads.latest) };
      case '/walletsolidity/getnowblock':
        return { status: 200, body: nowBlock(heads.solidified) };
      case '/wallet/getblockbynum': {
        const number = (req.body as { num?: unknown } | null)?.num;
        if (typeof number !== 'number' || !Number.isInteger(number) || number < 0) {
          return { status: 200, body: { Error: 'class java.lang.NumberFormatException' } };
        }
        return { status: 200, body: blockByNumber(number) };
      }
      case '/wallet/triggerconstantcontract': {
        const { contract_address: contract, function_selector: selector } = req.body as {
          contract_address?: string;
          function_selector?: string;
        };
        const known = contract === undefined ? undefined : decimals.get(contract);
        if (selector !== 'decimals()' || known === undefined) {
          return {
            status: 200,
            body: { result: { code: 'CONTRACT_VALIDATE_ERROR', message: '' }, constant_result: [] },
          };
        }
        return {
          status: 200,
          body: {
            result: { result: true },
            energy_used: 216,
            constant_result: [word(known.toString(16))],
          },
        };
      }
      default: {
        const history = /^\/v1\/accounts\/([^/]+)\/transactions\/trc20$/.exec(req.path);
        if (history?.[1] !== undefined) {
          const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
          const address = decodeURIComponent(history[1]);
          return { status: 200, body: trc20History(origin, req.path, address, req.query) };
        }
        return { status: 404, body: { Error: `no such path ${req.path}` } };
      }
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const text = Buffer.concat(chunks).toString('utf8');
      const call: RecordedCall = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: text === '' ? null : (JSON.parse(text) as unknown),
      };
      calls.push(call);
      const send = () => {
        const { status, body } = answer(call);
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const current = fault;
      if (current !== undefined && current.after > 0) {
        current.after -= 1;
        send();
        return;
      }
      if (current !== undefined) {
        current.remaining -= 1;
        if (current.remaining <= 0) fault = undefined;
        if (current.fault.kind === 'body') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(current.fault.text);
          return;
        }
        if (current.fault.kind === 'status') {
          res.writeHead(current.fault.status, {
            'content-type': 'text/plain',
            ...current.fault.headers,
          });
          res.end(`fault ${current.fault.status}`);
          return;
        }
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) send();
        }, current.fault.ms);
        timers.add(timer);
        return;
      }
      send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    addTransaction: (tx) => {
      transactions.set(tx.id.toLowerCase(), { ...tx, solidified: tx.solidified ?? true });
    },
    setSolidified: (id, solidified) => {
      const tx = transactions.get(id.toLowerCase());
      if (tx === undefined) throw new Error(`unknown transaction ${id}`);
      transactions.set(id.toLowerCase(), { ...tx, solidified });
    },
    setHeads: (next) => {
      heads = { latest: next.latest, solidified: next.solidified };
    },
    setDecimals: (contract, count) => {
      decimals.set(contract, count);
    },
    setGenesis: (blockId) => {
      genesis = blockId;
    },
    fail: (next, times = Number.POSITIVE_INFINITY, after = 0) => {
      fault = { fault: next, remaining: times, after };
    },
    clearFaults: () => {
      fault = undefined;
    },
    stop: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
