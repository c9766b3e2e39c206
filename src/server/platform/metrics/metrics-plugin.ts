/**
 * `app.metrics`, and `GET /api/metrics`: with METRICS_TOKEN, a bearer token; without, private
 * addresses only. Anyone else gets an unknown path's 404: the endpoint does not say it exists.
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

const PRIVATE_ADDRESSES = new BlockList();
PRIVATE_ADDRESSES.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE_ADDRESSES.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE_ADDRESSES.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE_ADDRESSES.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE_ADDRESSES.addSubnet('169.254.0.0', 16, 'ipv4');
PRIVATE_ADDRESSES.addAddress('::1', 'ipv6');
PRIVATE_ADDRESSES.addSubnet('fc00::', 7, 'ipv6');
PRIVATE_ADDRESSES.addSubnet('fe80::', 10, 'ipv6');

function isPrivateAddress(address: string): boolean {
  const version = isIP(address);
  return version !== 0 && PRIVATE_ADDRESSES.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compared in constant time. */
function carriesToken(header: string | undefined, token: string): boolean {
  const given = /^Bearer +(\S+)$/i.exec(header ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

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
