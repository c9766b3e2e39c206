/**
 * One log line per answered request, without credentials. The calls an open screen repeats
 * (POLLED routes) are at `debug`, so a waiting customer does not flood the log at `info`.
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
    readonly polled?: boolean;
  }
}

export const POLLED = { config: { polled: true } } as const;

/** Never compressed either, so the hottest calls carry no compression hook at all. */
export const POLLED_SMALL = { config: { polled: true, compress: false } } as const;

export type LineLevel = 'debug' | 'info';

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

/** Only these query keys' values are logged; others are redacted, `telegramInitData` above all. */
const LOGGED_QUERY_KEYS: ReadonlySet<string> = new Set([
  ...Object.keys(RateQuerySchema.entries),
  ...Object.keys(HistoryQuerySchema.entries),
  ...Object.keys(OperatorListQuerySchema.entries),
  ...Object.keys(DemoSessionQuerySchema.entries),
]);
const REDACTED = '[redacted]';

/**
 * The query is parsed again (a route's schema replaces `request.query`), so no spelling of a key,
 * percent-encoded or not, slips past; an unparsable URL's query is not logged at all.
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
