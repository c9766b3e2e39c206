/**
 * The background jobs of the server process (design.md, "Components"): the expiry sweeper,
 * housekeeping and, in demo mode, the autopilot operator start when the server is ready and are
 * waited for when it closes.
 */
import fp from 'fastify-plugin';
import { createAutopilot } from '../jobs/autopilot';
import { createHousekeeping } from '../jobs/housekeeping';
import { createSweeper } from '../jobs/sweeper';

export const jobsPlugin = fp(
  (app, _options, done) => {
    const jobs = [
      createSweeper({
        database: { db: app.db, dialect: app.config.database.kind },
        now: app.now,
        log: app.log,
      }),
      createHousekeeping({
        db: app.db,
        receiptsDir: app.config.receiptsDir,
        now: app.now,
        log: app.log,
      }),
      ...(app.config.demoAutopilot ? [createAutopilot(app, app.log)] : []),
    ];
    app.addHook('onReady', (ready) => {
      for (const job of jobs) job.start();
      ready();
    });
    app.addHook('onClose', async () => {
      await Promise.all(jobs.map((job) => job.stop()));
    });
    done();
  },
  { name: 'jobs', dependencies: ['context'] },
);
