/**
 * Jobs start when the server is ready and stop claiming before it stops listening, so the
 * database closes after them and a backlog never holds the stop up.
 */
import type { FastifyInstance } from 'fastify';
import type { PeriodicJob } from './periodic';

export interface ModuleOptions {
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
