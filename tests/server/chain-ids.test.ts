/**
 * The start-up check of the EVM nodes' chain ids (issue 23; src/server/chain/chain-ids.ts): a
 * node answering another chain's id than its network's stops the server with the variable, the
 * expected and the actual id; the local test chain (Hardhat, 31337) is let through with a
 * warning; a node that cannot be reached is warned about and the server starts anyway. Against
 * the in-process Hardhat node and tiny fake JSON-RPC servers, and through the real server process.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChainConfig } from '../../src/server/chain/chain-config';
import {
  ChainIdMismatch,
  LOCAL_TEST_CHAIN_ID,
  checkEvmChainIds,
} from '../../src/server/chain/chain-ids';
import { createChainReaders } from '../../src/server/chain/chain-readers';
import { evmChainConfig } from '../helpers/chain-app';
import { deadPort, startEvmChain, type EvmTestChain } from '../helpers/evm-chain';
import {
  ServerProcess,
  freePort,
  serverDatabase,
  type ServerDatabase,
} from '../helpers/server-process';

const ROOT = path.resolve(import.meta.dirname, '../..');

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

/** A logger that keeps the messages of its info and warn lines. */
function capturingLog() {
  const lines: { level: 'info' | 'warn'; message: string }[] = [];
  const keep =
    (level: 'info' | 'warn') =>
    (...args: unknown[]) => {
      const message = args.find((arg) => typeof arg === 'string');
      lines.push({ level, message: message ?? '' });
    };
  return { lines, log: { info: keep('info'), warn: keep('warn') } };
}

function readersOf(variables: Record<string, string>) {
  const parsed = parseChainConfig(variables);
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return createChainReaders(parsed.config, { timeoutMs: 2_000 });
}

let chain: EvmTestChain;
let ethereum: Awaited<ReturnType<typeof fakeNode>>;
let bsc: Awaited<ReturnType<typeof fakeNode>>;

beforeAll(async () => {
  chain = await startEvmChain();
  ethereum = await fakeNode(1);
  bsc = await fakeNode(56);
}, 60_000);

afterAll(async () => {
  await ethereum.close();
  await bsc.close();
  await chain.stop();
});

describe('checkEvmChainIds', () => {
  it('the local Hardhat chain (31337) is let through, with a warning per network naming its variable', async () => {
    const { lines, log } = capturingLog();
    const outcomes = await checkEvmChainIds(createChainReaders(evmChainConfig(chain)), log);
    expect(outcomes).toEqual([
      { network: 'BEP20', kind: 'local', id: LOCAL_TEST_CHAIN_ID },
      { network: 'ERC20', kind: 'local', id: LOCAL_TEST_CHAIN_ID },
    ]);
    expect(lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
      "CHAIN_RPC_BEP20 is a local test chain (chain id 31337), not BEP20's 56: fine for tests and a demo, never for real money",
      "CHAIN_RPC_ERC20 is a local test chain (chain id 31337), not ERC20's 1: fine for tests and a demo, never for real money",
    ]);
  });

  it('a node of another chain (CHAIN_RPC_BEP20 on Ethereum) is refused: the variable, the expected and the actual id', async () => {
    const { log } = capturingLog();
    const readers = readersOf({ CHAIN_RPC_BEP20: ethereum.url, CHAIN_RPC_ERC20: ethereum.url });
    const refusal = await checkEvmChainIds(readers, log).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ChainIdMismatch);
    // The ERC20 node is right: only BEP20's is named.
    expect((refusal as ChainIdMismatch).message).toBe(
      'CHAIN_RPC_BEP20 answers chain id 1, but BEP20 is chain id 56: the URL points at another chain',
    );
  });

  it('every wrong node is named, one line each', async () => {
    const { log } = capturingLog();
    const readers = readersOf({ CHAIN_RPC_POLYGON: bsc.url, CHAIN_RPC_BASE: ethereum.url });
    await expect(checkEvmChainIds(readers, log)).rejects.toThrow(
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
    const outcomes = await checkEvmChainIds(readers, log);
    expect(outcomes.map(({ network, kind }) => ({ network, kind }))).toEqual([
      { network: 'BEP20', kind: 'right' },
      { network: 'ARBITRUM', kind: 'unreachable' },
    ]);
    expect(lines).toContainEqual({
      level: 'warn',
      message:
        'CHAIN_RPC_ARBITRUM could not be asked its chain id at start-up: starting anyway without that check; the chain checker keeps trying the node',
    });
  });

  it('no EVM node configured (Tron only, or all manual): nothing is asked', async () => {
    const { lines, log } = capturingLog();
    const readers = readersOf({ CHAIN_RPC_TRC20: `http://127.0.0.1:${await deadPort()}` });
    expect(await checkEvmChainIds(readers, log)).toEqual([]);
    expect(lines).toEqual([]);
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

  it('refuses to start on a node of another chain: exit 1, the reason on stderr, never listening', async () => {
    const port = await freePort();
    const env = await serverEnv({ CHAIN_RPC_BEP20: ethereum.url });
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
    expect(code, stderr).toBe(1);
    expect(stderr).toContain(
      'CHAIN_RPC_BEP20 answers chain id 1, but BEP20 is chain id 56: the URL points at another chain',
    );
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
        'CHAIN_RPC_ERC20 could not be asked its chain id at start-up',
      );
    } finally {
      await server.stop();
    }
  }, 60_000);
});
