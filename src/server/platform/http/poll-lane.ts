/**
 * The poll lane: the HTTP server in front of Fastify answers ordinary polls itself (an order's
 * status poll, an unchanged chat's) and hands everything else to Fastify untouched, for a
 * fraction of Fastify's cost. It does what Fastify's route would, with the same objects
 * (`app.requestWide`, `app.verifyCaller`, the route's answer); anything unusual (a query, a
 * refused identity, not found, a failure, logging at debug, stopping) goes to Fastify, so the
 * lane never writes an error. Each fallback is counted by reason; STATUS_LANE=off closes it.
 * poll-lane.test.ts holds it to Fastify's own answers.
 */
import http from 'node:http';
import type { FastifyInstance, FastifyServerFactoryHandler, FastifyServerOptions } from 'fastify';
import { orderIdParam } from './validation';

/** The status poll's answer is always the lane's; a chat's only while unchanged (its 304). */
export interface LanePoll {
  readonly route: string;
  readonly answer: (
    app: FastifyInstance,
    customerId: number,
    orderId: string,
    ifNoneMatch: string | undefined,
  ) => Promise<PollAnswer | undefined>;
}

export interface PollAnswer {
  readonly statusCode: 200 | 304;
  /** Beyond every answer's: names and values in one list, as node's `writeHead` takes them. */
  readonly headers: readonly string[];
  readonly body: string | null;
}

/** The `:id` matches any one segment, then checked by the route's schema. */
interface Polled {
  readonly poll: LanePoll;
  readonly path: RegExp;
}

export type LaneFallback = 'logged' | 'stopping' | 'identity' | 'answer' | 'error';

export type LaneMonitor = (reason: LaneFallback) => void;

export class PollLane {
  #app: FastifyInstance | undefined;
  #polls: Polled[] = [];
  #monitor: LaneMonitor = () => undefined;

  /** The server of Fastify's `serverFactory`, with Fastify's own settings; closed until `open`. */
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

  poll(poll: LanePoll): void {
    const path = new RegExp(`^${poll.route.replace(':id', '([^/?#]+)')}$`);
    this.#polls.push({ poll, path });
  }

  #match(url: string): { readonly poll: LanePoll; readonly id: string } | undefined {
    for (const { poll, path } of this.#polls) {
      const id = path.exec(url)?.[1];
      if (id !== undefined) return { poll, id };
    }
    return undefined;
  }

  open(app: FastifyInstance, monitor: LaneMonitor): void {
    if (app.config.statusLane) {
      this.#app = app;
      this.#monitor = monitor;
    }
  }

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
        () => handOver('answer'),
      )
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'poll lane: Fastify could not take a poll over');
      });
    return true;
  }

  #answer(
    app: FastifyInstance,
    response: http.ServerResponse,
    route: string,
    { statusCode, headers, body }: PollAnswer,
    started: number,
  ): void {
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
