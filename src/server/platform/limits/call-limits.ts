/**
 * Call limits as hooks (docs/operating.md, "Limits"), after `authenticate` and before the schemas
 * judge the input, so a refused call counts like any other; counted in the database for all
 * instances.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createRateLimiter, type AddressCall, type LimitedCall } from './rate-limit';

declare module 'fastify' {
  interface FastifyInstance {
    /** 429 RATE_LIMITED beyond the minute's limit. */
    callLimit: (call: LimitedCall) => (request: FastifyRequest) => Promise<void>;
    /** By request.ip, as TRUST_PROXY lets a proxy tell it: 429 beyond the minute's limit. */
    addressLimit: (call: AddressCall) => (request: FastifyRequest) => Promise<void>;
  }
}

export const callLimitsPlugin = fp(
  (app, _options, done) => {
    const limiter = createRateLimiter(
      app.db,
      app.now,
      app.config.callLimits,
      app.config.addressLimits,
    );
    app.decorate('callLimit', (call: LimitedCall) => async (request: FastifyRequest) => {
      await limiter.hit(request.caller.telegramId, call);
    });
    app.decorate('addressLimit', (call: AddressCall) => async (request: FastifyRequest) => {
      await limiter.hitAddress(request.ip, call);
    });
    done();
  },
  { name: 'call-limits', dependencies: ['context'] },
);
