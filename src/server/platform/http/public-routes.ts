/**
 * Calls that need no identity: health, the app's start-up configuration, the demo session
 * (limited per client address) and the API's own document.
 *
 * Health is readiness: 200 once the database has answered a round trip,
 * 503 SERVICE_UNAVAILABLE when it fails or does not answer within HEALTH_DATABASE_TIMEOUT_MS,
 * and 503 from the moment the server starts to stop (platform/http/request-wide.ts). The app's Online
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
import { described, ok, type ValibotTypeProvider } from './contract';
import {
  AppConfigResponseSchema,
  DemoSessionResponseSchema,
  HealthResponseSchema,
} from '../../../shared/schemas/responses';
import { POLLED_SMALL } from '../logging/request-log';

export const publicRoutes: FastifyPluginCallback = (plain, _options, done) => {
  const app = plain.withTypeProvider<ValibotTypeProvider>();
  const tags = ['platform'];
  app.get(
    API_PATHS.health,
    { schema: { tags, response: ok(HealthResponseSchema) }, ...POLLED_SMALL },
    async (request): Promise<HealthResponse> => {
      try {
        await pingDatabase(app.db, HEALTH_DATABASE_TIMEOUT_MS);
      } catch (error) {
        request.log.warn({ err: error }, 'health: the database did not answer');
        throw new AppError('SERVICE_UNAVAILABLE');
      }
      return { ok: true, time: new Date(app.now()).toISOString() };
    },
  );

  app.get(
    API_PATHS.appConfig,
    { schema: { tags, response: ok(AppConfigResponseSchema) } },
    async (): Promise<AppConfigResponse> => {
      return Promise.resolve(appConfigOf(app.config));
    },
  );

  // Each session is a demo customer of its own: counted per client address, in demo mode only
  // (with a bot token it mints nothing and answers DEMO_DISABLED).
  const demoLimit = isDemoMode(app.config)
    ? { preValidation: app.addressLimit('demoSession') }
    : {};
  app.get(
    API_PATHS.demoSession,
    {
      schema: {
        tags: ['identity'],
        querystring: DemoSessionQuerySchema,
        response: ok(DemoSessionResponseSchema),
      },
      ...demoLimit,
    },
    async (request): Promise<DemoSessionResponse> => {
      const { startParam, browser } = request.query;
      const session = demoSession(app, startParam, browser);
      return Promise.resolve(session);
    },
  );

  // The API's own list of calls (openapi.ts), built once the server is ready.
  app.get(
    API_PATHS.openApi,
    { schema: { tags, response: described('This document (OpenAPI 3.0)') } },
    () => app.swagger(),
  );

  done();
};
