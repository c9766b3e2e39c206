/**
 * One log line per request, when it is answered (the request-wide hook, platform/http/request-wide.ts):
 * the request (as app.ts serialises it, with no credential), its status and how long it took. The calls an open screen repeats every few
 * seconds (an order's status, the health check, the console's queue: their routes say so with
 * POLLED) are at `debug`, so a waiting customer does not flood the log at the default `info`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseQuery } from 'node:querystring';
import { OperatorListQuerySchema } from '../../../shared/schemas/operator';
import {
  DemoSessionQuerySchema,
  HistoryQuerySchema,
  RateQuerySchema,
} from '../../../shared/schemas/queries';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A screen asks for this every few seconds: logged at debug when it succeeds. */
    readonly polled?: boolean;
  }
}

/** The options of a route that screens poll. */
export const POLLED = { config: { polled: true } } as const;

/**
 * The options of a small answer polled every few seconds by every waiting screen (the health
 * indicator, an order's status): logged as POLLED, and never compressed (platform/http/compression.ts),
 * so that the hottest calls carry no compression hook at all.
 */
export const POLLED_SMALL = { config: { polled: true, compress: false } } as const;

/** The levels a request's line is written at. */
export type LineLevel = 'debug' | 'info';

/** An answered request's line (written from the request-wide hook, platform/http/request-wide.ts). */
export function writeRequestLine(
  request: FastifyRequest,
  reply: FastifyReply,
  level: LineLevel,
): void {
  const shown = serializeRequest(request);
  const responseTime = Math.round(reply.elapsedTime * 10) / 10;
  request.log[level](
    // The raw request: the logger's own serializer (serializeRequest) turns it into `req`.
    { req: request, res: { statusCode: reply.statusCode }, responseTime },
    `${shown.method} ${shown.url} ${reply.statusCode} ${responseTime} ms`,
  );
}

/**
 * Query keys whose values are logged as sent: those of the API's own query schemas. Any other
 * key's value is redacted, whatever its spelling: `telegramInitData` (a credential)
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
 * A request as the logs show it: method, path, the query as it was sent, parsed (its keys and
 * values decoded), with every value not in LOGGED_QUERY_KEYS redacted, and the client's address.
 * Read from the parsed query, not by matching the raw text, so no spelling of a key slips past;
 * parsed again here because a route's schema replaces `request.query` with what it made of it
 * (numbers, defaults). When the URL could not be parsed (a malformed %-escape: Fastify gave the
 * request no query), its query is not logged at all.
 */
export function serializeRequest(request: FastifyRequest): {
  readonly method: string;
  readonly url: string;
  readonly ip: string;
} {
  const url = request.url;
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const parsed: unknown = mark === -1 ? undefined : request.query;
  let shown = '';
  if (typeof parsed === 'object' && parsed !== null) {
    shown = Object.entries(parseQuery(url.slice(mark + 1)))
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
