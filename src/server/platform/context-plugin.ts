/** The server context as decorators: `app.config`, `app.db`, `app.now`, never passed by hand. */
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { AppConfig } from './config/config';
import type { ServerContext } from './context';
import type { Database } from './db/schema';

declare module 'fastify' {
  interface FastifyInstance {
    readonly config: AppConfig;
    readonly db: Kysely<Database>;
    readonly now: () => number;
  }
}

/** The modules decorate their own parts (the chain's readers). */
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
