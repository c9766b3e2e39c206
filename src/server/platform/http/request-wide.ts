/**
 * What every request meets, Fastify's or the poll lane's, so both answer alike: once stopping,
 * 503 in the caller's language with `Connection: close` (`/api/health` included, so a balancer
 * takes the instance out; Fastify's own 503 has no `{ error, code }`); every answer's headers;
 * once answered, the metrics and the log line.
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
    readonly requestWide: RequestWide;
  }
}

/** One label for unknown paths, whatever they asked. */
const UNMATCHED_ROUTE = 'unmatched';

export interface Answered {
  readonly method: string;
  readonly route: string | undefined;
  readonly statusCode: number;
  readonly seconds: number;
}

export class RequestWide {
  /** Never cached unless the route says otherwise: what the API says changes from call to call. */
  readonly headers: readonly string[] = [...EVERY_ANSWER_HEADERS.flat(), 'cache-control', NO_STORE];
  readonly #metrics: Metrics;
  readonly #written: Readonly<Record<LineLevel, boolean>>;
  #stopping = false;

  constructor(config: AppConfig, metrics: Metrics) {
    this.#metrics = metrics;
    this.#written = { debug: logsAt(config, 'debug'), info: logsAt(config, 'info') };
  }

  stop(): void {
    this.#stopping = true;
  }

  refusal(): AppError | undefined {
    return this.#stopping ? new AppError('SERVICE_UNAVAILABLE') : undefined;
  }

  /** Null when not written; the calls an open screen repeats are at debug when they succeed. */
  lineLevel(statusCode: number, polled: boolean): LineLevel | null {
    const level = statusCode < 400 && polled ? 'debug' : 'info';
    return this.#written[level] ? level : null;
  }

  observe({ method, route, statusCode, seconds }: Answered): void {
    this.#metrics.observeRequest(method, route ?? UNMATCHED_ROUTE, statusCode, seconds);
  }
}

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
      if (level !== null) writeRequestLine(request, reply, level);
      next();
    });
    done();
  },
  { name: 'request-wide', dependencies: ['context', 'errors', 'metrics'] },
);
