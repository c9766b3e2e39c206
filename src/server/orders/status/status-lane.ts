/**
 * The status lane: the HTTP server in front of Fastify answers an ordinary status poll itself,
 * the call every waiting screen repeats every few seconds, and hands every other request to
 * Fastify untouched.
 *
 * A poll costs Fastify about as much as the poll's own work: routing, a request and a reply
 * object, and the hooks of every plugin, most of which have nothing to do for it. The lane does
 * only what Fastify's route does for such a poll, with the same functions: the customer verified
 * by `app.verifyCaller` (authenticate's), the answer of `statusAnswer` (the route's), the headers
 * of every answer (`EVERY_ANSWER_HEADERS`, the security-headers hook's), and the request
 * observed in the metrics under the route's label. A poll is ordinary when it is a GET of exactly
 * the status route's path, names its caller in an Authorization header that verifies, and is
 * answered 200 or 304, while the server is ready and not logging polls (debug). Anything else
 * (a query, a refused or missing identity, an order not found, the database failing, the server
 * stopping, polls logged, anything that throws before the answer starts) goes to Fastify, which
 * answers it as it always did: the lane never writes an error. Each such fallback is counted by
 * its reason (`exchange_status_lane_fallbacks_total`). STATUS_LANE=off keeps the lane closed.
 *
 * Fastify's own answer to the same request is the lane's measure: tests/server/status-lane.test.ts
 * compares them, holds the hooks that apply to the status route to the list the lane mirrors,
 * and the server tests' app sends every request through the lane (tests/helpers/test-app.ts).
 */
import http from 'node:http';
import type { FastifyInstance, FastifyServerFactoryHandler, FastifyServerOptions } from 'fastify';
import { logsAt } from '../../platform/config/config';
import { EVERY_ANSWER_HEADERS } from '../../platform/http/security-headers';
import { STATUS_ROUTE, statusAnswer, type StatusAnswer } from './status-route';

/** The headers of every answer (security-headers.ts), as names and values in one list. */
const EVERY_ANSWER_LIST: readonly string[] = EVERY_ANSWER_HEADERS.flat();

/**
 * An ordinary poll's path, from the route's own (its `:id` any one segment): the order's id is
 * checked by `statusAnswer`, as for the route.
 */
const STATUS_PATH = new RegExp(`^${STATUS_ROUTE.replace(':id', '([^/?#]+)')}$`);

/** Why a status poll went to Fastify after all. */
export type LaneFallback = 'logged' | 'stopping' | 'identity' | 'answer' | 'error';

/** What the lane tells the metrics: each poll it handed to Fastify, by reason. */
export type LaneMonitor = (reason: LaneFallback) => void;

export class StatusLane {
  #app: FastifyInstance | undefined;
  #monitor: LaneMonitor = () => undefined;
  #logged = false;

  /**
   * The server of Fastify's `serverFactory`, with the settings Fastify gives the servers it makes
   * itself: the lane in front of `fastify`, closed until `open`.
   */
  server(fastify: FastifyServerFactoryHandler, options: FastifyServerOptions): http.Server {
    const server = http.createServer((request, response) => {
      let taken = false;
      try {
        taken = this.#take(request, response, fastify);
      } catch (error) {
        // Nothing was sent: Fastify answers, as it would have without the lane.
        this.#monitor('error');
        this.#app?.log.error({ err: error }, 'status lane: a poll failed before its answer');
      }
      if (!taken) fastify(request, response);
    });
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket !== undefined && options.maxRequestsPerSocket > 0) {
      server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    }
    return server;
  }

  /**
   * Opens the lane once the app is ready, unless STATUS_LANE=off. While polls are logged (debug)
   * the lane hands each to Fastify, which writes its line: the lane writes none.
   */
  open(app: FastifyInstance, monitor: LaneMonitor): void {
    if (app.config.statusLane) {
      this.#app = app;
      this.#monitor = monitor;
      this.#logged = logsAt(app.config, 'debug');
    }
  }

  /** Whether the lane takes the request: it then answers it, or hands it to Fastify itself. */
  #take(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    fastify: FastifyServerFactoryHandler,
  ): boolean {
    const app = this.#app;
    if (app === undefined || request.method !== 'GET') return false;
    const id = STATUS_PATH.exec(request.url ?? '')?.[1];
    if (id === undefined || request.headers.authorization === undefined) return false;
    const fallback = (reason: LaneFallback): false => {
      this.#monitor(reason);
      return false;
    };
    if (this.#logged) return fallback('logged');
    if (app.stopping()) return fallback('stopping');
    const started = performance.now();
    let customerId: number;
    try {
      customerId = app.verifyCaller({
        headers: request.headers,
        query: undefined,
        body: undefined,
      }).telegramId;
    } catch {
      // A refusal is counted and answered by Fastify's `authenticate`.
      return fallback('identity');
    }
    const handOver = (reason: LaneFallback) => {
      this.#monitor(reason);
      fastify(request, response);
    };
    statusAnswer(app, customerId, { id }, request.headers['if-none-match'])
      .then(
        (answer) => {
          try {
            this.#answer(app, response, answer, started);
          } catch (error) {
            // Nothing sent yet: Fastify answers. Once the answer has started, only the log can know.
            if (!response.headersSent) handOver('error');
            else app.log.error({ err: error }, 'status lane: the answer failed once sent');
          }
        },
        // Not found, or the database failed: Fastify answers it, in the API's own form.
        () => handOver('answer'),
      )
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'status lane: Fastify could not take a poll over');
      });
    return true;
  }

  /** The poll's answer written: every answer's headers, then the route's. */
  #answer(
    app: FastifyInstance,
    response: http.ServerResponse,
    { statusCode, headers, body }: StatusAnswer,
    started: number,
  ): void {
    // One list of names and values: node writes it as it is, without a header map.
    const head = [...EVERY_ANSWER_LIST, ...headers];
    if (body === null) {
      response.writeHead(statusCode, head).end();
    } else {
      head.push('content-length', String(Buffer.byteLength(body)));
      response.writeHead(statusCode, head).end(body);
    }
    app.metrics.observeRequest(
      'GET',
      STATUS_ROUTE,
      statusCode,
      (performance.now() - started) / 1000,
    );
  }
}
