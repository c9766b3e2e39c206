/**
 * Which chain a node is on (src/server/chain/readers/chain-ids.ts and checked-reader.ts): a node
 * answering another chain's id than its network's stops the server with the variable, the
 * expected and the actual id; a test network (a local chain, a public testnet, a Tron genesis
 * other than mainnet's) stops it too when a real bot token is set, unless
 * CHAIN_ALLOW_TEST_NETWORKS=1, and passes with a warning in demo mode; a node that cannot be
 * reached is warned about, the server starts, and its network is not read until the node has
 * answered its chain (asked again at most once a minute). Against the in-process Hardhat node,
 * tiny fake JSON-RPC servers and the TronGrid fake, and through the real server process.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as viemChains from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChainConfig } from '../../../src/server/platform/config/chain-config';
import { ChainUnavailable } from '../../../src/server/chain/readers/chain-reader';
import {
  ChainIdMismatch,
  LOCAL_TEST_CHAIN_ID,
  TEST_CHAIN_IDS,
  TRON_MAINNET_GENESIS,
  checkChainIds,
  testNetworksOf,
} from '../../../src/server/chain/readers/chain-ids';
import { createChainReaders } from '../../../src/server/chain/readers/chain-readers';
import { CHAIN_ID_RECHECK_MS } from '../../../src/server/chain/readers/checked-reader';
import { loadConfig } from '../../../src/server/platform/config/config';
import { checkChainOnce } from '../../../src/server/chain/chain-checker';
import {
  chainCheckContext,
  createChainTestApp,
  evmChainConfig,
  waitingSell,
} from '../../helpers/chain-app';
import { deadPort, startEvmChain, type EvmTestChain } from '../../helpers/evm-chain';
import {
  ServerProcess,
  freePort,
  serverDatabase,
  type ServerDatabase,
} from '../../helpers/server-process';
import type { TestApp } from '../../helpers/test-app';
import { MAINNET_GENESIS, startTronGridFake, type TronGridFake } from '../../helpers/trongrid-fake';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const NILE_GENESIS = '0000000000000000d698d4192c56cb6be724a558448e2684802de4d6cd8690dc';
/** What a server with real money is configured with, beside its chains. */
const REAL = {
  BOT_TOKEN: '123456789:AAEhBP0av28FvkX8Q1jUd2fCNNqE-IAjQGc',
  DEPOSIT_ADDRESS_TRC20: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
  DEPOSIT_ADDRESS_EVM: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
};

/** A JSON-RPC node that answers eth_chainId with `chainId` (and nothing else it knows). */
async function fakeNode(chainId: number): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const call = JSON.parse(body) as { id: number; method: string };
      const answer =
        call.method === 'eth_chainId'
          ? { jsonrpc: '2.0', id: call.id, result: `0x${chainId.toString(16)}` }
          : { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'method not found' } };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A node coming up on `port` (dead until now): it passes every request on to `target`. */
async function nodeComingUp(port: number, target: string) {
  let requests = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests += 1;
      const body = Buffer.concat(chunks);
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (answer) => {
          response.writeHead(answer.status, { 'content-type': 'application/json' });
          response.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => {
          response.writeHead(502);
          response.end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    requests: () => requests,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A logger that keeps the messages of its info, warn and error lines. */
function capturingLog() {
  const lines: { level: 'info' | 'warn' | 'error'; message: string }[] = [];
  const keep =
    (level: 'info' | 'warn' | 'error') =>
    (...args: unknown[]) => {
      const message = args.find((arg) => typeof arg === 'string');
      lines.push({ level, message: message ?? '' });
    };
  const messages = (level: 'info' | 'warn' | 'error') =>
    lines.filter((line) => line.level === level).map((line) => line.message);
  return { lines, messages, log: { info: keep('info'), warn: keep('warn'), error: keep('error') } };
}

function readersOf(variables: Record<string, string>, now?: () => number) {
  const parsed = parseChainConfig(variables);
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return createChainReaders(parsed.config, { timeoutMs: 2_000, ...(now ? { now } : {}) });
}

/** The refusal of `network`'s node on Hardhat, whose mainnet is chain id `mainnet`, with a bot token. */
const hardhatRefused = (network: string, mainnet: number) =>
  `CHAIN_RPC_${network} is a test network (chain id 31337, Hardhat's local chain), not ${network} (chain id ${mainnet}): with a BOT_TOKEN this is a real exchange, which never counts coins of a test network; set CHAIN_ALLOW_TEST_NETWORKS=1 if this server is a test`;

let chain: EvmTestChain;
let ethereum: Awaited<ReturnType<typeof fakeNode>>;
let bsc: Awaited<ReturnType<typeof fakeNode>>;
let sepolia: Awaited<ReturnType<typeof fakeNode>>;
let tron: TronGridFake;

beforeAll(async () => {
  chain = await startEvmChain();
  ethereum = await fakeNode(1);
  bsc = await fakeNode(56);
  sepolia = await fakeNode(11_155_111);
  tron = await startTronGridFake();
}, 60_000);

afterAll(async () => {
  await ethereum.close();
  await bsc.close();
  await sepolia.close();
  await tron.stop();
  await chain.stop();
});

describe('the rules', () => {
  it("the test networks' table holds the ids viem gives the local chains and our networks' testnets", () => {
    const names = ['hardhat', 'localhost', 'sepolia', 'holesky', 'bscTestnet', 'polygonAmoy']
      .concat(['arbitrumSepolia', 'optimismSepolia', 'baseSepolia'])
      .map((name) => name as keyof typeof viemChains);
    const ids = names.map((name) => (viemChains[name] as { id: number }).id);
    expect(Object.keys(TEST_CHAIN_IDS).map(Number).sort()).toEqual(ids.sort());
    expect(LOCAL_TEST_CHAIN_ID).toBe(viemChains.hardhat.id);
  });

  it("the server's Tron mainnet genesis is the one the TronGrid fake spells for itself", () => {
    expect(TRON_MAINNET_GENESIS).toBe(MAINNET_GENESIS);
  });

  it('demo mode lets test networks through; a bot token refuses them unless CHAIN_ALLOW_TEST_NETWORKS=1', () => {
    expect(testNetworksOf(loadConfig({}))).toBe('demo');
    expect(testNetworksOf(loadConfig({ CHAIN_ALLOW_TEST_NETWORKS: '0' }))).toBe('demo');
    expect(testNetworksOf(loadConfig(REAL))).toBe('refused');
    expect(testNetworksOf(loadConfig({ ...REAL, CHAIN_ALLOW_TEST_NETWORKS: '0' }))).toBe('refused');
    expect(testNetworksOf(loadConfig({ ...REAL, CHAIN_ALLOW_TEST_NETWORKS: '1' }))).toBe('allowed');
    expect(() => loadConfig({ CHAIN_ALLOW_TEST_NETWORKS: 'yes' })).toThrow(
      'CHAIN_ALLOW_TEST_NETWORKS must be 1 or 0, got "yes"',
    );
  });
});

describe('checkChainIds: EVM nodes', () => {
  it('in demo mode the local Hardhat chain (31337) is let through, with a warning per network naming its variable', async () => {
    const { messages, log } = capturingLog();
    const outcomes = await checkChainIds(createChainReaders(evmChainConfig(chain)), 'demo', log);
    expect(outcomes).toEqual([
      { network: 'BEP20', kind: 'test', id: LOCAL_TEST_CHAIN_ID },
      { network: 'ERC20', kind: 'test', id: LOCAL_TEST_CHAIN_ID },
    ]);
    expect(messages('warn')).toEqual([
      "CHAIN_RPC_BEP20 is a test network (chain id 31337, Hardhat's local chain), not BEP20 (chain id 56): fine for tests and a demo, never for real money",
      "CHAIN_RPC_ERC20 is a test network (chain id 31337, Hardhat's local chain), not ERC20 (chain id 1): fine for tests and a demo, never for real money",
    ]);
  });

  it('with a real bot token a test network stops the start: the variable, the network, the id and CHAIN_ALLOW_TEST_NETWORKS', async () => {
    const { log } = capturingLog();
    const readers = readersOf({ CHAIN_RPC_BEP20: chain.url, CHAIN_RPC_ERC20: sepolia.url });
    await expect(checkChainIds(readers, 'refused', log)).rejects.toThrow(
      new ChainIdMismatch([
        hardhatRefused('BEP20', 56),
        "CHAIN_RPC_ERC20 is a test network (chain id 11155111, Sepolia, Ethereum's testnet), not ERC20 (chain id 1): with a BOT_TOKEN this is a real exchange, which never counts coins of a test network; set CHAIN_ALLOW_TEST_NETWORKS=1 if this server is a test",
      ]),
    );
  });

  it('with a real bot token and CHAIN_ALLOW_TEST_NETWORKS=1 a test network starts, with a warning', async () => {
    const { messages, log } = capturingLog();
    const readers = readersOf({ CHAIN_RPC_ERC20: sepolia.url });
    const outcomes = await checkChainIds(readers, 'allowed', log);
    expect(outcomes).toEqual([{ network: 'ERC20', kind: 'test', id: 11_155_111 }]);
    expect(messages('warn')).toEqual([
      "CHAIN_RPC_ERC20 is a test network (chain id 11155111, Sepolia, Ethereum's testnet), not ERC20 (chain id 1): let through by CHAIN_ALLOW_TEST_NETWORKS=1 for a test, never for real money",
    ]);
  });

  it('a node of another chain (CHAIN_RPC_BEP20 on Ethereum) is refused, even with CHAIN_ALLOW_TEST_NETWORKS=1 or in demo mode', async () => {
    const { log } = capturingLog();
    const readers = readersOf({ CHAIN_RPC_BEP20: ethereum.url, CHAIN_RPC_ERC20: ethereum.url });
    for (const testNetworks of ['demo', 'allowed', 'refused'] as const) {
      const refusal = await checkChainIds(readers, testNetworks, log).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(ChainIdMismatch);
      // The ERC20 node is right: only BEP20's is named.
      expect((refusal as ChainIdMismatch).message).toBe(
        'CHAIN_RPC_BEP20 answers chain id 1, but BEP20 is chain id 56: the URL points at another chain',
      );
    }
  });

  it('every wrong node is named, one line each', async () => {
    const { log } = capturingLog();
    const readers = readersOf({ CHAIN_RPC_POLYGON: bsc.url, CHAIN_RPC_BASE: ethereum.url });
    await expect(checkChainIds(readers, 'demo', log)).rejects.toThrow(
      'CHAIN_RPC_POLYGON answers chain id 56, but POLYGON is chain id 137: the URL points at another chain\n' +
        'CHAIN_RPC_BASE answers chain id 1, but BASE is chain id 8453: the URL points at another chain',
    );
  });

  it('a node that refuses connections: a warning, and the start goes on', async () => {
    const { lines, log } = capturingLog();
    const readers = readersOf({
      CHAIN_RPC_BEP20: bsc.url,
      CHAIN_RPC_ARBITRUM: `http://127.0.0.1:${await deadPort()}`,
    });
    const outcomes = await checkChainIds(readers, 'refused', log);
    expect(outcomes.map(({ network, kind }) => ({ network, kind }))).toEqual([
      { network: 'BEP20', kind: 'right' },
      { network: 'ARBITRUM', kind: 'unreachable' },
    ]);
    expect(lines).toContainEqual({
      level: 'warn',
      message:
        'CHAIN_RPC_ARBITRUM could not be asked its chain id at start-up: starting anyway; ARBITRUM is not read until the node has answered it, asked again at most once a minute',
    });
  });
});

describe('checkChainIds: a TronGrid endpoint, by its genesis block', () => {
  it("mainnet's genesis block passes, with a real bot token: asked with POST /wallet/getblockbynum {num: 0}", async () => {
    tron.setGenesis(MAINNET_GENESIS);
    const { lines, log } = capturingLog();
    const before = tron.calls.length;
    const outcomes = await checkChainIds(readersOf({ CHAIN_RPC_TRC20: tron.url }), 'refused', log);
    expect(outcomes).toEqual([{ network: 'TRC20', kind: 'right', id: MAINNET_GENESIS }]);
    expect(lines).toEqual([{ level: 'info', message: 'chain node answers its chain' }]);
    expect(
      tron.calls.slice(before).map(({ method, path, body }) => ({ method, path, body })),
    ).toEqual([{ method: 'POST', path: '/wallet/getblockbynum', body: { num: 0 } }]);
  });

  it('another genesis block (Nile) stops the start with a real bot token, naming the variable and both blocks', async () => {
    tron.setGenesis(NILE_GENESIS);
    const { log } = capturingLog();
    const readers = readersOf({ CHAIN_RPC_TRC20: tron.url });
    await expect(checkChainIds(readers, 'refused', log)).rejects.toThrow(
      `CHAIN_RPC_TRC20 is a test network (genesis block ${NILE_GENESIS}, Nile testnet), not TRC20 (Tron mainnet, genesis block ${MAINNET_GENESIS}): with a BOT_TOKEN this is a real exchange, which never counts coins of a test network; set CHAIN_ALLOW_TEST_NETWORKS=1 if this server is a test`,
    );
  });

  it('a local fake with a genesis of its own starts with CHAIN_ALLOW_TEST_NETWORKS=1 or in demo mode, with a warning', async () => {
    const own = 'ab'.repeat(32);
    tron.setGenesis(own);
    try {
      for (const testNetworks of ['allowed', 'demo'] as const) {
        const { messages, log } = capturingLog();
        const readers = readersOf({ CHAIN_RPC_TRC20: tron.url });
        const outcomes = await checkChainIds(readers, testNetworks, log);
        expect(outcomes).toEqual([{ network: 'TRC20', kind: 'test', id: own }]);
        expect(messages('warn')).toEqual([
          `CHAIN_RPC_TRC20 is a test network (genesis block ${own}, not a known network: a private chain or a fake), not TRC20 (Tron mainnet, genesis block ${MAINNET_GENESIS}): ` +
            (testNetworks === 'demo'
              ? 'fine for tests and a demo, never for real money'
              : 'let through by CHAIN_ALLOW_TEST_NETWORKS=1 for a test, never for real money'),
        ]);
      }
    } finally {
      tron.setGenesis(MAINNET_GENESIS);
    }
  });

  it('an endpoint that cannot be reached: a warning naming its genesis block, and the start goes on', async () => {
    const { messages, log } = capturingLog();
    const readers = readersOf({ CHAIN_RPC_TRC20: `http://127.0.0.1:${await deadPort()}` });
    const outcomes = await checkChainIds(readers, 'refused', log);
    expect(outcomes.map(({ network, kind }) => ({ network, kind }))).toEqual([
      { network: 'TRC20', kind: 'unreachable' },
    ]);
    expect(messages('warn')).toEqual([
      'CHAIN_RPC_TRC20 could not be asked its genesis block at start-up: starting anyway; TRC20 is not read until the node has answered it, asked again at most once a minute',
    ]);
  });
});

describe('a node unreachable at start-up', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createChainTestApp(chain);
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  /** ERC20 alone, read from `port` on 127.0.0.1, re-asked by the test app's clock. */
  function erc20On(port: number) {
    return readersOf(
      {
        CHAIN_RPC_ERC20: `http://127.0.0.1:${port}`,
        CHAIN_CONFIRMATIONS_ERC20: '5',
        TOKEN_CONTRACT_USDT_ERC20: chain.tokens.usdt6,
      },
      t.clock.now,
    );
  }

  it('is not read until it has answered its chain, asked again at most once a minute, and read from then on', async () => {
    await waitingSell(t, 'ERC20');
    const port = await deadPort();
    const readers = erc20On(port);
    const { lines, messages, log } = capturingLog();
    expect((await checkChainIds(readers, 'demo', log)).map((outcome) => outcome.kind)).toEqual([
      'unreachable',
    ]);
    const ctx = { ...chainCheckContext(t), chain: readers };
    expect((await checkChainOnce(ctx, t.clock.now())).heads).toEqual([]);

    const node = await nodeComingUp(port, chain.nodeUrl);
    try {
      // Up now, but asked again only a minute after the last ask: nothing is sent to it before.
      t.clock.advance(CHAIN_ID_RECHECK_MS - 1_000);
      expect((await checkChainOnce(ctx, t.clock.now())).heads).toEqual([]);
      expect(node.requests()).toBe(0);
      const refusal = await readers.ERC20?.head().catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(ChainUnavailable);
      expect((refusal as ChainUnavailable).fault).toBe('unverified');
      expect((refusal as ChainUnavailable).message).toBe(
        'ERC20 head: CHAIN_RPC_ERC20 has not answered its chain id yet: not read until it has',
      );

      t.clock.advance(1_000);
      const lineCount = lines.length;
      expect((await checkChainOnce(ctx, t.clock.now())).heads).toEqual(['ERC20']);
      expect(lines.slice(lineCount)).toEqual([
        {
          level: 'warn',
          message:
            "CHAIN_RPC_ERC20 is a test network (chain id 31337, Hardhat's local chain), not ERC20 (chain id 1): fine for tests and a demo, never for real money",
        },
        { level: 'info', message: 'CHAIN_RPC_ERC20 has answered its chain: ERC20 is read now' },
      ]);
      // Verified once: the next rounds read the head without asking the chain id again.
      const asked = node.requests();
      expect((await checkChainOnce(ctx, t.clock.now())).heads).toEqual(['ERC20']);
      expect(node.requests()).toBeGreaterThan(asked);
      expect(messages('error')).toEqual([]);
    } finally {
      await node.close();
    }
  });

  it('found on a test network later, with a real bot token: an error, the server goes on, the network stays unread and is asked no more', async () => {
    const port = await deadPort();
    const readers = erc20On(port);
    const { messages, log } = capturingLog();
    await checkChainIds(readers, 'refused', log);
    const node = await nodeComingUp(port, chain.nodeUrl);
    try {
      t.clock.advance(CHAIN_ID_RECHECK_MS);
      const refusal = await readers.ERC20?.head().catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(ChainUnavailable);
      expect((refusal as ChainUnavailable).message).toBe(
        `ERC20 head: ${hardhatRefused('ERC20', 1)}`,
      );
      expect(messages('error')).toEqual([
        `${hardhatRefused('ERC20', 1)}. Found after start-up: the server keeps running, and ERC20 stays unread until it is restarted with the right URL`,
      ]);
      const asked = node.requests();
      expect(asked).toBe(1);
      t.clock.advance(10 * CHAIN_ID_RECHECK_MS);
      const ctx = { ...chainCheckContext(t), chain: readers };
      expect((await checkChainOnce(ctx, t.clock.now())).heads).toEqual([]);
      await expect(readers.ERC20?.decimals(chain.tokens.usdt6)).rejects.toThrow(ChainUnavailable);
      expect(node.requests()).toBe(asked);
      expect(messages('error')).toHaveLength(1);
    } finally {
      await node.close();
    }
  });
});

describe('the server process', () => {
  const dirs: string[] = [];
  const databases: ServerDatabase[] = [];
  afterAll(async () => {
    for (const database of databases) await database.drop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function serverEnv(extra: Record<string, string>): Promise<Record<string, string>> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exchange-chainid-'));
    dirs.push(dir);
    const database = await serverDatabase(dir);
    databases.push(database);
    return {
      ...database.env,
      RECEIPTS_DIR: path.join(dir, 'receipts'),
      DEMO_AUTOPILOT: 'off',
      ...extra,
    };
  }

  /** Starts src/server/main.ts and waits for it to exit: its exit code and stderr. */
  async function exitOf(env: Record<string, string>, port: number) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '',
        TMPDIR: process.env['TMPDIR'] ?? '/tmp',
        ...env,
        HOST: '127.0.0.1',
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, stderr };
  }

  it('refuses to start on a node of another chain: exit 1, the reason on stderr, never listening', async () => {
    const port = await freePort();
    const { code, stderr } = await exitOf(await serverEnv({ CHAIN_RPC_BEP20: ethereum.url }), port);
    expect(code, stderr).toBe(1);
    expect(stderr).toContain(
      'CHAIN_RPC_BEP20 answers chain id 1, but BEP20 is chain id 56: the URL points at another chain',
    );
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
  }, 60_000);

  it('with a real BOT_TOKEN refuses to start on the local test chain: exit 1, naming CHAIN_ALLOW_TEST_NETWORKS', async () => {
    const port = await freePort();
    const env = await serverEnv({
      ...REAL,
      CHAIN_RPC_BEP20: chain.url,
      // Nothing reaches Telegram should the start get that far.
      TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
    });
    const { code, stderr } = await exitOf(env, port);
    expect(code, stderr).toBe(1);
    expect(stderr).toContain(hardhatRefused('BEP20', 56));
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
  }, 60_000);

  it('starts with a node that cannot be reached, and says so in its log', async () => {
    const server = await ServerProcess.start({
      port: await freePort(),
      env: await serverEnv({ CHAIN_RPC_ERC20: `http://127.0.0.1:${await deadPort()}` }),
      compiled: false,
    });
    try {
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      expect(server.output).toContain(
        'CHAIN_RPC_ERC20 could not be asked its chain id at start-up: starting anyway',
      );
    } finally {
      await server.stop();
    }
  }, 60_000);
});
