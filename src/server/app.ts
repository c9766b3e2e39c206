/**
 * `buildApp(config, deps)`: the whole server as a Fastify instance, with nothing listening.
 * Tests call it with `app.inject` on a fresh database; main.ts listens. It only composes
 * plugins: the context decorators first, then error handling and body parsing, identity and
 * call limits, the jobs, the route files, and the mini-app with the answer to unknown paths.
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { OperatorListQuerySchema } from '../shared/schemas/operator';
import {
  DemoSessionQuerySchema,
  HistoryQuerySchema,
  RateQuerySchema,
} from '../shared/schemas/queries';
import type { AppConfig } from './config';
import type { Database } from './db/schema';
import { authPlugin } from './plugins/auth';
import { botPlugin } from './plugins/bot';
import { callLimitsPlugin } from './plugins/call-limits';
import { contextPlugin } from './plugins/context';
import { errorsPlugin, sendError } from './plugins/errors';
import { jobsPlugin } from './plugins/jobs';
import { BODY_LIMIT_BYTES, jsonBodyPlugin } from './plugins/json-body';
import { webAppPlugin } from './plugins/web-app';
import { customerRoutes } from './routes/customer';
import { operatorRoutes } from './routes/operator';
import { publicRoutes } from './routes/public';

export interface AppDeps {
  readonly db: Kysely<Database>;
  /** The clock, in epoch milliseconds; tests move it instead of sleeping. */
  readonly now?: () => number;
  /** Where log lines go instead of stdout (tests read them). */
  readonly logStream?: { write(line: string): void };
  /**
   * Run the background jobs (expiry sweeper, housekeeping, the notification outbox and, with a
   * BOT_TOKEN, the bot's updates) while the server is up; main.ts does.
   */
  readonly jobs?: boolean;
}

export async function buildApp(config: AppConfig, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      serializers: { req: serializeRequest },
      ...(deps.logStream === undefined ? {} : { stream: deps.logStream }),
    },
    bodyLimit: BODY_LIMIT_BYTES,
    // Behind a reverse proxy on a private network the client's address is in X-Forwarded-For.
    trustProxy: 'loopback, linklocal, uniquelocal',
    // The router's own refusals (a malformed %-escape, a path segment over 100 characters) would
    // otherwise answer with Fastify's codes; they go through the same handler as every error.
    frameworkErrors: sendError,
  });
  await app.register(contextPlugin, { config, db: deps.db, now: deps.now ?? Date.now });
  await app.register(errorsPlugin);
  await app.register(jsonBodyPlugin);
  await app.register(authPlugin);
  await app.register(callLimitsPlugin);
  if (deps.jobs === true) await app.register(jobsPlugin);
  await app.register(botPlugin, { jobs: deps.jobs === true });
  await app.register(publicRoutes);
  await app.register(customerRoutes);
  await app.register(operatorRoutes);
  await app.register(webAppPlugin, { dir: config.staticDir });
  return app;
}

/**
 * Query keys whose values are logged as sent: those of the API's own query schemas. Any other
 * key's value is redacted, whatever its spelling: the spec's `telegramInitData` (a credential)
 * above all, also when sent percent-encoded (`telegram%49nitData`).
 */
const LOGGED_QUERY_KEYS: ReadonlySet<string> = new Set([
  ...Object.keys(RateQuerySchema.entries),
  ...Object.keys(HistoryQuerySchema.entries),
  ...Object.keys(OperatorListQuerySchema.entries),
  ...Object.keys(DemoSessionQuerySchema.entries),
]);
const REDACTED = '[redacted]';

/**
 * A request as the logs show it: method, path, the query as the server parsed it with every value
 * not in LOGGED_QUERY_KEYS redacted, and the client's address. Read from the parsed request, not
 * by matching the raw text, so no spelling of a key slips past; when the URL could not be parsed
 * (a malformed %-escape), its query is not logged at all.
 */
function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  const url = request.url;
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const query: unknown = mark === -1 ? undefined : request.query;
  let shown = '';
  if (typeof query === 'object' && query !== null) {
    shown = Object.entries(query as Record<string, unknown>)
      .map(([key, value]) => {
        const safeKey = encodeURIComponent(key);
        if (!LOGGED_QUERY_KEYS.has(key) || typeof value !== 'string')
          return `${safeKey}=${REDACTED}`;
        return `${safeKey}=${encodeURIComponent(value.slice(0, 64))}`;
      })
      .join('&');
  } else if (mark !== -1) {
    shown = REDACTED;
  }
  return { method: request.method, url: shown === '' ? path : `${path}?${shown}`, ip: request.ip };
}
