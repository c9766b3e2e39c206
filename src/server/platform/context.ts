/**
 * What the services need from the server. The Fastify instance carries exactly this, so a route
 * hands its instance to a service; a job or a test may hand any object of this shape.
 */
import type { Kysely } from 'kysely';
import type { AppConfig } from './config/config';
import type { Database } from './db/schema';

export interface ServerContext {
  readonly config: AppConfig;
  readonly db: Kysely<Database>;
  /** Tests move it instead of sleeping. */
  readonly now: () => number;
}
