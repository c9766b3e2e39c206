/** The customer's appeal, the console's reading and decision (which wants fresh init data). */
import type { FastifyPluginCallback } from 'fastify';
import { MONEY_ACTIONS } from '../../shared/operator-api';
import { AppealDecisionSchema, OpenAppealSchema } from '../../shared/schemas/appeals';
import { OperatorAppealResponseSchema } from '../../shared/schemas/operator-responses';
import { OrderParamsSchema } from '../../shared/schemas/params';
import { AppealViewSchema, OrderActionResponseSchema } from '../../shared/schemas/responses';
import { created, ok, type ValibotTypeProvider } from '../platform/http/contract';
import { customerCalls } from '../platform/identity/identity-plugin';
import { consoleCalls } from '../orders';
import { consoleOrderRead } from '../operator';
import { answerAction } from '../orders';
import { appealForOperator, decideAppeal, openAppeal } from './appeals';
import { API_PATHS, type AppealView } from '../../shared/api';
import { OPERATOR_PATHS } from '../../shared/operator-api';

export const customerAppealRoutes: FastifyPluginCallback = (plain, _options, done) => {
  const app = plain.withTypeProvider<ValibotTypeProvider>();
  customerCalls(app);
  app.post(
    API_PATHS.appeal.pattern,
    {
      schema: {
        tags: ['orders'],
        params: OrderParamsSchema,
        body: OpenAppealSchema,
        response: created(AppealViewSchema),
      },
      preValidation: app.callLimit('action'),
    },
    async (request, reply): Promise<AppealView> => {
      const { params, body, caller } = request;
      const appeal = await openAppeal(app, caller.telegramId, params.id, body);
      void reply.status(201);
      return appeal;
    },
  );
  done();
};

export const operatorAppealRoutes: FastifyPluginCallback = (plain, _options, done) => {
  const app = plain.withTypeProvider<ValibotTypeProvider>();
  const tags = ['operator'];
  consoleCalls(app);
  consoleOrderRead(
    app,
    OPERATOR_PATHS.appeal.pattern,
    OperatorAppealResponseSchema,
    appealForOperator,
  );
  app.post(
    OPERATOR_PATHS.appealDecision.pattern,
    {
      schema: {
        tags,
        params: OrderParamsSchema,
        body: AppealDecisionSchema,
        response: ok(OrderActionResponseSchema),
      },
      ...(MONEY_ACTIONS.appealDecision ? { onRequest: app.recentOperator } : {}),
    },
    (request) => answerAction(app, request, decideAppeal),
  );
  done();
};
