/** The real server on a fresh database, for `app.inject` tests and for the browser tests. */
import type { FastifyInstance } from 'fastify';
import lightMyRequest, { type DispatchFunc, type InjectOptions } from 'light-my-request';
import { buildApp } from '../../src/server/app';
import { loadConfig, type AppConfig } from '../../src/server/platform/config/config';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestApp {
  readonly app: FastifyInstance;
  /** Fastify's own inject, which reaches Fastify without crossing the poll lane. */
  readonly injectFastify: FastifyInstance['inject'];
  readonly database: TestDatabase;
  readonly config: AppConfig;
  readonly clock: TestClock;
  readonly close: () => Promise<void>;
}

/** A clock tests move by hand. */
export class TestClock {
  constructor(public current: number = Date.now()) {}
  readonly now = (): number => this.current;
  advance(ms: number): void {
    this.current += ms;
  }
}

/**
 * `app.inject` sends its request to the real server's handler, as a connection would, rather than
 * to Fastify's: every test crosses the poll lane in front of Fastify
 * (src/server/platform/http/poll-lane.ts), which answers the ordinary polls itself and hands the rest to Fastify.
 */
function throughTheServer(app: FastifyInstance): void {
  const handler: DispatchFunc = (request, response) => {
    app.ready().then(
      () => app.server.emit('request', request, response),
      (error: unknown) => response.emit('error', error),
    );
  };
  const inject = (options: InjectOptions | string) => lightMyRequest(handler, options);
  // The same calls as Fastify's own inject (options in, a response out); its chained form unused.
  (app as { inject: unknown }).inject = inject;
}

export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  options: {
    realClock?: boolean;
    jobs?: boolean;
    /** Where the server's log lines go (a test that reads them; set a logLevel too). */
    logStream?: { write(line: string): void };
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const config: AppConfig = {
    ...loadConfig({}),
    database: database.config,
    staticDir: undefined,
    // TEST_LOG_LEVEL=error (say) shows what a failing test's server logged.
    logLevel: (process.env['TEST_LOG_LEVEL'] as AppConfig['logLevel'] | undefined) ?? 'silent',
    // Suites drive hundreds of orders through one customer (and one address) in seconds; the
    // limits have their own tests (tests/server/platform/rate-limit.test.ts), which pass CALL_LIMITS and
    // ADDRESS_LIMITS back in.
    callLimits: { create: 1_000_000, receipt: 1_000_000, action: 1_000_000, chat: 1_000_000 },
    addressLimits: { demoSession: 1_000_000, refusedIdentity: 1_000_000 },
    // A test plays the operator itself; the autopilot's own tests turn it on.
    demoAutopilot: false,
    // Nothing a test does reaches Telegram: a test of the bot points this at its fake Bot API.
    telegramApiRoot: 'http://127.0.0.1:9',
    ...overrides,
  };
  const clock = new TestClock();
  const app = await buildApp(config, {
    db: database.db,
    jobs: options.jobs ?? false,
    ...(options.logStream === undefined ? {} : { logStream: options.logStream }),
    ...(options.realClock === true ? {} : { now: clock.now }),
  });
  const injectFastify = app.inject.bind(app);
  throughTheServer(app);
  return {
    app,
    injectFastify,
    database,
    config,
    clock,
    close: async () => {
      await app.close();
      await database.destroy();
    },
  };
}
