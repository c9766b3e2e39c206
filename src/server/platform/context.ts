/**
 * What the services need from the server: its configuration, its database, its clock and its
 * chain readers. The
 * Fastify instance carries exactly these as decorators (platform/context-plugin.ts), so a route hands
 * its instance to a service; a job or a test may hand any object of this shape.
 */
import type { Kysely } from 'kysely';
import type { ChainReaders } from '../chain/readers/chain-reader';
import type { AppConfig } from './config/config';
import type { Database } from './db/schema';

export interface ServerContext {
  readonly config: AppConfig;
  readonly db: Kysely<Database>;
  /** The clock, in epoch milliseconds; tests move it instead of sleeping. */
  readonly now: () => number;
  /** A reader per network with a node configured (built once per app, app.ts); none: manual. */
  readonly chain: ChainReaders;
}
