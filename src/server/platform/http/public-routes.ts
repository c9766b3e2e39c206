/**
 * Calls that need no identity: health, the app's configuration, the demo session, the API's
 * document. Health is readiness: 200 once the database answered a round trip in time, else 503.
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

  // Each session mints a demo customer: counted per address (DEMO_DISABLED with a bot token).
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

  app.get(
    API_PATHS.openApi,
    { schema: { tags, response: described('This document (OpenAPI 3.0)') } },
    () => app.swagger(),
  );

  done();
};
