/**
 * How a module runs its background jobs with the server: they
 * start when the server is ready, and before it stops listening and waits for the requests in
 * flight they claim no further batch and finish the one in hand, so the database they write
 * closes after them (main.ts) and a backlog never holds the stop up. Only a server that runs
 * jobs (main.ts does; most tests do not) starts them: `ModuleOptions.jobs`.
 */
import type { FastifyInstance } from 'fastify';
import type { PeriodicJob } from './periodic';

/** What app.ts tells every module. */
export interface ModuleOptions {
  /** Whether this server runs the background jobs (main.ts: yes; a test: when it asks). */
  readonly jobs: boolean;
}

export function runWhileUp(app: FastifyInstance, jobs: readonly PeriodicJob[]): void {
  app.addHook('onReady', (ready) => {
    for (const job of jobs) job.start();
    ready();
  });
  app.addHook('preClose', async () => {
    await Promise.all(jobs.map((job) => job.stop()));
  });
}
