/**
 * Per-customer call limits as a preHandler (README, "Operating the service"): a writing route
 * names its kind of call, `{ preHandler: app.callLimit('create') }`, and the caller's count of
 * the minute is kept in the database (rate-limit.ts) so that every instance shares it. It runs
 * after the scope's `authenticate`, which route-level hooks always follow.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createRateLimiter, type LimitedCall } from '../rate-limit';

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler counting the caller's call: 429 RATE_LIMITED beyond the minute's limit. */
    callLimit: (call: LimitedCall) => (request: FastifyRequest) => Promise<void>;
  }
}

export const callLimitsPlugin = fp(
  (app, _options, done) => {
    const limiter = createRateLimiter(app.db, app.now, app.config.callLimits);
    app.decorate('callLimit', (call: LimitedCall) => async (request: FastifyRequest) => {
      await limiter.hit(request.caller.telegramId, call);
    });
    done();
  },
  { name: 'call-limits', dependencies: ['context', 'auth'] },
);
