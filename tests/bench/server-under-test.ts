/**
 * The server under a benchmark, as a process of its own: started the way `npm start` starts it
 * (from BENCH_SERVER_DIR, default this checkout, built beforehand), or the bare yardstick; its
 * CPU time and memory read from /proc.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseConfig } from '../../src/server/platform/config/config';
import { freePort } from '../helpers/server-process';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SERVER_DIR = path.resolve(process.env['BENCH_SERVER_DIR'] ?? ROOT);
/** The benchmark's files: databases, logs, jobs. Removed by `removeWork` at the end. */
export const WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'exchange-bench-'));
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

export function removeWork(): void {
  fs.rmSync(WORK, { recursive: true, force: true });
}

export interface Running {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly url: string;
  readonly logFile: string;
}

function spawnServer(command: string, args: string[], env: Record<string, string>, cwd: string) {
  const logFile = path.join(WORK, `server-${Date.now()}.log`);
  const out = fs.openSync(logFile, 'w');
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  return { child, pid: child.pid, logFile };
}

/** A server that did not answer its health check in time (and was killed). */
export class NotReady extends Error {}

async function waitFor(
  url: string,
  running: { child: ChildProcess; logFile: string },
  timeoutMs = 60_000,
) {
  for (const until = Date.now() + timeoutMs; Date.now() < until;) {
    if (running.child.exitCode !== null) break;
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Not left behind: the caller gets no handle on a server that never answered.
  running.child.kill('SIGKILL');
  throw new NotReady(`${url} never answered:\n${fs.readFileSync(running.logFile, 'utf8')}`);
}

/**
 * The project's server, started with the command `npm start` runs (after its build); `extraEnv`
 * adds variables an operator would set (the chain bench's CHAIN_RPC_… and friends).
 */
export async function startServer(
  database: DatabaseConfig,
  readyMs?: number,
  extraEnv: Readonly<Record<string, string>> = {},
): Promise<Running> {
  const port = await freePort();
  const pkg = JSON.parse(fs.readFileSync(path.join(SERVER_DIR, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const start = pkg.scripts['start'];
  if (start === undefined) throw new Error('package.json has no start script');
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    RECEIPTS_DIR: path.join(WORK, 'receipts'),
    DEMO_AUTOPILOT: 'off',
    NODE_ENV: 'production',
    // The lane's switch passes through, so one bench can measure the status route without it.
    ...(process.env['STATUS_LANE'] === undefined
      ? {}
      : { STATUS_LANE: process.env['STATUS_LANE'] }),
    ...(database.kind === 'sqlite'
      ? { SQLITE_PATH: database.path }
      : { DATABASE_URL: database.url }),
    ...extraEnv,
  };
  const running = spawnServer('/bin/sh', ['-c', `exec ${start}`], env, SERVER_DIR);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/health`, running, readyMs);
  return { ...running, url };
}

export async function startBare(bodyFile: string): Promise<Running> {
  const port = await freePort();
  const running = spawnServer(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'tests/bench/bare-server.ts'), String(port), bodyFile],
    {},
    ROOT,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(url, running);
  return { ...running, url };
}

export async function stop(running: Running): Promise<void> {
  const exited = new Promise((resolve) => running.child.once('exit', resolve));
  running.child.kill('SIGTERM');
  // A server whose event loop is held up cannot even act on SIGTERM: killed after 15 s.
  const kill = setTimeout(() => running.child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(kill);
}

/** CPU time (user + system) a process has used, in microseconds. */
export function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command's name.
  return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1e6;
}

/** A process's resident memory now and at its peak, in MB. */
export function memory(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}
