/**
 * Call limits as hooks (docs/operating.md, "Limits"): a writing route names its kind of call,
 * `{ preValidation: app.callLimit('create') }`, and the caller's count of the minute is kept in
 * the database (rate-limit.ts) so that every instance shares it. `callLimit` runs after the
 * scope's `authenticate`, which route-level hooks always follow, and before the route's schemas
 * judge the input, so that a refused call counts like any other. What anyone can do without an
 * identity is counted per client address instead: `app.addressLimit('demoSession')`.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createRateLimiter, type AddressCall, type LimitedCall } from './rate-limit';

declare module 'fastify' {
  interface FastifyInstance {
    /** A hook counting the caller's call: 429 RATE_LIMITED beyond the minute's limit. */
    callLimit: (call: LimitedCall) => (request: FastifyRequest) => Promise<void>;
    /**
     * A hook counting a call against the client's address (request.ip, as TRUST_PROXY lets
     * a reverse proxy tell it): 429 RATE_LIMITED beyond the minute's limit.
     */
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
