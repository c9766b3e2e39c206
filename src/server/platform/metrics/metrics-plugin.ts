/**
 * The server's metrics (src/server/platform/metrics/metrics.ts) as `app.metrics`, for the jobs and the bot to
 * report to (every answered request is observed by the request-wide hook,
 * platform/http/request-wide.ts); and `GET /api/metrics` in
 * Prometheus' text format, closed to the public. A scrape must carry
 * `Authorization: Bearer <METRICS_TOKEN>` when the token is set; without one, only loopback,
 * link-local and private addresses may scrape (the client's address as Fastify tells it,
 * `request.ip`, which follows X-Forwarded-For from a trusted proxy). Anyone else gets the 404
 * of an unknown path: the endpoint does not say it exists.
 */
import { API_PATHS } from '../../../shared/api';
import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors';
import { createMetrics, type Metrics } from './metrics';
import { described } from '../http/contract';
import { POLLED } from '../logging/request-log';

declare module 'fastify' {
  interface FastifyInstance {
    readonly metrics: Metrics;
  }
}

/** Addresses that never come from the internet: loopback, link-local, private (RFC 1918, ULA). */
const PRIVATE_ADDRESSES = new BlockList();
PRIVATE_ADDRESSES.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE_ADDRESSES.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE_ADDRESSES.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE_ADDRESSES.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE_ADDRESSES.addSubnet('169.254.0.0', 16, 'ipv4');
PRIVATE_ADDRESSES.addAddress('::1', 'ipv6');
PRIVATE_ADDRESSES.addSubnet('fc00::', 7, 'ipv6');
PRIVATE_ADDRESSES.addSubnet('fe80::', 10, 'ipv6');

/** Whether `address` (an IPv4-mapped IPv6 one too) is loopback, link-local or private. */
function isPrivateAddress(address: string): boolean {
  const version = isIP(address);
  return version !== 0 && PRIVATE_ADDRESSES.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether an Authorization header is `Bearer <token>`, compared in constant time. */
function carriesToken(header: string | undefined, token: string): boolean {
  const given = /^Bearer +(\S+)$/i.exec(header ?? '')?.[1];
  // Digests are of one length: the comparison takes the same time whatever was sent.
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/** Whether the request may read the metrics (the rule of this file's header). */
function mayScrape(request: FastifyRequest, token: string | undefined): boolean {
  return token === undefined
    ? isPrivateAddress(request.ip)
    : carriesToken(request.headers.authorization, token);
}

export const metricsPlugin = fp(
  (app, _options, done) => {
    const metrics = createMetrics({ db: app.db, now: app.now, log: app.log });
    app.decorate('metrics', metrics);

    // Prometheus asks every few seconds: its lines are at debug, like a screen's polling.
    const schema = {
      tags: ['platform'],
      response: described("Prometheus' text format (a private address or METRICS_TOKEN)"),
    };
    app.get(API_PATHS.metrics, { schema, ...POLLED }, async (request, reply) => {
      if (!mayScrape(request, app.config.metricsToken)) throw new AppError('NOT_FOUND');
      void reply.type(metrics.contentType);
      return metrics.scrape();
    });
    done();
  },
  { name: 'metrics', dependencies: ['context', 'errors'] },
);
