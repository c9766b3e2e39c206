/**
 * The real server as a child process, configured by environment variables only, for tests that
 * kill it: the production bundle (dist-server/) started with package.json's `start` command as
 * it is, Node's flags included, so what is killed is what production runs;
 * the bundle is built first when it is missing or older than a source. Ready once GET
 * /api/health answers 200, killed with SIGKILL at once, and never left behind: every child still
 * running when the test process exits is killed with it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { testDatabaseKind } from './test-database';
import type { DatabaseConfig } from '../../src/server/platform/config/config';

const ROOT = path.resolve(import.meta.dirname, '../..');
/**
 * How many lines of the server's output are kept: its first (how it started: a build, however
 * long the build's own output runs) and its last (to explain a failure).
 */
const FIRST_LINES = 20;
const OUTPUT_LINES = 200;

const running = new Set<ServerProcess>();
process.once('exit', () => {
  for (const server of running) server.killNow();
});

/** A TCP port nothing listens on right now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => (port === 0 ? reject(new Error('no free port')) : resolve(port)));
    });
  });
}

export interface ServerProcessOptions {
  /** The port to listen on, on 127.0.0.1; a restart passes the same one. */
  readonly port: number;
  /** The server's configuration (SQLITE_PATH or DATABASE_URL, RECEIPTS_DIR, OPERATOR_IDS…). */
  readonly env: Readonly<Record<string, string>>;
  readonly readyTimeoutMs?: number;
  /**
   * Run the bundle with package.json's `start` command (what production runs): the default.
   * `false` runs src/server/main.ts through tsx instead, for a test that needs no bundle.
   */
  readonly compiled?: boolean;
  /**
   * A shell command to run instead (the README's `npm start`, as written), in `cwd`: run in a
   * process group of its own, so a kill ends npm and the server it started alike.
   */
  readonly shell?: { readonly command: string; readonly cwd: string };
}

/** What the server bundle is built from: a file in them newer than the bundle makes it stale. */
const BUNDLE_SOURCES = ['src/server', 'src/shared', 'i18n', 'package.json'];

/** The latest modification time of a file at or under `at`. */
function newestChange(at: string): number {
  const stat = fs.statSync(at);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(at)) {
    newest = Math.max(newest, newestChange(path.join(at, entry)));
  }
  return newest;
}

let bundleChecked = false;

/**
 * Builds the server bundle with `npm run build:server` (the step of `npm start`'s build that
 * writes it) when it is missing or older than one of its sources; once per test process.
 */
function ensureBundle(script: string): void {
  if (bundleChecked) return;
  const bundle = path.join(ROOT, script);
  const sources = Math.max(
    ...BUNDLE_SOURCES.map((source) => newestChange(path.join(ROOT, source))),
  );
  if (!fs.existsSync(bundle) || fs.statSync(bundle).mtimeMs < sources) {
    execFileSync('npm', ['run', 'build:server'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  bundleChecked = true;
}

/**
 * package.json's `start`, the command `npm start` runs once its build is done (Node's flags
 * included), after the bundle it runs is built and current.
 */
function compiledStartCommand(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string | undefined>;
  };
  const start = pkg.scripts['start'];
  const script = start?.split(/\s+/).find((word) => word.endsWith('.js'));
  if (start === undefined || script === undefined) {
    throw new Error(`package.json's start script runs no compiled server: ${start ?? '(none)'}`);
  }
  ensureBundle(script);
  return start;
}

export interface ServerExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export class ServerProcess {
  readonly url: string;
  /** Settles when the process has ended, however it ended. */
  readonly exited: Promise<ServerExit>;
  private readonly first: string[] = [];
  private readonly lines: string[] = [];
  private ended = false;

  private constructor(
    private readonly child: ChildProcess,
    port: number,
    private readonly group: boolean,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    running.add(this);
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        if (this.first.length < FIRST_LINES) {
          this.first.push(line);
          continue;
        }
        this.lines.push(line);
        if (this.lines.length > OUTPUT_LINES) this.lines.shift();
      }
    };
    // Read both pipes to the end: a child whose pipe is full stops writing, and then serving.
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.ended = true;
        running.delete(this);
        resolve({ code, signal });
      });
    });
  }

  /** Starts the server and waits until GET /api/health answers 200. */
  static async start(options: ServerProcessOptions): Promise<ServerProcess> {
    const [file, args] =
      options.shell !== undefined
        ? ['/bin/sh', ['-c', options.shell.command]]
        : options.compiled === false
          ? [process.execPath, ['--import', 'tsx', 'src/server/main.ts']]
          : ['/bin/sh', ['-c', `exec ${compiledStartCommand()}`]];
    const child = spawn(file, args, {
      cwd: options.shell?.cwd ?? ROOT,
      detached: options.shell !== undefined,
      // Only what Node needs from the test's environment: a variable of ours (BOT_TOKEN,
      // DATABASE_URL…) set in the shell must not change the server under test.
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '',
        TMPDIR: process.env['TMPDIR'] ?? '/tmp',
        ...options.env,
        HOST: '127.0.0.1',
        PORT: String(options.port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ServerProcess(child, options.port, options.shell !== undefined);
    try {
      await server.waitUntilReady(options.readyTimeoutMs ?? 30_000);
    } catch (error) {
      await server.kill();
      throw error;
    }
    return server;
  }

  /** The command line the server process runs, as the kernel shows it (/proc). */
  get commandLine(): string {
    const pid = this.child.pid;
    if (pid === undefined || this.ended) return '';
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  }

  get alive(): boolean {
    return !this.ended;
  }

  /** The last lines the server wrote (JSON log lines, or a start-up error). */
  outputTail(lines = 30): string {
    return [...this.first, ...this.lines].slice(-lines).join('\n');
  }

  /** Sends SIGKILL now, without waiting: the moment of the kill is the caller's. */
  killNow(): void {
    if (this.ended) return;
    const pid = this.child.pid;
    // A shell command runs as a process group: the group goes with it.
    if (this.group && pid !== undefined) process.kill(-pid, 'SIGKILL');
    else this.child.kill('SIGKILL');
  }

  /** What the process wrote so far: its first lines, and the last ones. */
  get output(): string {
    return [...this.first, ...this.lines].join('\n');
  }

  /** Asks the server to stop (SIGTERM, as a deploy does) and waits until it has ended. */
  async stop(): Promise<ServerExit> {
    if (!this.ended) this.child.kill('SIGTERM');
    return this.exited;
  }

  /** Kills the process with SIGKILL (if it still runs) and waits until it has ended. */
  async kill(): Promise<ServerExit> {
    this.killNow();
    return this.exited;
  }

  private async waitUntilReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.ended) {
        throw new Error(`the server exited before it was ready:\n${this.outputTail()}`);
      }
      try {
        const res = await fetch(`${this.url}/api/health`, { signal: AbortSignal.timeout(2_000) });
        if (res.status === 200) return;
        await res.arrayBuffer();
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) {
        throw new Error(
          `the server did not answer GET /api/health within ${timeoutMs} ms:\n${this.outputTail()}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** A database of its own for a server process, and how to drop it. */
export interface ServerDatabase {
  readonly env: Readonly<Record<string, string>>;
  /** The same database, for the test to open beside the server. */
  readonly config: DatabaseConfig;
  readonly drop: () => Promise<void>;
}

/**
 * On SQLite a file in `dir`; on PostgreSQL (TEST_DB=postgres, or `kind` for a test that needs
 * it) a fresh database beside TEST_DATABASE_URL's, which the server uses with its default schema.
 */
export async function serverDatabase(
  dir: string,
  kind: 'sqlite' | 'postgres' = testDatabaseKind(),
): Promise<ServerDatabase> {
  if (kind === 'sqlite') {
    const file = path.join(dir, 'exchange.db');
    return {
      env: { SQLITE_PATH: file },
      config: { kind: 'sqlite', path: file },
      drop: () => Promise.resolve(),
    };
  }
  const adminUrl = process.env['TEST_DATABASE_URL'];
  if (adminUrl === undefined || adminUrl === '') {
    throw new Error('a server on PostgreSQL needs TEST_DATABASE_URL');
  }
  // The server uses its database's default schema: a database of its own, dropped afterwards.
  const name = `crash_${path
    .basename(dir)
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    config: { kind: 'postgres', url: url.toString() },
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}
