/**
 * What the services need from the server: its configuration, its database and its clock. The
 * Fastify instance carries exactly these as decorators (plugins/context.ts), so a route hands
 * its instance to a service; a job or a test may hand any object of this shape.
 */
import type { Kysely } from 'kysely';
import type { AppConfig } from './config';
import type { Database } from './db/schema';

export interface ServerContext {
  readonly config: AppConfig;
  readonly db: Kysely<Database>;
  /** The clock, in epoch milliseconds; tests move it instead of sleeping. */
  readonly now: () => number;
}
