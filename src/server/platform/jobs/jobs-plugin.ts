/**
 * The background jobs of the server process (design.md, "Components"): the expiry sweeper,
 * housekeeping, the chain checker (when a network is read from a node) and, in demo mode, the
 * autopilot operator start when the server is ready, and stop
 * claiming work as soon as it starts to close.
 */
import fp from 'fastify-plugin';
import { createAutopilot } from '../../operator/autopilot';
import { checksAnyChain, createChainChecker } from '../../chain/chain-checker';
import { createHousekeeping } from '../../receipts/housekeeping';
import { createSweeper } from '../../orders/sweeper';

export const jobsPlugin = fp(
  (app, _options, done) => {
    const jobs = [
      createSweeper({
        database: { db: app.db, dialect: app.config.database.kind },
        now: app.now,
        log: app.log,
        monitor: app.metrics.jobs,
      }),
      createHousekeeping({
        db: app.db,
        receiptsDir: app.config.receiptsDir,
        now: app.now,
        log: app.log,
        monitor: app.metrics.jobs,
      }),
      ...(app.config.demoAutopilot ? [createAutopilot(app, app.log, app.metrics.jobs)] : []),
      // Only where a network is read from a node: all-manual servers make no chain calls.
      ...(checksAnyChain(app)
        ? [
            createChainChecker({
              ctx: {
                db: app.db,
                config: app.config,
                chain: app.chain,
                dialect: app.config.database.kind,
              },
              now: app.now,
              log: app.log,
              monitor: app.metrics.jobs,
            }),
          ]
        : []),
    ];
    app.addHook('onReady', (ready) => {
      for (const job of jobs) job.start();
      ready();
    });
    // Before the server stops listening and waits for the requests in flight: the jobs claim no
    // further batch from then on and finish the one in hand, so the database they write closes
    // after them (main.ts), and a backlog never holds the stop up.
    app.addHook('preClose', async () => {
      await Promise.all(jobs.map((job) => job.stop()));
    });
    done();
  },
  { name: 'jobs', dependencies: ['context', 'metrics'] },
);
