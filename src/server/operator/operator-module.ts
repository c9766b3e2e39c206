/**
 * The operator module: the console's calls (operator-routes.ts: the queue, search, one order and
 * its actions, incoming deposits, rates), and in demo mode, on a server that runs jobs, the
 * autopilot operator that plays the staff side where nobody does (autopilot.ts).
 */
import fp from 'fastify-plugin';
import { compressedRoutes } from '../platform/http/compression';
import { runWhileUp, type ModuleOptions } from '../platform/jobs/run-jobs';
import { createAutopilot } from './autopilot';
import { operatorRoutes } from './operator-routes';

export const operatorModule = fp<ModuleOptions>(
  (app, options, done) => {
    void app.register(compressedRoutes(operatorRoutes));
    if (options.jobs && app.config.demoAutopilot) {
      runWhileUp(app, [createAutopilot(app, app.log, app.metrics.jobs)]);
    }
    done();
  },
  { name: 'operator', dependencies: ['context', 'metrics', 'auth', 'chain'] },
);
