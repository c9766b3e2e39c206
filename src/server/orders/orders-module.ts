/** The orders module: the customer's calls, the kept status answers, the poll lane, the sweeper. */
import fp from 'fastify-plugin';
import { compressedRoutes } from '../platform/http/compression';
import { runWhileUp, type ModuleOptions } from '../platform/jobs/run-jobs';
import { customerRoutes } from './orders-routes';
import type { Quote } from './pricing';
import { StatusAnswers } from './status/status-answers';
import type { PollLane } from '../platform/http/poll-lane';
import { STATUS_ROUTE, statusAnswer } from './status/status-route';
import { createSweeper, sweepLag } from './sweeper';

declare module 'fastify' {
  interface FastifyInstance {
    readonly statusAnswers: StatusAnswers;
  }
}

export const ordersModule = fp<ModuleOptions & { readonly lane?: PollLane; readonly quote: Quote }>(
  (app, options, done) => {
    app.decorate('statusAnswers', new StatusAnswers(app.db, app.config.database.kind));
    app.metrics.gauges([
      {
        name: 'exchange_sweeper_lag_seconds',
        help: 'How long the most overdue order has waited for the sweeper, by task (0: none has)',
        labelNames: ['task'],
        read: async (db, now) => {
          const behind = await sweepLag(db, now);
          return [
            { labels: { task: 'expire' }, value: behind.expire / 1000 },
            { labels: { task: 'flag_waiting' }, value: behind.flagWaiting / 1000 },
            { labels: { task: 'flag_paid_late' }, value: behind.flagPaidLate / 1000 },
            { labels: { task: 'remind' }, value: behind.remind / 1000 },
          ];
        },
      },
    ]);
    void app.register(compressedRoutes(customerRoutes(options.quote)));
    const { lane } = options;
    if (lane !== undefined) {
      lane.poll({ route: STATUS_ROUTE, answer: statusAnswer });
      const fallbacks = app.metrics.counter({
        name: 'exchange_status_lane_fallbacks_total',
        help: 'Status polls the poll lane handed to Fastify, by reason',
        labelNames: ['reason'],
      });
      app.addHook('onReady', (ready) => {
        lane.open(app, (reason) => fallbacks.inc({ reason }));
        ready();
      });
    }
    if (options.jobs) {
      runWhileUp(app, [
        createSweeper({
          database: { db: app.db, dialect: app.config.database.kind },
          now: app.now,
          log: app.log,
          monitor: app.metrics.jobs,
        }),
      ]);
    }
    done();
  },
  { name: 'orders', dependencies: ['context', 'metrics', 'auth', 'call-limits'] },
);
