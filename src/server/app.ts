/**
 * `buildApp(config, deps)`: the whole server as a Fastify instance, with nothing listening.
 * Tests call it with `app.inject` on a fresh database; main.ts listens. It only composes:
 * the platform's plugins first (the context decorators, the routes' contract and its document,
 * error handling, metrics, what every request meets (readiness, security headers, its metrics and
 * log line), body parsing, call limits, identity and the calls that need none), then the domain modules, each one plugin with its
 * routes, decorators, metrics and jobs, and last the mini-app with the answer to unknown paths.
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { appealsModule } from './appeals';
import { chainModule } from './chain';
import { chatModule } from './chat';
import { notificationsModule } from './notifications';
import { operatorModule } from './operator';
import { ordersModule } from './orders';
import { PollLane } from './platform/http/poll-lane';
import type { AppConfig } from './platform/config/config';
import { contextPlugin } from './platform/context-plugin';
import type { Database } from './platform/db/schema';
import { compressedRoutes } from './platform/http/compression';
import { contractPlugin } from './platform/http/contract';
import { errorsPlugin, sendError } from './platform/http/errors-plugin';
import { JSON_BODY_LIMIT_BYTES, jsonBodyPlugin } from './platform/http/json-body';
import { openApiPlugin } from './platform/http/openapi';
import { publicRoutes } from './platform/http/public-routes';
import { requestWidePlugin } from './platform/http/request-wide';
import { webAppPlugin } from './platform/http/web-app';
import { authPlugin } from './platform/identity/identity-plugin';
import { callLimitsPlugin } from './platform/limits/call-limits';
import { redactToken, serializeError, serializeLogged } from './platform/logging/redact-token';
import { serializeRequest } from './platform/logging/request-log';
import { requestLoggerFactory } from './platform/logging/request-logger';
import { metricsPlugin } from './platform/metrics/metrics-plugin';
import { installed } from './platform/packages';
import { quote, ratesModule } from './rates';
import { receiptsModule } from './receipts';
import { savedDetailsModule } from './saved-details';

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
  // The status poll's lane in front of Fastify, opened once every plugin is ready.
  const lane = new PollLane();
  const app = Fastify({
    serverFactory: (handler, options) => lane.server(handler, options),
    logger: {
      level: config.logLevel,
      // No line carries the bot token (redact-token.ts): not an error's message, stack, fields
      // or cause, whatever the key it is logged under, nor a message or its format arguments.
      serializers: { req: serializeRequest, err: serializeError, error: serializeLogged },
      hooks: {
        logMethod(args, method) {
          const redacted = args.map((arg) => (typeof arg === 'string' ? redactToken(arg) : arg));
          method.apply(this, redacted as Parameters<typeof method>);
        },
      },
      ...(deps.logStream !== undefined
        ? { stream: deps.logStream }
        : // A person at a terminal reads lines; a log collector reads JSON.
          // pino-pretty is a development tool: a production install (npm ci --omit=dev) has none.
          process.stdout.isTTY && installed('pino-pretty')
          ? {
              transport: {
                target: 'pino-pretty',
                // A request's line says it all in its message (platform/http/request-wide.ts).
                options: {
                  translateTime: 'SYS:HH:MM:ss',
                  ignore: 'pid,hostname,reqId,req,res,responseTime',
                },
              },
            }
          : {}),
    },
    // One line per request, written when it is answered (platform/http/request-wide.ts).
    logController: new LogController({ disableRequestLogging: true }),
    // A request's own logger is made when it first writes a line (request-logger.ts).
    childLoggerFactory: requestLoggerFactory,
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // The client's address (request.ip: the logs, the per-address call limits) behind a reverse
    // proxy. Fastify walks X-Forwarded-For from the right, past the connection's address and
    // each entry that is a trusted proxy (TRUST_PROXY, by default the loopback and private
    // ranges a proxy on this machine or network connects from), and stops at the first that
    // is not. The shipped nginx site (deploy/nginx/exchange.conf) replaces the header with the
    // address it saw instead of appending to it, so it holds one entry, the real client's, and
    // nothing a client sends survives it. Not a hop count of 1: with a count, whoever reaches
    // an instance's port without the proxy (HOST=0.0.0.0, the default with a bot) would name
    // their own address; with a list, only a connection from a trusted address is believed.
    trustProxy: [...config.trustProxy],
    // The router's own refusals (a malformed %-escape, a path segment over 100 characters) would
    // otherwise answer with Fastify's codes; they go through the same handler as every error.
    frameworkErrors: sendError,
    // A stopping server answers 503 itself, in the API's own form (platform/http/request-wide.ts).
    return503OnClosing: false,
  });
  await app.register(contextPlugin, { config, db: deps.db, now: deps.now ?? Date.now });
  await app.register(contractPlugin);
  await app.register(openApiPlugin);
  await app.register(errorsPlugin);
  await app.register(metricsPlugin);
  await app.register(requestWidePlugin);
  await app.register(jsonBodyPlugin);
  await app.register(callLimitsPlugin);
  await app.register(authPlugin);
  await app.register(compressedRoutes(publicRoutes));
  const modules = { jobs: deps.jobs === true };
  await app.register(chainModule, modules);
  await app.register(ordersModule, { ...modules, lane, quote });
  await app.register(receiptsModule, modules);
  await app.register(chatModule, { lane });
  await app.register(appealsModule);
  await app.register(ratesModule, modules);
  await app.register(operatorModule, modules);
  await app.register(savedDetailsModule);
  await app.register(notificationsModule, modules);
  await app.register(webAppPlugin, { dir: config.staticDir });
  return app;
}
