/**
 * `buildApp(config, deps)`: the whole server as a Fastify instance, with nothing listening.
 * Tests call it with `app.inject` on a fresh database; main.ts listens. It only composes
 * plugins: the context decorators first, then error handling, readiness and metrics, body
 * parsing, identity and call limits, the jobs, the route files, and the mini-app with the answer
 * to unknown paths.
 */
import { createRequire } from 'node:module';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from './config';
import type { Database } from './db/schema';
import { authPlugin } from './plugins/auth';
import { botPlugin } from './plugins/bot';
import { callLimitsPlugin } from './plugins/call-limits';
import { contextPlugin } from './plugins/context';
import { errorsPlugin, sendError } from './plugins/errors';
import { jobsPlugin } from './plugins/jobs';
import { metricsPlugin } from './plugins/metrics';
import { readinessPlugin } from './plugins/readiness';
import { requestLogPlugin, serializeRequest } from './plugins/request-log';
import { statusAnswersPlugin } from './plugins/status-answers';
import { BODY_LIMIT_BYTES, jsonBodyPlugin } from './plugins/json-body';
import { webAppPlugin } from './plugins/web-app';
import { customerRoutes } from './routes/customer';
import { operatorRoutes } from './routes/operator';
import { publicRoutes } from './routes/public';
import { redactToken, serializeError, serializeLogged } from './redact-token';

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
                // A request's line says it all in its message (plugins/request-log.ts).
                options: {
                  translateTime: 'SYS:HH:MM:ss',
                  ignore: 'pid,hostname,reqId,req,res,responseTime',
                },
              },
            }
          : {}),
    },
    // One line per request, written when it is answered (plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    // Behind a reverse proxy on a private network the client's address is in X-Forwarded-For.
    trustProxy: 'loopback, linklocal, uniquelocal',
    // The router's own refusals (a malformed %-escape, a path segment over 100 characters) would
    // otherwise answer with Fastify's codes; they go through the same handler as every error.
    frameworkErrors: sendError,
    // A stopping server answers 503 itself, in the API's own form (plugins/readiness.ts).
    return503OnClosing: false,
  });
  await app.register(contextPlugin, { config, db: deps.db, now: deps.now ?? Date.now });
  await app.register(statusAnswersPlugin);
  await app.register(requestLogPlugin);
  await app.register(errorsPlugin);
  await app.register(readinessPlugin);
  await app.register(metricsPlugin);
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

/** Whether a package can be loaded from here. */
function installed(name: string): boolean {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
}
