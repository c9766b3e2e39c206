/**
 * What every request meets, whichever door it comes in by. Fastify's two hooks here (the only
 * request-wide hooks of the server) and the poll lane (platform/http/poll-lane.ts) both call
 * one `RequestWide`, so the two answer alike by construction:
 *
 * - on arrival, readiness: from the moment the server starts to stop (SIGTERM: main.ts closes
 *   the app) every request is refused 503 SERVICE_UNAVAILABLE in the caller's language, with
 *   `Connection: close` (Fastify's), `/api/health` included, so that a load balancer takes the
 *   instance out and the caller tries another, while the requests already in hand are answered.
 *   Fastify would answer so itself (`return503OnClosing`, turned off in app.ts), but with a body
 *   of its own, not `{ error, code }`, and past every hook;
 * - every answer's security headers (security-headers.ts), and `Cache-Control: no-store` unless
 *   its route sets its own;
 * - once answered: the request observed in the metrics by its route pattern, and its log line
 *   at the level its route and status call for (logging/request-log.ts), if that level is
 *   written.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { logsAt, type AppConfig } from '../config/config';
import { AppError } from '../errors';
import { writeRequestLine, type LineLevel } from '../logging/request-log';
import type { Metrics } from '../metrics/metrics';
import { NO_STORE } from './cache-control';
import { EVERY_ANSWER_HEADERS } from './security-headers';

declare module 'fastify' {
  interface FastifyInstance {
    /** What every request meets, Fastify's or the poll lane's (request-wide.ts). */
    readonly requestWide: RequestWide;
  }
}

/** The route of every request no route took (unknown paths): one label, whatever they asked. */
const UNMATCHED_ROUTE = 'unmatched';

/** An answered request, as the metrics and the log tell it. */
export interface Answered {
  readonly method: string;
  /** The route's pattern, or undefined when no route took the request. */
  readonly route: string | undefined;
  readonly statusCode: number;
  readonly seconds: number;
}

export class RequestWide {
  /**
   * Every answer's headers: names and values in one list, as node's `writeHead` takes them. An
   * answer is never cached unless its route says otherwise (the app's files, the cities list):
   * what the API says changes from one call to the next.
   */
  readonly headers: readonly string[] = [...EVERY_ANSWER_HEADERS.flat(), 'cache-control', NO_STORE];
  readonly #metrics: Metrics;
  readonly #written: Readonly<Record<LineLevel, boolean>>;
  #stopping = false;

  constructor(config: AppConfig, metrics: Metrics) {
    this.#metrics = metrics;
    this.#written = { debug: logsAt(config, 'debug'), info: logsAt(config, 'info') };
  }

  /** The server has begun to stop: every request from now on is refused. */
  stop(): void {
    this.#stopping = true;
  }

  /** The refusal a request meets on arrival, or undefined when it goes on. */
  refusal(): AppError | undefined {
    return this.#stopping ? new AppError('SERVICE_UNAVAILABLE') : undefined;
  }

  /**
   * The level an answer's line is written at, or null when that level is not written. The calls
   * an open screen repeats every few seconds (`polled` routes) are at debug when they succeed.
   */
  lineLevel(statusCode: number, polled: boolean): LineLevel | null {
    const level = statusCode < 400 && polled ? 'debug' : 'info';
    return this.#written[level] ? level : null;
  }

  /** An answered request, observed in the metrics under its route's pattern. */
  observe({ method, route, statusCode, seconds }: Answered): void {
    this.#metrics.observeRequest(method, route ?? UNMATCHED_ROUTE, statusCode, seconds);
  }
}

/** The request-wide hooks: one on arrival, one once answered, each calling `app.requestWide`. */
export const requestWidePlugin = fp(
  (app: FastifyInstance, _options, done) => {
    const wide = new RequestWide(app.config, app.metrics);
    app.decorate('requestWide', wide);
    // The first preClose hook (registered before the jobs'): set before anything is waited for.
    app.addHook('preClose', (closed) => {
      wide.stop();
      closed();
    });
    const { headers } = wide;
    app.addHook('onRequest', function requestWide(_request, reply, next) {
      for (let i = 0; i < headers.length; i += 2) {
        reply.raw.setHeader(String(headers[i]), String(headers[i + 1]));
      }
      next(wide.refusal());
    });
    app.addHook('onResponse', function answered(request, reply, next) {
      const { statusCode, elapsedTime } = reply;
      wide.observe({
        method: request.method,
        route: request.routeOptions.url,
        statusCode,
        seconds: elapsedTime / 1000,
      });
      const level = wide.lineLevel(statusCode, request.routeOptions.config.polled === true);
      // A poll's line is usually not written at all: then nothing of it is worked out either.
      if (level !== null) writeRequestLine(request, reply, level);
      next();
    });
    done();
  },
  { name: 'request-wide', dependencies: ['context', 'errors', 'metrics'] },
);
