/**
 * A real EVM chain for tests: Hardhat's in-process network (EDR) behind its
 * own JSON-RPC server on 127.0.0.1, so viem speaks real HTTP JSON-RPC to it, fully offline.
 * TestToken.sol is compiled with solc-js once per test run (kept in the temp directory by the
 * hash of its source and the compiler's version) and deployed three times: a 6-decimal USDT, an
 * 18-decimal USDT (like Binance's on BSC) and a look-alike USDT at another address.
 *
 * In front of the node stands a small proxy that can fail on demand (an HTTP status with
 * headers, or no answer at all), for the readers' fault tests.
 *
 *   const chain = await startEvmChain();
 *   const hash = await chain.transfer(chain.tokens.usdt6, chain.customer, chain.deposit, 5_000_000n);
 *   await chain.mine(10);
 *   await chain.stop();
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import solc from 'solc';
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  http as httpTransport,
  type Abi,
  type Address,
  type Hash,
  type Hex,
} from 'viem';
import { hardhat } from 'viem/chains';
import { resolveConfig } from 'hardhat/internal/core/config/config-resolution';
import { createProvider } from 'hardhat/internal/core/providers/construction';
import { JsonRpcServer } from 'hardhat/internal/hardhat-network/jsonrpc/server';

const SOURCE_PATH = path.join(import.meta.dirname, 'contracts', 'TestToken.sol');

export interface CompiledToken {
  readonly abi: Abi;
  readonly bytecode: Hex;
}

let compiledInProcess: Promise<CompiledToken> | undefined;

/** Compiles TestToken.sol with solc-js, once per process and once per source across processes. */
export function compileTestToken(): Promise<CompiledToken> {
  compiledInProcess ??= compileOrReadCache();
  return compiledInProcess;
}

async function compileOrReadCache(): Promise<CompiledToken> {
  const source = await readFile(SOURCE_PATH, 'utf8');
  // solc's typings say `any`: its version() returns the compiler's version string.
  const version = (solc.version as () => string)();
  const key = createHash('sha256').update(version).update(source).digest('hex').slice(0, 16);
  const dir = path.join(os.tmpdir(), 'exchange-test-contracts');
  const cached = path.join(dir, `TestToken-${key}.json`);
  try {
    return JSON.parse(await readFile(cached, 'utf8')) as CompiledToken;
  } catch {
    // Not compiled yet by this source and compiler: compile below.
  }
  const input = {
    language: 'Solidity',
    sources: { 'TestToken.sol': { content: source } },
    settings: {
      // Hardhat 2.29's default hardfork runs it; pinned so a newer solc's default cannot outrun it.
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { TestToken: ['abi', 'evm.bytecode.object'] } },
    },
  };
  // solc's typings say `any`: compile() takes and returns standard JSON as strings.
  const output = JSON.parse((solc.compile as (json: string) => string)(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const contract = output.contracts['TestToken.sol']?.['TestToken'];
  if (contract === undefined) throw new Error('solc produced no TestToken');
  const compiled: CompiledToken = {
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
  };
  await mkdir(dir, { recursive: true });
  // Written aside and renamed, so a parallel test file never reads half a file.
  const partial = `${cached}.${process.pid}.tmp`;
  await writeFile(partial, JSON.stringify(compiled));
  await rename(partial, cached);
  return compiled;
}

/** What the proxy in front of the node does with the next requests. */
export type RpcFault =
  | { readonly kind: 'status'; readonly status: number; readonly headers?: Record<string, string> }
  | { readonly kind: 'hang' }
  | { readonly kind: 'rpc-error'; readonly code: number; readonly message: string }
  /** An `eth_getLogs` over more than `maxBlocks` blocks is refused, as hosted nodes refuse it. */
  | { readonly kind: 'log-range'; readonly maxBlocks: number }
  /** The node answers `null` (a receipt it does not have, say). */
  | { readonly kind: 'null-result' }
  /** The node's `safe` block is `blocks` behind its latest (consensus not settled yet). */
  | { readonly kind: 'safe-behind'; readonly blocks: number };

export interface RpcFaults {
  /**
   * Every request from now on meets this fault, until {@link RpcFaults.clear}; with `methods`,
   * only the requests calling one of those JSON-RPC methods (a head read passes, a lookup fails).
   */
  set(fault: RpcFault, methods?: readonly string[]): void;
  clear(): void;
  /** JSON-RPC requests that reached the proxy (a batch counts once). */
  readonly requests: number;
}

export interface TestTokens {
  /** "Tether USD" (USDT), 6 decimals: the official token in the tests. */
  readonly usdt6: Address;
  /** "Binance-Peg BSC-USD" (USDT), 18 decimals. */
  readonly usdt18: Address;
  /** Another "Tether USD" (USDT), 6 decimals, at its own address: the fraud's fake token. */
  readonly lookAlike: Address;
}

export interface EvmTestChain {
  /** The JSON-RPC URL readers use (through the fault proxy). */
  readonly url: string;
  /** The node's own URL, without the proxy. */
  readonly nodeUrl: string;
  readonly tokens: TestTokens;
  readonly compiled: CompiledToken;
  /** Deployed the tokens; holds no balance. */
  readonly deployer: Address;
  /** Holds 1 000 000 of each token. */
  readonly customer: Address;
  /** Where deposits go; starts empty. */
  readonly deposit: Address;
  /** Someone else, for transfers that pay the wrong address. */
  readonly stranger: Address;
  readonly faults: RpcFaults;
  /** Sends `amount` base units of `token` from `from`; mined at once (automine). */
  transfer(token: Address, from: Address, to: Address, amount: bigint): Promise<Hash>;
  /**
   * A transfer that is mined and reverts: more than `from` holds, sent with a fixed gas limit
   * (no estimate to refuse it) while automine is off, then mined.
   */
  failingTransfer(token: Address, from: Address, to: Address, amount: bigint): Promise<Hash>;
  mine(blocks: number): Promise<void>;
  blockNumber(): Promise<number>;
  /** evm_snapshot: the id to revert to. */
  snapshot(): Promise<Hex>;
  /** evm_revert: the chain as it was at the snapshot, as a reorganisation leaves it. */
  revert(id: Hex): Promise<void>;
  /** Any JSON-RPC method of the node (hardhat_*, evm_*, eth_*). */
  rpc(method: string, params?: unknown[]): Promise<unknown>;
  stop(): Promise<void>;
}

const HOLDING = 1_000_000n;

export interface EvmChainOptions {
  /** The node's port on 127.0.0.1; a free one when unset. */
  readonly port?: number;
  /** The fault proxy's port; a free one when unset. */
  readonly proxyPort?: number;
}

export async function startEvmChain(options: EvmChainOptions = {}): Promise<EvmTestChain> {
  const compiled = await compileTestToken();
  // Hardhat resolves a config relative to a real file; an empty one in a temp directory keeps
  // the repository free of a hardhat.config.
  const configDir = path.join(os.tmpdir(), 'exchange-test-hardhat');
  await mkdir(configDir, { recursive: true });
  const configPath = path.join(configDir, 'hardhat.config.cjs');
  await writeFile(configPath, 'module.exports = {};\n');
  const config = resolveConfig(configPath, {
    networks: { hardhat: { chainId: hardhat.id, loggingEnabled: false } },
  });
  const provider = await createProvider(config, 'hardhat');
  const server = new JsonRpcServer({ hostname: '127.0.0.1', port: options.port ?? 0, provider });
  const { port } = await server.listen();
  const nodeUrl = `http://127.0.0.1:${port}`;
  const proxy = await startFaultProxy(nodeUrl, options.proxyPort ?? 0);

  const transport = httpTransport(nodeUrl, { retryCount: 0 });
  const wallet = createWalletClient({ chain: hardhat, transport });
  const reader = createPublicClient({ chain: hardhat, transport, cacheTime: 0 });
  let rpcId = 0;
  const rpc = async (method: string, params: unknown[] = []): Promise<unknown> => {
    rpcId += 1;
    const answer = await fetch(nodeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: rpcId, method, params }),
    });
    const body = (await answer.json()) as { result?: unknown; error?: { message: string } };
    if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };

  const [deployer, customer, deposit, stranger] = await wallet.getAddresses();
  if (
    deployer === undefined ||
    customer === undefined ||
    deposit === undefined ||
    stranger === undefined
  ) {
    throw new Error('Hardhat gave fewer than four accounts');
  }

  const deploy = async (name: string, symbol: string, decimals: number): Promise<Address> => {
    const hash = await wallet.deployContract({
      abi: compiled.abi,
      bytecode: compiled.bytecode,
      args: [name, symbol, decimals],
      account: deployer,
    });
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    if (receipt.contractAddress === null || receipt.contractAddress === undefined) {
      throw new Error(`${name} was not deployed`);
    }
    const address = getAddress(receipt.contractAddress);
    await wallet.writeContract({
      address,
      abi: compiled.abi,
      functionName: 'mint',
      args: [customer, HOLDING * 10n ** BigInt(decimals)],
      account: deployer,
    });
    return address;
  };
  const tokens: TestTokens = {
    usdt6: await deploy('Tether USD', 'USDT', 6),
    usdt18: await deploy('Binance-Peg BSC-USD', 'USDT', 18),
    lookAlike: await deploy('Tether USD', 'USDT', 6),
  };

  const blockNumber = async () => Number(await reader.getBlockNumber({ cacheTime: 0 }));
  return {
    url: proxy.url,
    nodeUrl,
    tokens,
    compiled,
    deployer,
    customer,
    deposit,
    stranger,
    faults: proxy.faults,
    transfer: (token, from, to, amount) =>
      wallet.writeContract({
        address: token,
        abi: compiled.abi,
        functionName: 'transfer',
        args: [to, amount],
        account: from,
      }),
    failingTransfer: async (token, from, to, amount) => {
      await rpc('evm_setAutomine', [false]);
      try {
        const hash = await wallet.sendTransaction({
          account: from,
          to: token,
          data: encodeFunctionData({
            abi: compiled.abi,
            functionName: 'transfer',
            args: [to, amount],
          }),
          gas: 100_000n,
        });
        await rpc('evm_mine');
        return hash;
      } finally {
        await rpc('evm_setAutomine', [true]);
      }
    },
    mine: async (blocks) => {
      await rpc('hardhat_mine', [`0x${blocks.toString(16)}`]);
    },
    blockNumber,
    snapshot: async () => (await rpc('evm_snapshot')) as Hex,
    revert: async (id) => {
      const reverted = await rpc('evm_revert', [id]);
      if (reverted !== true) throw new Error(`evm_revert ${id} failed`);
    },
    rpc,
    stop: async () => {
      await proxy.stop();
      await server.close();
    },
  };
}

/** Finds a port nobody listens on: for "the node is down". */
export async function deadPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The JSON-RPC methods a request body calls (one, or each of a batch's). */
function methodsOf(body: Buffer): string[] {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    return calls.map((call) => {
      const method = (call as { method?: unknown }).method;
      return typeof method === 'string' ? method : '';
    });
  } catch {
    return [];
  }
}

/** A request for the `safe` block turned into one for the block `blocks` behind the latest. */
async function safeBehind(target: string, body: Buffer, blocks: number): Promise<Buffer> {
  const call = JSON.parse(body.toString('utf8')) as { method?: string; params?: unknown[] };
  if (call.method !== 'eth_getBlockByNumber' || call.params?.[0] !== 'safe') return body;
  const answer = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  });
  const { result } = (await answer.json()) as { result: string };
  const behind = Math.max(0, Number(BigInt(result)) - blocks);
  const params = [`0x${behind.toString(16)}`, ...call.params.slice(1)];
  return Buffer.from(JSON.stringify({ ...call, params }));
}

/** The JSON-RPC error a node gives an `eth_getLogs` over more than `maxBlocks` blocks. */
function logRangeRefusal(body: Buffer, maxBlocks: number): object | undefined {
  const call = JSON.parse(body.toString('utf8')) as {
    id?: unknown;
    method?: string;
    params?: { fromBlock?: string; toBlock?: string }[];
  };
  const range = call.params?.[0];
  if (call.method !== 'eth_getLogs' || range?.fromBlock === undefined) return undefined;
  const blocks = Number(BigInt(range.toBlock ?? range.fromBlock) - BigInt(range.fromBlock)) + 1;
  if (blocks <= maxBlocks) return undefined;
  // Alchemy's wording and code for the same refusal.
  return {
    jsonrpc: '2.0',
    id: call.id ?? null,
    error: {
      code: -32602,
      message: `Log response size exceeded. You can make eth_getLogs requests with up to a ${maxBlocks} block range.`,
    },
  };
}

async function startFaultProxy(
  target: string,
  listenPort: number,
): Promise<{ url: string; faults: RpcFaults; stop(): Promise<void> }> {
  let armed: RpcFault | undefined;
  let only: readonly string[] | undefined;
  let requests = 0;
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests += 1;
      const body = Buffer.concat(chunks);
      const fault =
        only === undefined || methodsOf(body).some((m) => only?.includes(m)) ? armed : undefined;
      if (fault?.kind === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (fault?.kind === 'status') {
        res.writeHead(fault.status, { 'content-type': 'text/plain', ...fault.headers });
        res.end(`fault ${fault.status}`);
        return;
      }
      if (fault?.kind === 'log-range') {
        const refusal = logRangeRefusal(body, fault.maxBlocks);
        if (refusal !== undefined) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(refusal));
          return;
        }
      }
      if (fault?.kind === 'null-result') {
        const { id } = JSON.parse(body.toString('utf8')) as { id?: unknown };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: id ?? null, result: null }));
        return;
      }
      if (fault?.kind === 'rpc-error') {
        const { id } = JSON.parse(body.toString('utf8')) as { id?: unknown };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: id ?? null,
            error: { code: fault.code, message: fault.message },
          }),
        );
        return;
      }
      const forwarded =
        fault?.kind === 'safe-behind' ? safeBehind(target, body, fault.blocks) : body;
      Promise.resolve(forwarded)
        .then((sent) =>
          fetch(target, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: sent.toString('utf8'),
          }),
        )
        .then(async (answer) => {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => {
          res.writeHead(502);
          res.end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    faults: {
      set: (next, methods) => {
        armed = next;
        only = methods;
      },
      clear: () => {
        armed = undefined;
        only = undefined;
        for (const res of hanging) res.destroy();
      },
      get requests() {
        return requests;
      },
    },
    stop: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
