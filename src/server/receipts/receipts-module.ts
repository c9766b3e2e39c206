/** The receipts module: uploads, their files, operators' downloads, and housekeeping. */
import fp from 'fastify-plugin';
import { compressedRoutes } from '../platform/http/compression';
import { runWhileUp, type ModuleOptions } from '../platform/jobs/run-jobs';
import { createHousekeeping } from './housekeeping';
import { receiptRoutes } from './receipts-routes';

export const receiptsModule = fp<ModuleOptions>(
  (app, options, done) => {
    void app.register(compressedRoutes(receiptRoutes));
    if (options.jobs) {
      runWhileUp(app, [
        createHousekeeping({
          db: app.db,
          receiptsDir: app.config.receiptsDir,
          now: app.now,
          log: app.log,
          monitor: app.metrics.jobs,
        }),
      ]);
    }
    done();
  },
  { name: 'receipts', dependencies: ['context', 'metrics', 'auth', 'call-limits'] },
);
