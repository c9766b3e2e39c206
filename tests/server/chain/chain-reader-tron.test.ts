/**
 * The Tron chain reader against a fake of TronGrid's documented HTTP API
 * (tests/helpers/trongrid-fake.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkWalletAddress } from '../../../src/shared/addresses';
import {
  ChainCallCounter,
  ChainUnavailable,
  confirmationsOf,
  isFinal,
  type TransactionFound,
  type TransactionLookup,
} from '../../../src/server/chain/readers/chain-reader';
import {
  tronAddressFromHex,
  tronAddressToHex,
} from '../../../src/server/chain/readers/tron-address';
import { SCAN_PAGE_BUDGET, TronReader } from '../../../src/server/chain/readers/tron-reader';
import { deadPort } from '../../helpers/evm-chain';
import { startTronGridFake, type TronGridFake } from '../../helpers/trongrid-fake';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** Another TRC-20 contract standing in for a look-alike "USDT". */
const LOOK_ALIKE = 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8';
const DEPOSIT = 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';
const CUSTOMER = 'TJmmqjb1DK9TTZbQXzRQ2AuA94z4gKAPFh';
const STRANGER = 'TLCuBEirVzB6V4menLZKw1jfBTFMZbuKq7';
const API_KEY = '25f66928-0b70-48cd-9ac6-da6f8247c663';

let tron: TronGridFake;
let counter: ChainCallCounter;
let reader: TronReader;
let nextId = 0;

/** A fresh 64-hex transaction id. */
function txId(): string {
  nextId += 1;
  return nextId.toString(16).padStart(64, '0');
}

let nextAddress = 0;

/**
 * A deposit address no other test sends to: the fake keeps every test's transactions, and a
 * paging test counts the rows and pages of its address alone.
 */
function freshAddress(): string {
  nextAddress += 1;
  return tronAddressFromHex(`41${nextAddress.toString(16).padStart(40, 'c')}`);
}

/** The time of `blockNumber` as the fake gives it when the test sets none. */
const timeOfBlock = (blockNumber: number) => Date.UTC(2026, 10, 1) + blockNumber * 3_000;

/** One USDT transfer from the customer to `to`, in its own transaction; gives its id. */
function sendUsdt(
  to: string,
  amount: bigint,
  blockNumber: number,
  blockTimeStamp?: number,
): string {
  const id = txId();
  tron.addTransaction({
    id,
    blockNumber,
    ...(blockTimeStamp === undefined ? {} : { blockTimeStamp }),
    transfers: [{ contract: USDT, from: CUSTOMER, to, amount }],
  });
  return id;
}

/** The history calls made for `address` since `before` calls. */
function historyCalls(address: string, before: number) {
  return tron.calls
    .slice(before)
    .filter((c) => c.path === `/v1/accounts/${address}/transactions/trc20`);
}

function found(lookup: TransactionLookup): TransactionFound {
  if (lookup.status !== 'found') throw new Error('expected the transaction to be found');
  return lookup;
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

beforeAll(async () => {
  tron = await startTronGridFake();
  tron.setDecimals(USDT, 6);
});

afterAll(async () => {
  await tron.stop();
});

beforeEach(() => {
  tron.clearFaults();
  counter = new ChainCallCounter();
  reader = new TronReader({
    rpcUrl: tron.url,
    apiKey: API_KEY,
    timeoutMs: 2_000,
    observer: counter,
  });
});

describe('Tron addresses', () => {
  it('converts the USDT contract between hex 41… and base58check T… both ways', () => {
    expect(tronAddressFromHex('41a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe(USDT);
    expect(tronAddressFromHex('a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe(USDT);
    expect(tronAddressToHex(USDT)).toBe('41a614f803b6fd780986a42c78ec9c7f77e6ded13c');
  });

  it('uses test addresses that are valid Tron addresses', () => {
    for (const address of [USDT, LOOK_ALIKE, DEPOSIT, CUSTOMER, STRANGER]) {
      expect(checkWalletAddress('TRC20', address)).toBeNull();
    }
  });
});

describe('Tron reader: what a transaction moved', () => {
  it('reads a solidified USDT transfer: base58 addresses, base units, block time in ms', async () => {
    const id = txId();
    tron.addTransaction({
      id,
      blockNumber: 70_000_100,
      blockTimeStamp: 1_764_000_000_000,
      transfers: [{ contract: USDT, from: CUSTOMER, to: DEPOSIT, amount: 150_250_000n }],
    });
    expect(found(await reader.transaction(id))).toEqual({
      status: 'found',
      hash: id,
      success: true,
      blockNumber: 70_000_100,
      blockHash: null,
      blockTime: 1_764_000_000_000,
      transfers: [
        { logIndex: 0, contract: USDT, from: CUSTOMER, to: DEPOSIT, amount: 150_250_000n },
      ],
    });
    // Found solidified: the full node was not asked.
    expect(counter.calls('TRC20', 'gettransactioninfobyid:latest')).toBe(0);
  });

  it('reads the decimals from the contract (triggerconstantcontract decimals()) once', async () => {
    expect(await reader.decimals(USDT)).toBe(6);
    expect(await reader.decimals(USDT)).toBe(6);
    expect(counter.calls('TRC20', 'triggerconstantcontract')).toBe(1);
    const call = tron.calls.findLast((c) => c.path === '/wallet/triggerconstantcontract');
    expect(call?.body).toMatchObject({ contract_address: USDT, function_selector: 'decimals()' });
  });

  it("reports a look-alike's transfer with its own contract address", async () => {
    const id = txId();
    tron.addTransaction({
      id,
      blockNumber: 70_000_101,
      transfers: [{ contract: LOOK_ALIKE, from: CUSTOMER, to: DEPOSIT, amount: 150_000_000n }],
    });
    expect(found(await reader.transaction(id)).transfers[0]?.contract).toBe(LOOK_ALIKE);
  });

  it('numbers several transfers of one transaction by their place in its log', async () => {
    const id = txId();
    tron.addTransaction({
      id,
      blockNumber: 70_000_102,
      transfers: [
        { contract: USDT, from: CUSTOMER, to: STRANGER, amount: 1n },
        { contract: USDT, from: CUSTOMER, to: DEPOSIT, amount: 2n },
      ],
    });
    expect(found(await reader.transaction(id)).transfers.map((t) => [t.logIndex, t.to])).toEqual([
      [0, STRANGER],
      [1, DEPOSIT],
    ]);
  });

  it('reports a reverted transaction (receipt REVERT, result FAILED) as success=false', async () => {
    const id = txId();
    tron.addTransaction({
      id,
      blockNumber: 70_000_103,
      contract: USDT,
      receiptResult: 'REVERT',
    });
    const tx = found(await reader.transaction(id));
    expect(tx.success).toBe(false);
    expect(tx.transfers).toEqual([]);
  });

  it('answers not_found when neither the solidity node nor the full node knows the id ({})', async () => {
    expect(await reader.transaction(txId())).toEqual({ status: 'not_found' });
    expect(counter.calls('TRC20', 'gettransactioninfobyid:solidified')).toBe(1);
    expect(counter.calls('TRC20', 'gettransactioninfobyid:latest')).toBe(1);
  });

  it('sends TRON-PRO-API-KEY on every call', async () => {
    const before = tron.calls.length;
    await reader.transaction(txId());
    await reader.head();
    const made = tron.calls.slice(before);
    expect(made.length).toBe(4);
    for (const call of made) expect(call.headers['tron-pro-api-key']).toBe(API_KEY);
  });

  it('sends no key header when no key is configured', async () => {
    const keyless = new TronReader({ rpcUrl: tron.url });
    const before = tron.calls.length;
    await keyless.head();
    expect(tron.calls.slice(before).every((c) => c.headers['tron-pro-api-key'] === undefined)).toBe(
      true,
    );
  });
});

describe('Tron reader: how final', () => {
  it('finds a transaction not yet solidified, and calls it final once its block is solidified', async () => {
    const id = txId();
    tron.addTransaction({
      id,
      blockNumber: 80_000_010,
      solidified: false,
      transfers: [{ contract: USDT, from: CUSTOMER, to: DEPOSIT, amount: 5_000_000n }],
    });
    tron.setHeads({ latest: 80_000_012, solidified: 80_000_000 });
    const { blockNumber } = found(await reader.transaction(id));
    let head = await reader.head();
    expect(head).toEqual({ latest: 80_000_012, final: 80_000_000 });
    expect(confirmationsOf(blockNumber, head)).toBe(3);
    expect(isFinal(blockNumber, head)).toBe(false);

    tron.setSolidified(id, true);
    tron.setHeads({ latest: 80_000_030, solidified: 80_000_011 });
    head = await reader.head();
    expect(found(await reader.transaction(id)).blockNumber).toBe(blockNumber);
    expect(isFinal(blockNumber, head)).toBe(true);
  });
});

describe('Tron reader: deposits without a hash', () => {
  it('lists solidified transfers of the contract to the address from a time on, oldest first', async () => {
    const first = txId();
    const pending = txId();
    const second = txId();
    tron.addTransaction({
      id: first,
      blockNumber: 90_000_001,
      transfers: [{ contract: USDT, from: CUSTOMER, to: DEPOSIT, amount: 11n }],
    });
    tron.addTransaction({
      id: txId(),
      blockNumber: 90_000_002,
      transfers: [{ contract: LOOK_ALIKE, from: CUSTOMER, to: DEPOSIT, amount: 12n }],
    });
    tron.addTransaction({
      id: pending,
      blockNumber: 90_000_003,
      solidified: false,
      transfers: [{ contract: USDT, from: CUSTOMER, to: DEPOSIT, amount: 13n }],
    });
    tron.addTransaction({
      id: second,
      blockNumber: 90_000_004,
      transfers: [{ contract: USDT, from: CUSTOMER, to: DEPOSIT, amount: 14n }],
    });
    tron.addTransaction({
      id: txId(),
      blockNumber: 90_000_005,
      transfers: [{ contract: USDT, from: CUSTOMER, to: STRANGER, amount: 15n }],
    });
    const since = Date.UTC(2026, 10, 1) + 90_000_001 * 3_000;
    const scan = await reader.transfersTo(DEPOSIT, USDT, { kind: 'time', timeMs: since });
    expect(scan.transfers.map((t) => [t.hash, t.amount])).toEqual([
      [first, 11n],
      [second, 14n],
    ]);
    expect(scan.transfers[0]).toMatchObject({ contract: USDT, from: CUSTOMER, to: DEPOSIT });
    expect(scan.next).toEqual({ kind: 'time', timeMs: since + 3 * 3_000 });
    const call = tron.calls.at(-1);
    expect(call?.path).toBe(`/v1/accounts/${DEPOSIT}/transactions/trc20`);
    expect(call?.query.get('only_to')).toBe('true');
    expect(call?.query.get('only_confirmed')).toBe('true');
    expect(call?.query.get('contract_address')).toBe(USDT);
    expect(call?.query.get('min_timestamp')).toBe(String(since));
  });
});

describe('Tron reader: deposits without a hash, page after page', () => {
  it('a Tron block with 450 transfers to the deposit address is read whole in one scan, and the next scan moves past it', async () => {
    const address = freshAddress();
    const blockTime = timeOfBlock(91_000_000);
    const sent = Array.from({ length: 450 }, (_, i) =>
      sendUsdt(address, BigInt(i + 1), 91_000_000, blockTime),
    );
    const before = tron.calls.length;
    const scan = await reader.transfersTo(address, USDT, { kind: 'time', timeMs: blockTime - 1 });
    expect(scan.transfers.map((t) => t.hash)).toEqual(sent);
    expect(scan.transfers.map((t) => t.amount)).toEqual(sent.map((_, i) => BigInt(i + 1)));
    expect(scan.next).toEqual({ kind: 'time', timeMs: blockTime });
    // TronGrid's largest page is 200 rows: three pages, the later two by fingerprint.
    const calls = historyCalls(address, before);
    expect(calls.map((c) => [c.query.get('limit'), c.query.has('fingerprint')])).toEqual([
      ['200', false],
      ['200', true],
      ['200', true],
    ]);

    // From there, that block's transfers come again only as repeats (the scan knows them) ...
    const again = await reader.transfersTo(address, USDT, scan.next);
    expect(again.transfers.every((t) => t.blockTime === blockTime && sent.includes(t.hash))).toBe(
      true,
    );
    expect(again.next).toEqual(scan.next);
    // ... and a later transfer is seen, past the block.
    const later = sendUsdt(address, 451n, 91_000_001);
    const after = await reader.transfersTo(address, USDT, again.next);
    expect(after.transfers.filter((t) => !sent.includes(t.hash)).map((t) => t.hash)).toEqual([
      later,
    ]);
    expect(after.next).toEqual({ kind: 'time', timeMs: timeOfBlock(91_000_001) });
  });

  it('a scan that is behind reads page after page until caught up, each page the same query with the fingerprint', async () => {
    const address = freshAddress();
    const paged = new TronReader({ rpcUrl: tron.url, scanLimit: 3 });
    const sent = Array.from({ length: 10 }, (_, i) =>
      sendUsdt(address, BigInt(i + 1), 92_000_000 + i),
    );
    const since = timeOfBlock(92_000_000);
    const before = tron.calls.length;
    const scan = await paged.transfersTo(address, USDT, { kind: 'time', timeMs: since });
    expect(scan.transfers.map((t) => t.hash)).toEqual(sent);
    expect(scan.next).toEqual({ kind: 'time', timeMs: timeOfBlock(92_000_009) });
    const calls = historyCalls(address, before);
    expect(calls.length).toBe(4);
    expect(calls[0]?.query.has('fingerprint')).toBe(false);
    for (const call of calls.slice(1)) {
      expect(call.query.get('fingerprint')).toMatch(/./);
      const rest = new URLSearchParams(call.query);
      rest.delete('fingerprint');
      expect(rest.toString()).toBe(calls[0]?.query.toString());
    }
  });

  it(`a scan more than ${SCAN_PAGE_BUDGET} pages behind stops at its page budget, and the next scan continues where it stopped: nothing lost, nothing read forever`, async () => {
    const address = freshAddress();
    const paged = new TronReader({ rpcUrl: tron.url, scanLimit: 2 });
    const total = SCAN_PAGE_BUDGET * 2 + 7;
    const sent = Array.from({ length: total }, (_, i) =>
      sendUsdt(address, BigInt(i + 1), 93_000_000 + i),
    );
    const before = tron.calls.length;
    const first = await paged.transfersTo(address, USDT, {
      kind: 'time',
      timeMs: timeOfBlock(93_000_000),
    });
    expect(historyCalls(address, before).length).toBe(SCAN_PAGE_BUDGET);
    expect(first.transfers.map((t) => t.hash)).toEqual(sent.slice(0, SCAN_PAGE_BUDGET * 2));
    expect(first.next).toEqual({
      kind: 'time',
      timeMs: timeOfBlock(93_000_000 + SCAN_PAGE_BUDGET * 2 - 1),
    });

    // The last block read is read again (a repeat), then the rest.
    const second = await paged.transfersTo(address, USDT, first.next);
    expect(second.transfers.map((t) => t.hash)).toEqual(sent.slice(SCAN_PAGE_BUDGET * 2 - 1));
    expect(second.next).toEqual({ kind: 'time', timeMs: timeOfBlock(93_000_000 + total - 1) });
    const seen = new Set([...first.transfers, ...second.transfers].map((t) => t.hash));
    expect(seen).toEqual(new Set(sent));
  });

  it('a block larger than the whole page budget (no real block is) is left after one scan rather than read from its start forever', async () => {
    const address = freshAddress();
    const tiny = new TronReader({ rpcUrl: tron.url, scanLimit: 2, scanPageBudget: 2 });
    const blockTime = timeOfBlock(94_000_000);
    const block = Array.from({ length: 5 }, (_, i) =>
      sendUsdt(address, BigInt(i + 1), 94_000_000, blockTime),
    );
    const later = sendUsdt(address, 6n, 94_000_001);
    const first = await tiny.transfersTo(address, USDT, { kind: 'time', timeMs: blockTime });
    expect(first.transfers.map((t) => t.hash)).toEqual(block.slice(0, 4));
    expect(first.next).toEqual({ kind: 'time', timeMs: blockTime + 1 });
    const second = await tiny.transfersTo(address, USDT, first.next);
    expect(second.transfers.map((t) => t.hash)).toEqual([later]);
  });

  it('a fault on a later page fails the whole scan, and the same scan again returns every page', async () => {
    const address = freshAddress();
    const paged = new TronReader({ rpcUrl: tron.url, scanLimit: 2 });
    const sent = Array.from({ length: 5 }, (_, i) =>
      sendUsdt(address, BigInt(i + 1), 95_000_000 + i),
    );
    const since = { kind: 'time', timeMs: timeOfBlock(95_000_000) } as const;
    tron.fail({ kind: 'status', status: 503 }, 1, 1);
    expect(await failureOf(paged.transfersTo(address, USDT, since))).toMatchObject({
      fault: 'http',
      status: 503,
    });
    const scan = await paged.transfersTo(address, USDT, since);
    expect(scan.transfers.map((t) => t.hash)).toEqual(sent);
  });
});

describe('Tron reader: faults are ChainUnavailable, never not_found', () => {
  it('an HTTP 429 is rate_limited with Retry-After in ms', async () => {
    tron.fail({ kind: 'status', status: 429, headers: { 'retry-after': '3' } }, 1);
    const error = await failureOf(reader.transaction(txId()));
    expect(error).toBeInstanceOf(ChainUnavailable);
    expect(error).toMatchObject({ fault: 'rate_limited', status: 429, retryAfterMs: 3_000 });
    expect(counter.failures('TRC20')).toBe(1);
  });

  it('an HTTP 500 is an http fault, even on the second (full node) lookup', async () => {
    const id = txId();
    // The solidity node answers {} for an unknown id, then the full node fails.
    await reader.transaction(txId());
    tron.fail({ kind: 'status', status: 500 });
    const error = await failureOf(reader.transaction(id));
    expect(error).toMatchObject({ fault: 'http', status: 500 });
  });

  it('a slow answer is a timeout after the configured time', async () => {
    tron.fail({ kind: 'slow', ms: 1_500 }, 1);
    const quick = new TronReader({ rpcUrl: tron.url, timeoutMs: 200 });
    const started = Date.now();
    const error = await failureOf(quick.head());
    expect(error).toMatchObject({ fault: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1_400);
  });

  it('a node nobody listens on is a network fault', async () => {
    const dead = new TronReader({ rpcUrl: `http://127.0.0.1:${await deadPort()}` });
    expect(await failureOf(dead.transaction(txId()))).toMatchObject({ fault: 'network' });
  });

  it('an answer that is not JSON, or not of the documented shape, is a bad_answer', async () => {
    tron.fail({ kind: 'body', text: '<html>502 Bad Gateway</html>' }, 1);
    expect(await failureOf(reader.transaction(txId()))).toMatchObject({ fault: 'bad_answer' });
    tron.fail({ kind: 'body', text: '{"id":"x","blockNumber":"12"}' }, 1);
    expect(await failureOf(reader.transaction(txId()))).toMatchObject({ fault: 'bad_answer' });
  });

  it('java-tron\'s {"Error": …} answer is an rpc fault', async () => {
    tron.fail({ kind: 'body', text: '{"Error":"class java.lang.NullPointerException : null"}' }, 1);
    expect(await failureOf(reader.head())).toMatchObject({ fault: 'rpc' });
  });

  it('{} means "no such transaction" only for a transaction lookup: an empty head is a bad_answer', async () => {
    tron.fail({ kind: 'body', text: '{}' }, 1);
    expect(await failureOf(reader.head())).toMatchObject({ fault: 'bad_answer' });
    expect(counter.failures('TRC20', 'getnowblock:latest')).toBe(1);
  });

  it('the wrong base URL (404) is an http fault', async () => {
    const misplaced = new TronReader({ rpcUrl: `${tron.url}/nowhere` });
    expect(await failureOf(misplaced.transaction(txId()))).toMatchObject({
      fault: 'http',
      status: 404,
    });
  });

  it('an unknown contract answers no decimals: a fault, and not kept', async () => {
    expect(await failureOf(reader.decimals(LOOK_ALIKE))).toMatchObject({ fault: 'bad_answer' });
    tron.setDecimals(LOOK_ALIKE, 6);
    expect(await reader.decimals(LOOK_ALIKE)).toBe(6);
  });
});
