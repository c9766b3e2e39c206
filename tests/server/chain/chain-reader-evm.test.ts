/**
 * The EVM chain reader against a real node: Hardhat's network over HTTP JSON-RPC
 * (tests/helpers/evm-chain.ts), with the test tokens deployed on it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getAddress } from 'viem';
import {
  ChainCallCounter,
  ChainUnavailable,
  confirmationsOf,
  isFinal,
  type TransactionFound,
  type TransactionLookup,
} from '../../../src/server/chain/readers/chain-reader';
import { parseChainConfig } from '../../../src/server/platform/config/chain-config';
import { createChainReaders } from '../../../src/server/chain/readers/chain-readers';
import { EvmReader, RANGES_PER_SCAN } from '../../../src/server/chain/readers/evm-reader';
import { deadPort, startEvmChain, type EvmTestChain } from '../../helpers/evm-chain';

let chain: EvmTestChain;
let counter: ChainCallCounter;
let reader: EvmReader;

beforeAll(async () => {
  chain = await startEvmChain();
}, 60_000);

afterAll(async () => {
  await chain.stop();
});

beforeEach(() => {
  chain.faults.clear();
  counter = new ChainCallCounter();
  reader = new EvmReader({
    network: 'BEP20',
    rpcUrl: chain.url,
    confirmations: 5,
    timeoutMs: 2_000,
    observer: counter,
  });
});

function found(lookup: TransactionLookup): TransactionFound {
  if (lookup.status !== 'found') throw new Error('expected the transaction to be found');
  return lookup;
}

/** The error a promise rejects with, for assertions on its fields. */
async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('EVM reader: what a transaction moved', () => {
  it('reads a 6-decimal USDT transfer in base units, with decimals read from the contract', async () => {
    const hash = await chain.transfer(
      chain.tokens.usdt6,
      chain.customer,
      chain.deposit,
      150_250_000n,
    );
    const tx = found(await reader.transaction(hash));
    expect(tx.success).toBe(true);
    expect(tx.transfers).toEqual([
      {
        logIndex: expect.any(Number) as number,
        contract: getAddress(chain.tokens.usdt6),
        from: getAddress(chain.customer),
        to: getAddress(chain.deposit),
        amount: 150_250_000n,
      },
    ]);
    expect(tx.blockNumber).toBe(await chain.blockNumber());
    // Hardhat stamps blocks with the wall clock.
    expect(Math.abs(tx.blockTime - Date.now())).toBeLessThan(60_000);
    expect(await reader.decimals(chain.tokens.usdt6)).toBe(6);
  });

  it('reads an 18-decimal USDT transfer without losing a unit (Binance-Peg on BSC)', async () => {
    const amount = 150_250_000_000_000_000_001n;
    const hash = await chain.transfer(chain.tokens.usdt18, chain.customer, chain.deposit, amount);
    expect(found(await reader.transaction(hash)).transfers[0]?.amount).toBe(amount);
    expect(await reader.decimals(chain.tokens.usdt18)).toBe(18);
  });

  it('reads decimals once per contract: a second ask makes no call', async () => {
    await reader.decimals(chain.tokens.usdt6);
    await reader.decimals(chain.tokens.usdt6.toLowerCase());
    expect(counter.calls('BEP20', 'decimals')).toBe(1);
  });

  it("reports a look-alike token's transfer with the look-alike's own contract address", async () => {
    const hash = await chain.transfer(
      chain.tokens.lookAlike,
      chain.customer,
      chain.deposit,
      150_000_000n,
    );
    const transfer = found(await reader.transaction(hash)).transfers[0];
    expect(transfer?.contract).toBe(getAddress(chain.tokens.lookAlike));
    expect(transfer?.contract).not.toBe(getAddress(chain.tokens.usdt6));
  });

  it('reports a mined transaction that reverted as success=false with no transfer', async () => {
    const hash = await chain.failingTransfer(
      chain.tokens.usdt6,
      chain.deposit,
      chain.stranger,
      10n ** 30n,
    );
    const tx = found(await reader.transaction(hash));
    expect(tx.success).toBe(false);
    expect(tx.transfers).toEqual([]);
  });

  it('answers not_found for a hash the node does not know', async () => {
    expect(await reader.transaction(`0x${'ab'.repeat(32)}`)).toEqual({ status: 'not_found' });
    expect(counter.failures('BEP20')).toBe(0);
  });
});

describe('EVM reader: how final', () => {
  it('counts confirmations up as blocks are mined and calls the transfer final at the configured number', async () => {
    const hash = await chain.transfer(
      chain.tokens.usdt6,
      chain.customer,
      chain.deposit,
      1_000_000n,
    );
    const { blockNumber } = found(await reader.transaction(hash));
    let head = await reader.head();
    expect(confirmationsOf(blockNumber, head)).toBe(1);
    expect(isFinal(blockNumber, head)).toBe(false);
    await chain.mine(3);
    head = await reader.head();
    expect(confirmationsOf(blockNumber, head)).toBe(4);
    expect(isFinal(blockNumber, head)).toBe(false);
    await chain.mine(1);
    head = await reader.head();
    expect(confirmationsOf(blockNumber, head)).toBe(5);
    expect(isFinal(blockNumber, head)).toBe(true);
  });

  it('answers not_found again once a reorganisation removed the block (evm_revert)', async () => {
    const snapshot = await chain.snapshot();
    const hash = await chain.transfer(
      chain.tokens.usdt6,
      chain.customer,
      chain.deposit,
      2_000_000n,
    );
    await chain.mine(2);
    expect((await reader.transaction(hash)).status).toBe('found');
    await chain.revert(snapshot);
    expect(await reader.transaction(hash)).toEqual({ status: 'not_found' });
  });
});

describe('EVM reader: deposits without a hash', () => {
  it('finds the transfers to an address from a block on, of that contract only, oldest first', async () => {
    await chain.mine(1);
    const from = await chain.blockNumber();
    const first = await chain.transfer(
      chain.tokens.usdt6,
      chain.customer,
      chain.deposit,
      7_000_001n,
    );
    await chain.transfer(chain.tokens.usdt6, chain.customer, chain.stranger, 7_000_002n);
    await chain.transfer(chain.tokens.lookAlike, chain.customer, chain.deposit, 7_000_003n);
    const second = await chain.transfer(
      chain.tokens.usdt6,
      chain.customer,
      chain.deposit,
      7_000_004n,
    );
    const scan = await reader.transfersTo(chain.deposit, chain.tokens.usdt6, {
      kind: 'block',
      block: from,
    });
    expect(scan.transfers.map((t) => [t.hash, t.amount])).toEqual([
      [first, 7_000_001n],
      [second, 7_000_004n],
    ]);
    expect(scan.transfers[0]).toMatchObject({
      contract: getAddress(chain.tokens.usdt6),
      from: getAddress(chain.customer),
      to: getAddress(chain.deposit),
      logIndex: expect.any(Number) as number,
      blockNumber: expect.any(Number) as number,
    });
  });

  it('never moves the cursor past the final block, so a re-mined transfer is seen again', async () => {
    const latest = await chain.blockNumber();
    const scan = await reader.transfersTo(chain.deposit, chain.tokens.usdt6, {
      kind: 'block',
      block: latest - 20,
    });
    // confirmations 5: the final block is latest - 4, the next scan starts right after it.
    expect(scan.next).toEqual({ kind: 'block', block: latest - 3 });
  });

  it('a scan that is behind reads up to RANGES_PER_SCAN ranges of its span in one go, and stops at the final block', async () => {
    await chain.mine(40);
    const narrow = new EvmReader({
      network: 'BEP20',
      rpcUrl: chain.url,
      confirmations: 1,
      maxLogBlocks: 2,
      observer: counter,
    });
    const scan = await narrow.transfersTo(chain.deposit, chain.tokens.usdt6, {
      kind: 'block',
      block: 1,
    });
    expect(scan.next).toEqual({ kind: 'block', block: 1 + 2 * RANGES_PER_SCAN });
    expect(counter.calls('BEP20', 'getLogs')).toBe(RANGES_PER_SCAN);
    // Near the head, one call reaches the final block and the scan stops there.
    const latest = await chain.blockNumber();
    const near = await narrow.transfersTo(chain.deposit, chain.tokens.usdt6, {
      kind: 'block',
      block: latest - 1,
    });
    expect(near.next).toEqual({ kind: 'block', block: latest + 1 });
  });

  it('an idle day of blocks (7 200) is caught up in one scan of 8 calls of 1 000 blocks', async () => {
    const before = await chain.blockNumber();
    await chain.mine(7_200);
    const scan = await reader.transfersTo(chain.deposit, chain.tokens.usdt6, {
      kind: 'block',
      block: before,
    });
    const latest = await chain.blockNumber();
    expect(scan.next).toEqual({ kind: 'block', block: latest - 5 + 2 });
    expect(counter.calls('BEP20', 'getLogs')).toBe(8);
  });

  it('a provider that refuses ranges over 100 blocks: the span halves until it is taken (1 000 → 62), and the scan moves on, never stuck', async () => {
    const paid = await chain.transfer(chain.tokens.usdt6, chain.customer, chain.deposit, 4_321n);
    const paidIn = await chain.blockNumber();
    await chain.mine(300);
    chain.faults.set({ kind: 'log-range', maxBlocks: 100 });
    const from = paidIn - 150;
    const scan = await reader.transfersTo(chain.deposit, chain.tokens.usdt6, {
      kind: 'block',
      block: from,
    });
    expect(reader.logSpan).toBe(62);
    // Four refusals (1 000, 500, 250, 125), then four ranges of 62 blocks read.
    expect(counter.failures('BEP20', 'getLogs')).toBe(4);
    expect(scan.next).toEqual({ kind: 'block', block: from + 4 * 62 });
    expect(scan.transfers.map((t) => t.hash)).toContain(paid);
    // The next scan keeps the span that was taken: no refusal again.
    await reader.transfersTo(chain.deposit, chain.tokens.usdt6, scan.next);
    expect(counter.failures('BEP20', 'getLogs')).toBe(4);
  });
});

describe('EVM reader: faults are ChainUnavailable, never not_found', () => {
  it('a node nobody listens on is a network fault', async () => {
    const dead = new EvmReader({
      network: 'ERC20',
      rpcUrl: `http://127.0.0.1:${await deadPort()}`,
      confirmations: 1,
      observer: counter,
    });
    const error = await failureOf(dead.transaction(`0x${'cd'.repeat(32)}`));
    expect(error).toBeInstanceOf(ChainUnavailable);
    expect(error).toMatchObject({
      fault: 'network',
      network: 'ERC20',
      method: 'getTransactionReceipt',
    });
    expect(counter.failures('ERC20', 'getTransactionReceipt')).toBe(1);
  });

  it('an HTTP 500 is an http fault with its status', async () => {
    chain.faults.set({ kind: 'status', status: 500 });
    const error = await failureOf(reader.head());
    expect(error).toBeInstanceOf(ChainUnavailable);
    expect(error).toMatchObject({ fault: 'http', status: 500 });
  });

  it("a 429 is rate_limited and carries Retry-After's delay", async () => {
    chain.faults.set({ kind: 'status', status: 429, headers: { 'retry-after': '7' } });
    const error = await failureOf(reader.transaction(`0x${'ef'.repeat(32)}`));
    expect(error).toBeInstanceOf(ChainUnavailable);
    expect(error).toMatchObject({ fault: 'rate_limited', status: 429, retryAfterMs: 7_000 });
  });

  it('a JSON-RPC error answer is an rpc fault; "limit exceeded" (-32005) is rate_limited', async () => {
    chain.faults.set({ kind: 'rpc-error', code: -32000, message: 'header not found' });
    expect(await failureOf(reader.transaction(`0x${'12'.repeat(32)}`))).toMatchObject({
      fault: 'rpc',
    });
    chain.faults.set({ kind: 'rpc-error', code: -32005, message: 'daily request count exceeded' });
    expect(await failureOf(reader.head())).toMatchObject({ fault: 'rate_limited' });
  });

  it('a node that does not answer in time is a timeout, after the configured time', async () => {
    chain.faults.set({ kind: 'hang' });
    const quick = new EvmReader({
      network: 'BEP20',
      rpcUrl: chain.url,
      confirmations: 1,
      timeoutMs: 300,
    });
    const started = Date.now();
    const error = await failureOf(quick.transaction(`0x${'34'.repeat(32)}`));
    expect(error).toMatchObject({ fault: 'timeout' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("makes one request per call: retries are the caller's, not hidden in the client", async () => {
    chain.faults.set({ kind: 'status', status: 503 });
    const before = chain.faults.requests;
    // A head is two calls (the latest block and the safe one), each one request.
    await failureOf(reader.head());
    expect(chain.faults.requests - before).toBe(2);
  });

  it('a failed decimals() read is not kept: the next ask goes to the node again', async () => {
    chain.faults.set({ kind: 'status', status: 502 });
    await failureOf(reader.decimals(chain.tokens.usdt18));
    chain.faults.clear();
    expect(await reader.decimals(chain.tokens.usdt18)).toBe(18);
  });
});

describe('EVM reader: from the configuration', () => {
  it("builds a reader for each configured network only, reading the configured token's decimals", async () => {
    const parsed = parseChainConfig({
      CHAIN_RPC_BEP20: chain.url,
      CHAIN_CONFIRMATIONS_BEP20: '2',
      TOKEN_CONTRACT_USDT_BEP20: chain.tokens.usdt18,
    });
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    const readers = createChainReaders(parsed.config, { observer: counter });
    expect(Object.keys(readers)).toEqual(['BEP20']);
    const bep20 = parsed.config.BEP20;
    if (bep20 === 'manual' || bep20.tokens.USDT === undefined) throw new Error('BEP20 is manual');
    expect(await readers.BEP20?.decimals(bep20.tokens.USDT)).toBe(18);
    const head = await readers.BEP20?.head();
    expect(head && head.latest - head.final).toBe(1);
  });

  it("tells the node's chain id, for the start-up check against EVM_CHAIN_IDS", async () => {
    expect(await reader.chainId()).toBe(31337);
  });
});

describe('EVM reader: calls stay bounded', () => {
  it('with batch on, lookups made in the same tick travel as one HTTP request', async () => {
    const batched = new EvmReader({
      network: 'BEP20',
      rpcUrl: chain.url,
      confirmations: 1,
      batch: true,
      observer: counter,
    });
    const before = chain.faults.requests;
    const lookups = await Promise.all(
      ['01', '02', '03', '04'].map((byte) => batched.transaction(`0x${byte.repeat(32)}`)),
    );
    expect(lookups.every((lookup) => lookup.status === 'not_found')).toBe(true);
    expect(chain.faults.requests - before).toBe(1);
    // Each lookup is still counted as one call of the node's API.
    expect(counter.calls('BEP20', 'getTransactionReceipt')).toBe(4);
  });
});
