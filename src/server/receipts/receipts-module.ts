/**
 * The receipts module: a receipt's upload (receipts-routes.ts) is read as it arrives
 * (receipt-body.ts, receipt-json.ts) and kept under RECEIPTS_DIR (receipts.ts); operators download
 * it from the console. On a server that runs jobs, housekeeping removes the files no receipt names and
 * forgets call-limit windows long over.
 */
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
