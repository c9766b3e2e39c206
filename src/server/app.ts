/**
 * `buildApp(config, deps)`: the whole server as a Fastify instance, with nothing listening (tests
 * inject; main.ts listens). It only composes: the platform's plugins, then the domain modules,
 * then the mini-app.
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
  /** Tests move it instead of sleeping. */
  readonly now?: () => number;
  /** Tests read the lines. */
  readonly logStream?: { write(line: string): void };
  /** Run the background jobs (sweeper, housekeeping, outbox, the bot's updates); main.ts does. */
  readonly jobs?: boolean;
}

export async function buildApp(config: AppConfig, deps: AppDeps): Promise<FastifyInstance> {
  const lane = new PollLane();
  const app = Fastify({
    serverFactory: (handler, options) => lane.server(handler, options),
    logger: {
      level: config.logLevel,
      // No line carries the bot token (redact-token.ts), whatever key it is logged under.
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
    childLoggerFactory: requestLoggerFactory,
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // A list, not a hop count: with a count, whoever reaches the port without the proxy would
    // name their own address; with a list, only a connection from a trusted address is believed.
    // The shipped nginx site replaces X-Forwarded-For rather than appending to it.
    trustProxy: [...config.trustProxy],
    // The router's own refusals answer in the API's form too.
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
