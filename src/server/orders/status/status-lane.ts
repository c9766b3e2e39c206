/**
 * The status lane (issue 22, item 5): the HTTP server in front of Fastify answers an ordinary
 * status poll itself, the call every waiting screen repeats every few seconds, and hands every
 * other request to Fastify untouched.
 *
 * A poll costs Fastify about as much as the poll's own work: routing, a request and a reply
 * object, and the hooks of every plugin, most of which have nothing to do for it. The lane does
 * only what Fastify's route does for such a poll, with the same functions: the customer verified
 * by `app.verifyCaller` (authenticate's), the answer of `statusAnswer` (the route's), the headers
 * of every answer (`EVERY_ANSWER_HEADERS`, the security-headers hook's), and the request
 * observed in the metrics under the route's label. A poll is ordinary when it is a GET of exactly
 * `/api/orders/{id}/status`, names its caller in an Authorization header that verifies, and is
 * answered 200 or 304, while the server is ready and not logging polls (debug). Anything else
 * (a query, a refused or missing identity, an order not found, the database failing, the server
 * stopping) goes to Fastify, which answers it as it always did: the lane never writes an error.
 *
 * Fastify's own answer to the same request is the lane's measure: tests/server/status-lane.test.ts
 * compares them, and holds the hooks that apply to the status route to the list the lane mirrors.
 */
import http from 'node:http';
import type { FastifyInstance, FastifyServerFactoryHandler, FastifyServerOptions } from 'fastify';
import { logsAt } from '../../platform/config/config';
import { EVERY_ANSWER_HEADERS } from '../../platform/http/security-headers';
import { STATUS_ROUTE, statusAnswer } from './status-route';

/** The headers of every answer (security-headers.ts), as names and values in one list. */
const EVERY_ANSWER_LIST: readonly string[] = EVERY_ANSWER_HEADERS.flat();

/** An ordinary poll's path: the order's id is checked by `statusAnswer`, as for the route. */
const STATUS_PATH = /^\/api\/orders\/([^/?#]+)\/status$/;

export class StatusLane {
  #app: FastifyInstance | undefined;

  /**
   * The server of Fastify's `serverFactory`, with the settings Fastify gives the servers it makes
   * itself: the lane in front of `fastify`, closed until `open`.
   */
  server(fastify: FastifyServerFactoryHandler, options: FastifyServerOptions): http.Server {
    const server = http.createServer((request, response) => {
      if (!this.#take(request, response, fastify)) fastify(request, response);
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
   * Opens the lane once the app is ready, unless polls are logged (debug): the lane writes no
   * log line, so then Fastify answers every one.
   */
  open(app: FastifyInstance): void {
    if (!logsAt(app.config, 'debug')) this.#app = app;
  }

  /** Whether the lane takes the request: it then answers it, or hands it to Fastify itself. */
  #take(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    fastify: FastifyServerFactoryHandler,
  ): boolean {
    const app = this.#app;
    if (app === undefined || request.method !== 'GET' || app.stopping()) return false;
    const id = STATUS_PATH.exec(request.url ?? '')?.[1];
    if (id === undefined || request.headers.authorization === undefined) return false;
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
      return false;
    }
    statusAnswer(app, customerId, { id }, request.headers['if-none-match']).then(
      ({ statusCode, headers, body }) => {
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
      },
      () => {
        // Not found, or the database failed: Fastify answers it, in the API's own form.
        fastify(request, response);
      },
    );
    return true;
  }
}
