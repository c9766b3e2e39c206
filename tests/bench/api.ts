/**
 * A benchmark of the order API on a temporary SQLite database (or PostgreSQL with
 * TEST_DB=postgres TEST_DATABASE_URL=…): the real server listening on loopback, hit by N
 * concurrent clients. Prints requests per second and latency percentiles per call; nothing is
 * asserted. Run: `npm run bench` (BENCH_SECONDS and BENCH_CONCURRENCY to change the load).
 */
import { performance } from 'node:perf_hooks';
import { DEMO_USER, authHeader, initDataFor } from '../helpers/identity';
import { insertOrder } from '../helpers/orders';
import { createTestApp } from '../helpers/test-app';
import { testDatabaseKind } from '../helpers/test-database';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 16);

async function measure(name: string, request: (i: number) => Promise<Response>): Promise<void> {
  const latencies: number[] = [];
  let failures = 0;
  const until = performance.now() + SECONDS * 1000;
  let i = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const start = performance.now();
        const response = await request(i++);
        await response.arrayBuffer();
        if (!response.ok) failures++;
        latencies.push(performance.now() - start);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => (latencies[Math.floor((latencies.length - 1) * p)] ?? 0).toFixed(2);
  console.log(
    `${name.padEnd(34)} ${(latencies.length / SECONDS).toFixed(0).padStart(7)} req/s` +
      `  p50 ${pct(0.5)} ms  p99 ${pct(0.99)} ms  failures ${failures}`,
  );
}

async function main(): Promise<void> {
  const t = await createTestApp({}, { realClock: true });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const headers = authHeader(initDataFor(DEMO_USER));
  const ids: string[] = [];
  for (let n = 0; n < 200; n++) {
    ids.push(
      await insertOrder(t.database.db, DEMO_USER, {
        status: n % 3 === 0 ? 'COMPLETED' : 'WAITING_REQUISITES',
        created_at: Date.now() - n * 1000,
      }),
    );
  }
  console.log(
    `database ${testDatabaseKind()}, ${CONCURRENCY} concurrent clients, ${SECONDS} s per call, 200 orders`,
  );
  await measure('GET /api/health', () => fetch(`${base}/api/health`));
  await measure('GET /api/orders/{id}/status', (i) =>
    fetch(`${base}/api/orders/${ids[i % ids.length] ?? ''}/status`, { headers }),
  );
  await measure('GET /api/orders/history (20)', () =>
    fetch(`${base}/api/orders/history?status=all&limit=20`, { headers }),
  );
  await measure('GET /api/rates/calculate', () =>
    fetch(
      `${base}/api/rates/calculate?amount=1000&currency=RUB&operation=BUY&cryptoCurrency=USDT&paymentMethod=P2P`,
      { headers },
    ),
  );
  await t.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
