/**
 * `buildApp(config, deps)`: the whole server as a Fastify instance, with nothing listening.
 * Tests call it with `app.inject` on a fresh database; main.ts listens.
 */
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Kysely } from 'kysely';
import secureJson from 'secure-json-parse';
import type { ApiErrorBody } from '../shared/api';
import { OperatorListQuerySchema } from '../shared/schemas/operator';
import {
  DemoSessionQuerySchema,
  HistoryQuerySchema,
  RateQuerySchema,
} from '../shared/schemas/queries';
import { type Authenticator, createAuthenticator } from './auth/authenticator';
import { DEMO_BOT_TOKEN } from './auth/telegram-auth';
import type { AppConfig } from './config';
import type { Database } from './db/schema';
import { AppError } from './errors';
import { createRateLimiter, type RateLimiter } from './rate-limit';
import { errorMessage, negotiateLanguage } from './i18n';
import { createHousekeeping } from './jobs/housekeeping';
import { createSweeper } from './jobs/sweeper';
import { operatorRoutes } from './routes/operator';
import { orderRoutes } from './routes/orders';
import { isClientRoute, registerStatic, sendIndex } from './routes/static';
import { systemRoutes } from './routes/system';

export interface AppDeps {
  readonly db: Kysely<Database>;
  /** The clock, in epoch milliseconds; tests move it instead of sleeping. */
  readonly now?: () => number;
  /** Where log lines go instead of stdout (tests read them). */
  readonly logStream?: { write(line: string): void };
  /** Run the background jobs (expiry sweeper, housekeeping) while the server is up; main.ts does. */
  readonly jobs?: boolean;
}

/** What every route may use. */
export interface AppContext {
  readonly config: AppConfig;
  readonly db: Kysely<Database>;
  readonly now: () => number;
  readonly auth: Authenticator;
  readonly limiter: RateLimiter;
}

/** JSON bodies above this are refused with 413 (a 10 MB receipt is about 13.4 MB as base64). */
export const BODY_LIMIT_BYTES = 15 * 1024 * 1024;

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
  const now = deps.now ?? Date.now;
  const ctx: AppContext = {
    config,
    db: deps.db,
    now,
    auth: createAuthenticator({
      db: deps.db,
      botToken: config.botToken ?? DEMO_BOT_TOKEN,
      maxAgeSeconds: config.initDataMaxAgeSeconds,
      operatorIds: config.operatorIds,
      now,
    }),
    limiter: createRateLimiter(deps.db, now, config.callLimits),
  };

  app.setErrorHandler(sendError);

  // An empty body sent as JSON (the spec's office-confirm) is an empty object, not an error.
  // secure-json-parse is what Fastify's own parser uses: it refuses prototype poisoning.
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') {
        done(null, {});
        return;
      }
      try {
        done(null, secureJson.parse(text, { protoAction: 'error', constructorAction: 'error' }));
      } catch {
        done(new AppError('INVALID_JSON'), undefined);
      }
    },
  );

  systemRoutes(app, ctx);
  orderRoutes(app, ctx);
  operatorRoutes(app, ctx);

  if (deps.jobs === true) {
    const jobs = [
      createSweeper({
        database: { db: deps.db, dialect: config.database.kind },
        now,
        log: app.log,
      }),
      createHousekeeping({ db: deps.db, receiptsDir: config.receiptsDir, now, log: app.log }),
    ];
    app.addHook('onReady', () => {
      for (const job of jobs) job.start();
      return Promise.resolve();
    });
    app.addHook('onClose', async () => {
      await Promise.all(jobs.map((job) => job.stop()));
    });
  }
  const servesApp = await registerStatic(app, config.staticDir);

  app.setNotFoundHandler((request, reply) => {
    if (servesApp && isClientRoute(request)) return sendIndex(reply);
    const language = negotiateLanguage(request.headers['accept-language']);
    const body: ApiErrorBody = { error: errorMessage('NOT_FOUND', language), code: 'NOT_FOUND' };
    return reply.status(404).send(body);
  });

  return app;
}

/** Every error answer: `{ error, code }` in the caller's language (design.md, "Errors"). */
function sendError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  const language = negotiateLanguage(request.headers['accept-language']);
  const appError = toAppError(error);
  if (appError.code === 'INTERNAL') {
    request.log.error({ err: error }, 'request failed');
  } else {
    // The code of Fastify's own refusal, never its message: a message may quote the URL.
    const cause = error instanceof AppError ? undefined : error.code;
    request.log.info({ code: appError.code, cause }, 'request refused');
  }
  const body: ApiErrorBody = {
    ...appError.details,
    error: errorMessage(appError.code, language),
    code: appError.code,
  };
  void reply.status(appError.statusCode).send(body);
}

/** Maps Fastify's own errors (bad JSON, too large, wrong content type) to our codes. */
function toAppError(error: FastifyError | AppError): AppError {
  if (error instanceof AppError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('INVALID_JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_VALIDATION':
      return new AppError('VALIDATION_FAILED');
    case 'FST_ERR_BAD_URL':
      return new AppError('BAD_REQUEST');
    // Nothing the API names (an order id, a currency code) is that long.
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('NOT_FOUND');
  }
  if (error instanceof SyntaxError) return new AppError('INVALID_JSON');
  const status = error.statusCode ?? 500;
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE');
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE');
  if (status >= 400 && status < 500) return new AppError('BAD_REQUEST');
  return new AppError('INTERNAL');
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
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
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
