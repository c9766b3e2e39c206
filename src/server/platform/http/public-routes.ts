/**
 * Calls that need no identity: health, the app's start-up configuration, the demo session
 * (limited per client address).
 *
 * Health is readiness (design.md, "Serving"): 200 once the database has answered a round trip,
 * 503 SERVICE_UNAVAILABLE when it fails or does not answer within HEALTH_DATABASE_TIMEOUT_MS,
 * and 503 from the moment the server starts to stop (platform/http/readiness.ts). The app's Online
 * indicator reads any failure as Offline.
 */
import type { FastifyPluginCallback } from 'fastify';
import {
  API_PATHS,
  type AppConfigResponse,
  type DemoSessionResponse,
  type HealthResponse,
} from '../../../shared/api';
import { HEALTH_DATABASE_TIMEOUT_MS } from '../../../shared/limits';
import { DemoSessionQuerySchema } from '../../../shared/schemas/queries';
import { appConfigOf } from '../config/app-config';
import { demoSession } from '../identity/demo-session';
import { isDemoMode } from '../config/config';
import { pingDatabase } from '../db/database';
import { AppError } from '../errors';
import { parseWith } from './validation';
import { noStore } from './cache-control';
import { POLLED_SMALL } from '../logging/request-log';

export const publicRoutes: FastifyPluginCallback = (app, _options, done) => {
  app.get(API_PATHS.health, POLLED_SMALL, async (request, reply): Promise<HealthResponse> => {
    noStore(reply);
    try {
      await pingDatabase(app.db, HEALTH_DATABASE_TIMEOUT_MS);
    } catch (error) {
      request.log.warn({ err: error }, 'health: the database did not answer');
      throw new AppError('SERVICE_UNAVAILABLE');
    }
    return { ok: true, time: new Date(app.now()).toISOString() };
  });

  app.get(API_PATHS.appConfig, async (_request, reply): Promise<AppConfigResponse> => {
    noStore(reply);
    return Promise.resolve(appConfigOf(app.config));
  });

  // Each session is a demo customer of its own: counted per client address, in demo mode only
  // (with a bot token it mints nothing and answers DEMO_DISABLED).
  const demoLimit = isDemoMode(app.config) ? { preHandler: app.addressLimit('demoSession') } : {};
  app.get(
    API_PATHS.demoSession,
    demoLimit,
    async (request, reply): Promise<DemoSessionResponse> => {
      const { startParam, browser } = parseWith(DemoSessionQuerySchema, request.query);
      const session = demoSession(app, startParam, browser);
      noStore(reply);
      return Promise.resolve(session);
    },
  );

  done();
};
