/**
 * The server stopping (SIGTERM: main.ts closes the app) is not ready: from the moment the close
 * begins, every request is answered 503 SERVICE_UNAVAILABLE in the caller's language, with
 * `Connection: close` (Fastify's), `/api/health` included, so that a load balancer takes the
 * instance out and the caller tries another, while the requests already in hand are answered.
 * Fastify would answer so itself (`return503OnClosing`, turned off in app.ts), but with a body
 * of its own, not `{ error, code }` (design.md, "Errors"), and past every hook.
 */
import fp from 'fastify-plugin';
import { AppError } from '../errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the server has begun to stop (its close has begun). */
    readonly stopping: () => boolean;
  }
}

export const readinessPlugin = fp(
  (app, _options, done) => {
    let stopping = false;
    app.decorate('stopping', () => stopping);
    // The first preClose hook (registered before the jobs'): set before anything is waited for.
    app.addHook('preClose', (closed) => {
      stopping = true;
      closed();
    });
    app.addHook('onRequest', function readiness(_request, _reply, next) {
      if (stopping) next(new AppError('SERVICE_UNAVAILABLE'));
      else next();
    });
    done();
  },
  { name: 'readiness', dependencies: ['errors'] },
);
