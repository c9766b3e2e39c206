/**
 * The chain checker's bench: RPC calls per minute with 100 and 1 000 waiting sell orders (bounded,
 * not growing with them), and the deposit address scan's lag after an idle day. A Hardhat chain runs in this
 * process (tests/helpers/evm-chain.ts) behind a counting proxy; the server is started the way
 * `npm start` starts it (tests/bench/server-under-test.ts, after its prestart's build-if-stale unless
 * BENCH_NO_BUILD=1) with BEP20 read from that proxy and a short CHAIN_CHECK_INTERVAL_MS, on a
 * SQLite database of its own per run.
 *
 * Each run seeds N sell orders in TX_PENDING with their chain_checks rows, as the submission
 * writes them: half `seen` (real transfers to the deposit address, counting their
 * confirmations) and half `looking` (hashes never broadcast, in the middle of their backoff:
 * attempts 1–6 spread evenly, each due at a random moment of its current wait, as a stream of
 * submissions leaves them). It then lets the checker run for BENCH_CHAIN_SECONDS (60) and prints,
 * for N = 100 and N = 1 000, the HTTP requests and JSON-RPC calls per minute that reached the
 * node (by method) and the server's CPU time per minute. No block is mined during a run, so no
 * seen deposit becomes final and leaves: the orders stay waiting throughout. Nothing is asserted.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { DatabaseConfig } from '../../src/server/platform/config/config';
import { openDatabase } from '../../src/server/platform/db/database';
import type { Database, NewOrderRow } from '../../src/server/platform/db/schema';
import { retryDelay } from '../../src/server/chain/deposit-check';
import { unitsToTokenAmount } from '../../src/shared/money';
import { startEvmChain, type EvmTestChain } from '../helpers/evm-chain';
import { ORDER_DEFAULTS } from '../helpers/orders';
import {
  ROOT,
  SERVER_DIR,
  WORK,
  cpuMicros,
  removeWork,
  startServer,
  stop,
} from './server-under-test';

const SECONDS = Number(process.env['BENCH_CHAIN_SECONDS'] ?? 60);
const SIZES = [100, 1_000] as const;
/**
 * What the server waits for on BEP20: more than the chain's height (each seeded transfer is a
 * block of its own, about 510 in all), so no seen deposit becomes final and leaves during a run.
 */
const CONFIRMATIONS = 2_000;
const INTERVAL_MS = 1_000;
const SELLER_ID = 7_100_000_001;
/** 100 USDT in millionths, the amount of every seeded order and of every real transfer. */
const AMOUNT_UNITS = 100_000_000;

/** What reached the node through the proxy: HTTP requests, JSON-RPC calls, calls by method. */
interface Counts {
  requests: number;
  calls: number;
  readonly byMethod: Map<string, number>;
}

/**
 * A proxy in front of the node that counts, unlike the fault proxy's count, the JSON-RPC calls
 * inside a batch one by one, and names their methods: where the calls come from.
 */
async function startCountingProxy(target: string) {
  const counts: Counts = { requests: 0, calls: 0, byMethod: new Map() };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      counts.requests += 1;
      try {
        const parsed = JSON.parse(body.toString('utf8')) as unknown;
        const calls = (Array.isArray(parsed) ? parsed : [parsed]) as { method?: unknown }[];
        for (const call of calls) {
          counts.calls += 1;
          const method = typeof call.method === 'string' ? call.method : '?';
          counts.byMethod.set(method, (counts.byMethod.get(method) ?? 0) + 1);
        }
      } catch {
        // Not JSON: counted as a request only; the node answers it as it would.
      }
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    reset: () => {
      counts.requests = 0;
      counts.calls = 0;
      counts.byMethod.clear();
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A real deposit: its hash and where it was mined. */
interface Transfer {
  readonly hash: string;
  readonly blockNumber: number;
  readonly logIndex: number;
}

/** `count` transfers of 100 USDT (the 6-decimal token) from the customer to the deposit. */
async function makeTransfers(chain: EvmTestChain, count: number): Promise<Transfer[]> {
  const amount = unitsToTokenAmount(AMOUNT_UNITS, 6);
  const made: Transfer[] = [];
  for (let i = 0; i < count; i += 1) {
    const hash = await chain.transfer(chain.tokens.usdt6, chain.customer, chain.deposit, amount);
    // Straight to the node, not through the proxy: seeding is not the checker's traffic.
    const receipt = (await chain.rpc('eth_getTransactionReceipt', [hash])) as {
      blockNumber: string;
      logs: { logIndex: string }[];
    };
    made.push({
      hash,
      blockNumber: Number(BigInt(receipt.blockNumber)),
      logIndex: Number(BigInt(receipt.logs[0]?.logIndex ?? '0x0')),
    });
  }
  return made;
}

/** N waiting sells in TX_PENDING with their chain_checks rows: half seen, half looking. */
async function seed(
  db: Kysely<Database>,
  chain: EvmTestChain,
  transfers: readonly Transfer[],
  count: number,
  head: number,
): Promise<void> {
  const now = Date.now();
  await db
    .insertInto('users')
    .values({
      telegram_id: SELLER_ID,
      first_name: 'Bench seller',
      last_name: null,
      username: null,
      language_code: 'en',
      first_seen_at: now,
      last_seen_at: now,
    })
    .execute();
  const requisites = JSON.stringify({ walletAddress: chain.deposit });
  for (let from = 0; from < count; from += 100) {
    const ids = Array.from({ length: Math.min(100, count - from) }, (_, i) => from + i);
    const rows = ids.map((index) => {
      const seen = index % 2 === 0 ? transfers[index / 2] : undefined;
      const hash = seen?.hash ?? `0x${randomBytes(32).toString('hex')}`;
      const id = crypto.randomUUID();
      const order: NewOrderRow = {
        ...ORDER_DEFAULTS,
        id,
        user_id: SELLER_ID,
        type: 'SELL',
        network: 'BEP20',
        status: 'TX_PENDING',
        wallet_address: null,
        requisites,
        payout_card: JSON.stringify({ cardNumber: '2200700123456781', cardHolder: 'IVAN PETROV' }),
        tx_hash: hash,
        created_at: now - 10 * 60_000,
        updated_at: now,
      };
      // A looking hash in the middle of its backoff: attempts 1–6 (15 s doubling to 5 min),
      // due at a random moment of its current wait, as a steady stream of submissions leaves them.
      const attempts = (index % 12) / 2 + 1;
      const check = {
        order_id: id,
        kind: 'deposit' as const,
        network: 'BEP20' as const,
        tx_hash: hash.toLowerCase(),
        required_confirmations: CONFIRMATIONS,
        look_until: now + 2 * 3600_000,
        created_at: now - 10 * 60_000,
        updated_at: now,
        // Every row names every column: a multi-row insert on SQLite writes NULL, not the
        // column's default, where one row lacks a column another has.
        ...(seen === undefined
          ? {
              state: 'looking' as const,
              attempts: Math.floor(attempts),
              next_check_at: now + Math.floor(Math.random() * retryDelay(Math.floor(attempts))),
              log_index: null,
              block_number: null,
              confirmations: 0,
              amount: null,
              decimals: null,
              sender: null,
              contract: null,
            }
          : {
              state: 'seen' as const,
              attempts: 1,
              next_check_at: now,
              log_index: seen.logIndex,
              block_number: seen.blockNumber,
              confirmations: head - seen.blockNumber + 1,
              amount: unitsToTokenAmount(AMOUNT_UNITS, 6).toString(),
              decimals: 6,
              sender: chain.customer.toLowerCase(),
              contract: chain.tokens.usdt6.toLowerCase(),
            }),
      };
      return { order, check };
    });
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('orders')
        .values(rows.map((r) => r.order))
        .execute();
      await trx
        .insertInto('chain_checks')
        .values(rows.map((r) => r.check))
        .execute();
    });
  }
}

interface Figures {
  readonly n: number;
  readonly requestsPerMinute: number;
  readonly callsPerMinute: number;
  readonly byMethod: string;
  readonly cpuMsPerMinute: number;
  readonly stillWaiting: number;
}

async function run(chain: EvmTestChain, transfers: readonly Transfer[], n: number) {
  const proxy = await startCountingProxy(chain.nodeUrl);
  const database: DatabaseConfig = { kind: 'sqlite', path: path.join(WORK, `chain-${n}.db`) };
  const server = await startServer(database, undefined, {
    CHAIN_RPC_BEP20: proxy.url,
    TOKEN_CONTRACT_USDT_BEP20: chain.tokens.usdt6,
    CHAIN_CONFIRMATIONS_BEP20: String(CONFIRMATIONS),
    DEPOSIT_ADDRESS_EVM: chain.deposit,
    CHAIN_CHECK_INTERVAL_MS: String(INTERVAL_MS),
  });
  const { db } = openDatabase(database);
  try {
    await seed(db, chain, transfers, n, await chain.blockNumber());
    // Counted from the moment the orders are there: the start-up's calls are not the checker's.
    proxy.reset();
    const cpuBefore = cpuMicros(server.pid);
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const minutes = (Date.now() - started) / 60_000;
    const cpuMs = (cpuMicros(server.pid) - cpuBefore) / 1000;
    const waiting = await db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', '=', 'TX_PENDING')
      .executeTakeFirstOrThrow();
    const figures: Figures = {
      n,
      requestsPerMinute: Math.round(proxy.counts.requests / minutes),
      callsPerMinute: Math.round(proxy.counts.calls / minutes),
      byMethod: [...proxy.counts.byMethod]
        .sort((a, b) => b[1] - a[1])
        .map(([method, count]) => `${method} ${Math.round(count / minutes)}`)
        .join(', '),
      cpuMsPerMinute: Math.round(cpuMs / minutes),
      stillWaiting: waiting.count,
    };
    return figures;
  } finally {
    await db.destroy();
    await stop(server);
    await proxy.stop();
  }
}

/** A day of BNB Smart Chain's blocks (one every 3 s): what a server down for a day comes back to. */
const IDLE_DAY_BLOCKS = 28_800;

/**
 * The scan after an idle day: a server whose deposit address scan stands at the head, a day of
 * blocks mined at once, and the scan's lag (chain_scans.lag_blocks, what
 * exchange_chain_scan_lag_blocks exports) read each second until it is caught up.
 */
async function idleDay(chain: EvmTestChain): Promise<string> {
  const proxy = await startCountingProxy(chain.nodeUrl);
  const database: DatabaseConfig = { kind: 'sqlite', path: path.join(WORK, 'chain-idle.db') };
  const server = await startServer(database, undefined, {
    CHAIN_RPC_BEP20: proxy.url,
    TOKEN_CONTRACT_USDT_BEP20: chain.tokens.usdt6,
    CHAIN_CONFIRMATIONS_BEP20: '15',
    DEPOSIT_ADDRESS_EVM: chain.deposit,
    CHAIN_CHECK_INTERVAL_MS: String(INTERVAL_MS),
  });
  const { db } = openDatabase(database);
  const scanRow = () =>
    db.selectFrom('chain_scans').select(['lag_blocks', 'updated_at']).executeTakeFirst();
  try {
    while ((await scanRow()) === undefined) await new Promise((r) => setTimeout(r, 200));
    await chain.mine(IDLE_DAY_BLOCKS);
    const minedAt = Date.now();
    proxy.reset();
    const started = Date.now();
    // The lag each scan round wrote after the day was mined, until one wrote 0.
    const seen: number[] = [];
    let lastRound = minedAt;
    while (Date.now() - started < 120_000) {
      await new Promise((r) => setTimeout(r, 100));
      const row = await scanRow();
      if (row === undefined || row.updated_at <= lastRound) continue;
      lastRound = row.updated_at;
      seen.push(row.lag_blocks ?? 0);
      if (row.lag_blocks === 0) break;
    }
    const logs = proxy.counts.byMethod.get('eth_getLogs') ?? 0;
    return (
      `idle day (${IDLE_DAY_BLOCKS} blocks mined at once): lag after each scan round ${seen.join(' → ')} blocks; ` +
      `caught up in ${((Date.now() - started) / 1000).toFixed(1)} s with ${logs} eth_getLogs calls`
    );
  } finally {
    await db.destroy();
    await stop(server);
    await proxy.stop();
  }
}

async function main(): Promise<void> {
  if (process.env['BENCH_NO_BUILD'] !== '1') {
    // What `npm start`'s prestart runs: a build only when the sources are newer than it.
    execFileSync(process.execPath, ['src/server/platform/build-if-stale.mjs'], {
      cwd: SERVER_DIR,
      stdio: 'inherit',
    });
  }
  console.log(
    `chain bench: ${SECONDS} s a run, checker every ${INTERVAL_MS} ms, server from ${path.relative(ROOT, SERVER_DIR) || '.'}`,
  );
  const chain = await startEvmChain();
  try {
    const largest = Math.max(...SIZES);
    const transfers = await makeTransfers(chain, Math.ceil(largest / 2));
    const results: Figures[] = [];
    for (const n of SIZES) {
      const figures = await run(chain, transfers, n);
      results.push(figures);
      console.log(
        `N = ${String(n).padStart(5)} waiting (${Math.ceil(n / 2)} seen, ${Math.floor(n / 2)} looking): ` +
          `${figures.requestsPerMinute} HTTP requests/min, ${figures.callsPerMinute} JSON-RPC calls/min ` +
          `(${figures.byMethod}); server CPU ${figures.cpuMsPerMinute} ms/min; ` +
          `${figures.stillWaiting} still TX_PENDING`,
      );
    }
    const [small, large] = results;
    if (small !== undefined && large !== undefined && small.callsPerMinute > 0) {
      console.log(
        `calls/min at N = ${large.n} over N = ${small.n}: ×${(large.callsPerMinute / small.callsPerMinute).toFixed(1)}`,
      );
    }
    console.log(await idleDay(chain));
  } finally {
    await chain.stop();
    removeWork();
  }
}

await main();
