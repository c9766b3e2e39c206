/**
 * `POST /api/orders/{id}/receipt`: read only once the caller is known, within their limit, and
 * the order is theirs and waiting; in a scope of its own for its own JSON parser.
 */
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { ReceiptUploadSchema } from '../../shared/schemas/order-actions';
import { OrderParamsSchema } from '../../shared/schemas/params';
import { OrderActionResponseSchema } from '../../shared/schemas/responses';
import { answerAction } from '../orders';
import { documentedAs, ok, type ValibotTypeProvider } from '../platform/http/contract';
import { orderIdParam } from '../platform/http/validation';
import { customerCalls } from '../platform/identity/identity-plugin';
import { ReceivedDataUrl } from './receipt-body';
import { readsFileBodies } from './file-transfer';
import { orderTakingReceipt, uploadReceipt } from './receipt-upload';
import { API_PATHS } from '../../shared/api';

const ReceivedUploadSchema = documentedAs(
  v.looseObject({ ...ReceiptUploadSchema.entries, fileData: v.instance(ReceivedDataUrl) }),
  ReceiptUploadSchema,
);

export const receiptRoutes: FastifyPluginCallback = (plain, _options, done) => {
  const app = plain.withTypeProvider<ValibotTypeProvider>();
  customerCalls(app);
  readsFileBodies(app);
  app.post(
    API_PATHS.receipt.pattern,
    {
      schema: {
        tags: ['orders'],
        params: OrderParamsSchema,
        body: ReceivedUploadSchema,
        response: ok(OrderActionResponseSchema),
      },
      onRequest: [
        app.identifiedBeforeBody,
        app.callLimit('receipt'),
        async (request: FastifyRequest) => {
          const id = orderIdParam(request.params);
          await orderTakingReceipt(app, request.caller.telegramId, id);
        },
      ],
    },
    (request) => answerAction(app, request, uploadReceipt),
  );
  done();
};
