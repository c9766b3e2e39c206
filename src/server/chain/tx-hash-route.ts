/** `POST /api/orders/{id}/tx-hash`: a seller names the transaction that sent their crypto. */
import type { FastifyPluginCallback } from 'fastify';
import { TxHashSchema } from '../../shared/schemas/order-actions';
import { OrderParamsSchema } from '../../shared/schemas/params';
import { OrderActionResponseSchema } from '../../shared/schemas/responses';
import { ok, type ValibotTypeProvider } from '../platform/http/contract';
import { customerCalls } from '../platform/identity/identity-plugin';
import { answerAction } from '../orders';
import { submitTxHash } from './tx-hash-submission';
import { API_PATHS } from '../../shared/api';

export const txHashRoute: FastifyPluginCallback = (plain, _options, done) => {
  const app = plain.withTypeProvider<ValibotTypeProvider>();
  customerCalls(app);
  app.post(
    API_PATHS.txHash.pattern,
    {
      schema: {
        tags: ['orders'],
        params: OrderParamsSchema,
        body: TxHashSchema,
        response: ok(OrderActionResponseSchema),
      },
      // Counted before the input is judged, as every action on an order.
      preValidation: app.callLimit('action'),
    },
    (request) => answerAction(app, request, submitTxHash),
  );
  done();
};
