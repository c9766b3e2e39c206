/** Calls that need no identity: health, the app's start-up configuration and the demo session. */
import type { FastifyInstance } from 'fastify';
import {
  API_PATHS,
  orderIdFromStartParam,
  type AppConfigResponse,
  type DemoSessionResponse,
  type HealthResponse,
} from '../../shared/api';
import { DEMO_BOT_TOKEN, DEMO_USER, signInitData } from '../auth/telegram-auth';
import { isDemoMode } from '../config';
import { pingDatabase } from '../db/database';
import { AppError } from '../errors';
import type { AppContext } from '../app';
import { DemoSessionQuerySchema } from '../../shared/schemas/queries';
import { parseWith } from '../validation';

export function systemRoutes(app: FastifyInstance, ctx: AppContext): void {
  const noStore = { 'cache-control': 'no-store' };

  app.get(API_PATHS.health, async (_request, reply): Promise<HealthResponse> => {
    await pingDatabase(ctx.db);
    void reply.headers(noStore);
    return { ok: true, time: new Date(ctx.now()).toISOString() };
  });

  app.get(API_PATHS.appConfig, async (_request, reply): Promise<AppConfigResponse> => {
    void reply.headers(noStore);
    return Promise.resolve({ demo: isDemoMode(ctx.config), supportUrl: ctx.config.supportUrl });
  });

  app.get(API_PATHS.demoSession, async (request, reply): Promise<DemoSessionResponse> => {
    if (!isDemoMode(ctx.config)) throw new AppError('DEMO_DISABLED');
    const raw = parseWith(DemoSessionQuerySchema, request.query).startParam;
    // Only a well-formed order deep link is passed on; anything else opens the app plainly.
    const startParam =
      typeof raw === 'string' && orderIdFromStartParam(raw) !== undefined ? raw : undefined;
    void reply.headers(noStore);
    return Promise.resolve({
      initData: signInitData(DEMO_BOT_TOKEN, DEMO_USER, {
        ...(startParam === undefined ? {} : { startParam }),
        authDate: new Date(ctx.now()),
      }),
    });
  });
}
