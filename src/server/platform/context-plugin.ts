/**
 * The server context as decorators of the Fastify instance: what every
 * route and job uses (the configuration, the database, the clock) is `app.config`, `app.db` and
 * `app.now`, never an object passed around by hand.
 */
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { AppConfig } from './config/config';
import type { ServerContext } from './context';
import type { Database } from './db/schema';

declare module 'fastify' {
  interface FastifyInstance {
    readonly config: AppConfig;
    readonly db: Kysely<Database>;
    /** The clock, in epoch milliseconds; tests move it instead of sleeping. */
    readonly now: () => number;
  }
}

/** The platform's part of the context; the modules decorate their own (the chain's readers). */
type PlatformContext = Pick<ServerContext, 'config' | 'db' | 'now'>;

export const contextPlugin = fp<PlatformContext>(
  (app, context, done) => {
    app.decorate('config', context.config);
    app.decorate('db', context.db);
    app.decorate('now', context.now);
    done();
  },
  { name: 'context' },
);
