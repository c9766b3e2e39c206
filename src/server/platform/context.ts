/**
 * What the services need from the server: its configuration, its database and its clock. The
 * Fastify instance carries exactly these as decorators (platform/context-plugin.ts), so a route
 * hands its instance to a service; a job or a test may hand any object of this shape. A module
 * that adds to it says so in its own context (the chain module's readers: chain/chain-context.ts).
 */
import type { Kysely } from 'kysely';
import type { AppConfig } from './config/config';
import type { Database } from './db/schema';

export interface ServerContext {
  readonly config: AppConfig;
  readonly db: Kysely<Database>;
  /** The clock, in epoch milliseconds; tests move it instead of sleeping. */
  readonly now: () => number;
}
