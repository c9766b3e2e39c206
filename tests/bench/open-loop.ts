/**
 * An open-loop load generator in a process of its own: requests are sent on a fixed schedule
 * (`rate` a second, a random target each) whatever the pace of the answers, over at most
 * `connections` keep-alive connections, and each latency is counted from the time the request
 * was due, so a server that falls behind shows its queue instead of hiding it (no coordinated
 * omission). The first WARM_UP_SECONDS are sent on the same schedule but not counted: the
 * generator's own connections and JIT warming up are not the server's latency. Reads its job as
 * JSON from the file named by argv[2]; prints one line of JSON.
 */
import fs from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { LoadJob, LoadResult } from './load-job';

const job = JSON.parse(fs.readFileSync(process.argv[2] ?? '', 'utf8')) as LoadJob;
const WARM_UP_SECONDS = 1;
const rate = job.rate ?? 1000;
const total = Math.round(rate * (job.seconds + WARM_UP_SECONDS));
const counted = (due: number) => due - start >= WARM_UP_SECONDS * 1000;
const origin = new URL(job.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });

const latencies: number[] = [];
let failed = 0;
let errors = 0;
let sent = 0;
let settled = 0;
let last = 0;

function send(due: number): void {
  const target = job.targets[Math.floor(Math.random() * job.targets.length)] ?? job.targets[0];
  if (target === undefined) throw new Error('no targets');
  const request = http.request(
    {
      agent,
      host: origin.hostname,
      port: origin.port,
      method: target.method,
      path: target.path,
      headers: target.headers,
    },
    (response) => {
      response.resume();
      response.on('end', () => {
        if (counted(due)) {
          if ((response.statusCode ?? 0) >= 400) failed++;
          latencies.push(performance.now() - due);
          last = performance.now();
        }
        finish();
      });
    },
  );
  request.on('error', () => {
    if (counted(due)) errors++;
    finish();
  });
  request.end(target.body);
}

function finish(): void {
  settled++;
  if (settled < total) return;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.floor((latencies.length - 1) * p)] ?? 0;
  const answer: LoadResult = {
    requests: latencies.length,
    // Answers a second until the last one: below `rate` when the server fell behind.
    perSecond: (latencies.length * 1000) / (last - start - WARM_UP_SECONDS * 1000),
    p50: at(0.5),
    p99: at(0.99),
    failed,
    errors,
  };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
  agent.destroy();
}

const start = performance.now();
const interval = 1000 / rate;
function tick(): void {
  const due = Math.min(total, Math.floor((performance.now() - start) / interval) + 1);
  while (sent < due) send(start + sent++ * interval);
  if (sent < total) setTimeout(tick, 1);
}
tick();
