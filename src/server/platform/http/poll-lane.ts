/**
 * The poll lane: the HTTP server in front of Fastify answers the polls the modules give it
 * (`poll`) itself — an order's ordinary status poll, the call every waiting screen repeats every
 * few seconds, and an open chat's poll while the chat is unchanged — and hands every other request
 * to Fastify untouched. It was the status poll's alone at first, whence its switch's and metric's
 * names (STATUS_LANE, `exchange_status_lane_fallbacks_total`).
 *
 * A poll costs Fastify about as much as the poll's own work: routing, a request and a reply
 * object, and the hooks of every plugin, most of which have nothing to do for it. The lane does
 * only what Fastify's route does for such a poll, with the same objects: what every request
 * meets from `app.requestWide` (readiness, every answer's headers, the metrics, whether a line is
 * written: platform/http/request-wide.ts, whose two hooks are Fastify's only request-wide ones),
 * the customer verified by `app.verifyCaller` (authenticate's), and the answer of `statusAnswer`
 * (the route's). A poll is ordinary when it is a GET of exactly the status route's path, names its
 * caller in an Authorization header that verifies, and is answered 200 or 304, while the server is
 * ready and writes no line for it (polls are logged at debug). Anything else
 * (a query, a refused or missing identity, an order not found, the database failing, the server
 * stopping, polls logged, anything that throws before the answer starts) goes to Fastify, which
 * answers it as it always did: the lane never writes an error. Each such fallback is counted by
 * its reason (`exchange_status_lane_fallbacks_total`). STATUS_LANE=off keeps the lane closed.
 *
 * Fastify's own answer to the same request is the lane's measure: tests/server/platform/poll-lane.test.ts
 * compares them and holds that no hook beyond the request-wide ones and the identity's applies to
 * the status route; the server tests' app sends every request through the lane
 * (tests/helpers/test-app.ts). A lean status route inside Fastify, with one hook on arrival and one
 * once answered, measured below the lane in the bench (docs/benchmarks.md): the lane stays.
 */
import http from 'node:http';
import type { FastifyInstance, FastifyServerFactoryHandler, FastifyServerOptions } from 'fastify';
import { orderIdParam } from './validation';

/**
 * A customer's poll of an order the lane answers as the route of `route` does: a module gives
 * it (`PollLane.poll`) with its route. The status poll's answer is always the lane's; an open
 * chat's only while it is unchanged (its 304), a poll `answer` leaves to Fastify (undefined).
 */
export interface LanePoll {
  /** The route's path, its `:id` the order's. */
  readonly route: string;
  readonly answer: (
    app: FastifyInstance,
    customerId: number,
    orderId: string,
    ifNoneMatch: string | undefined,
  ) => Promise<PollAnswer | undefined>;
}

/** A poll's answer as the lane writes it, and as the module's route sends it too. */
export interface PollAnswer {
  readonly statusCode: 200 | 304;
  /**
   * The answer's own headers, beyond every answer's: names and values in one list, as node's
   * `writeHead` takes them.
   */
  readonly headers: readonly string[];
  /** The answer's JSON; null with 304. */
  readonly body: string | null;
}

/** A poll and its path's pattern (the `:id` any one segment, then checked by the route's schema). */
interface Polled {
  readonly poll: LanePoll;
  readonly path: RegExp;
}

/** Why a status poll went to Fastify after all. */
export type LaneFallback = 'logged' | 'stopping' | 'identity' | 'answer' | 'error';

/** What the lane tells the metrics: each poll it handed to Fastify, by reason. */
export type LaneMonitor = (reason: LaneFallback) => void;

export class PollLane {
  #app: FastifyInstance | undefined;
  #polls: Polled[] = [];
  #monitor: LaneMonitor = () => undefined;

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
        this.#app?.log.error({ err: error }, 'poll lane: a poll failed before its answer');
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

  /** Takes `poll` into the lane, once it opens. */
  poll(poll: LanePoll): void {
    const path = new RegExp(`^${poll.route.replace(':id', '([^/?#]+)')}$`);
    this.#polls.push({ poll, path });
  }

  /** The poll whose path `url` is, with the order's id as the path gives it. */
  #match(url: string): { readonly poll: LanePoll; readonly id: string } | undefined {
    for (const { poll, path } of this.#polls) {
      const id = path.exec(url)?.[1];
      if (id !== undefined) return { poll, id };
    }
    return undefined;
  }

  /** Opens the lane once the app is ready, unless STATUS_LANE=off. */
  open(app: FastifyInstance, monitor: LaneMonitor): void {
    if (app.config.statusLane) {
      this.#app = app;
      this.#monitor = monitor;
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
    const matched = this.#match(request.url ?? '');
    if (matched === undefined || request.headers.authorization === undefined) return false;
    const { poll, id } = matched;
    const fallback = (reason: LaneFallback): false => {
      this.#monitor(reason);
      return false;
    };
    const wide = app.requestWide;
    if (wide.refusal() !== undefined) return fallback('stopping');
    // While polls are logged (debug), Fastify writes the line: the lane writes none.
    if (wide.lineLevel(200, true) !== null) return fallback('logged');
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
    let orderId: string;
    try {
      // The route's own schema: an id that is no UUID is Fastify's to refuse.
      orderId = orderIdParam({ id });
    } catch {
      return fallback('answer');
    }
    const handOver = (reason: LaneFallback) => {
      this.#monitor(reason);
      fastify(request, response);
    };
    poll
      .answer(app, customerId, orderId, request.headers['if-none-match'])
      .then(
        (answer) => {
          if (answer === undefined) {
            handOver('answer');
            return;
          }
          try {
            this.#answer(app, response, poll.route, answer, started);
          } catch (error) {
            // Nothing sent yet: Fastify answers. Once the answer has started, only the log can know.
            if (!response.headersSent) handOver('error');
            else app.log.error({ err: error }, 'poll lane: the answer failed once sent');
          }
        },
        // Not found, or the database failed: Fastify answers it, in the API's own form.
        () => handOver('answer'),
      )
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'poll lane: Fastify could not take a poll over');
      });
    return true;
  }

  /** The poll's answer written: every answer's headers, then the route's. */
  #answer(
    app: FastifyInstance,
    response: http.ServerResponse,
    route: string,
    { statusCode, headers, body }: PollAnswer,
    started: number,
  ): void {
    // One list of names and values: node writes it as it is, without a header map.
    const head = [...app.requestWide.headers, ...headers];
    if (body === null) {
      response.writeHead(statusCode, head).end();
    } else {
      head.push('content-length', String(Buffer.byteLength(body)));
      response.writeHead(statusCode, head).end(body);
    }
    app.requestWide.observe({
      method: 'GET',
      route,
      statusCode,
      seconds: (performance.now() - started) / 1000,
    });
  }
}
