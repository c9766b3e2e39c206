/**
 * The rates module: the base rates and spreads (rates.ts: read, quoted, set by operators), the
 * market the bases follow when sources are configured (market.ts, read by market-reader.ts),
 * the cities and offices customers choose from (cities.ts), and their calls (rates-routes.ts).
 */
import fp from 'fastify-plugin';
import { compressedRoutes } from '../platform/http/compression';
import { runWhileUp, type ModuleOptions } from '../platform/jobs/run-jobs';
import { marketFor } from './configured-market';
import { marketGauges } from './market-gauges';
import { marketReaderJob } from './market-reader';
import { rateHistoryJob } from './rate-history';
import { rateRoutes } from './rates-routes';

export const ratesModule = fp<ModuleOptions>(
  (app, options, done) => {
    void app.register(compressedRoutes(rateRoutes));
    const market = marketFor(app.config);
    if (market === undefined) {
      app.log.info('rates: no market source configured (RATE_SOURCES): operators set the rates');
    } else {
      app.metrics.gauges(marketGauges(market));
      const job = { now: app.now, log: app.log, monitor: app.metrics.jobs };
      if (options.jobs) {
        runWhileUp(app, [marketReaderJob(app.db, market, job), rateHistoryJob(app.db, job)]);
      }
    }
    done();
  },
  { name: 'rates', dependencies: ['context', 'metrics', 'auth'] },
);
