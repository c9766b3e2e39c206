/**
 * The server context as decorators of the Fastify instance (conventions, habit 14): what every
 * route and job uses (the configuration, the database, the clock, the chain readers) is `app.config`,
 * `app.db`, `app.now` and `app.chain`, never an object passed around by hand.
 */
import fp from 'fastify-plugin';
import type { ChainReaders } from '../chain/readers/chain-reader';
import type { AppConfig } from './config/config';
import type { ServerContext } from './context';
import type { Database } from './db/schema';
import type { Kysely } from 'kysely';

declare module 'fastify' {
  interface FastifyInstance {
    readonly config: AppConfig;
    readonly db: Kysely<Database>;
    /** The clock, in epoch milliseconds; tests move it instead of sleeping. */
    readonly now: () => number;
    /** The chain readers, one per network with a node (chain/readers/chain-readers.ts). */
    readonly chain: ChainReaders;
  }
}

export const contextPlugin = fp<ServerContext>(
  (app, context, done) => {
    app.decorate('config', context.config);
    app.decorate('db', context.db);
    app.decorate('now', context.now);
    app.decorate('chain', context.chain);
    done();
  },
  { name: 'context' },
);
