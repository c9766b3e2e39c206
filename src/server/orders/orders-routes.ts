/**
 * The customer's calls (spec section 7), every one behind `authenticate`: the caller is on the
 * request, and every order call is limited to the caller's own orders by its service. Writing
 * calls count against the caller's limits of the minute.
 */
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import {
  API_PATHS,
  type ActiveOrdersResponse,
  type BankRequisitesResponse,
  type CreateOrderResponse,
  type HistoryResponse,
  type OrderActionResponse,
} from '../../shared/api';
import type { MeResponse } from '../../shared/operator-api';
import { CreateOrderSchema } from '../../shared/schemas/create-order';
import { ReceiptUploadSchema, TxHashSchema } from '../../shared/schemas/order-actions';
import { HistoryQuerySchema } from '../../shared/schemas/queries';
import { createOrder } from './create';
import {
  activeOrders,
  bankRequisites,
  cancelOrder,
  confirmOfficeReceipt,
  confirmPayment,
  orderHistory,
  orderTakingReceipt,
  submitTxHash,
  uploadReceipt,
} from './customer-orders';
import { actionResponse } from './order-view';
import type { OrderActionService } from './transition';
import type { LimitedCall } from '../platform/limits/rate-limit';
import { customerCalls } from '../platform/identity/identity-plugin';
import { orderIdParam, parseWith } from '../platform/http/validation';
import { noStore } from '../platform/http/cache-control';
import { STATUS_ROUTE, statusAnswer } from './status/status-route';
import { parseReceiptJson } from '../receipts/receipt-json';
import { ReceivedDataUrl } from '../receipts/receipt-body';
import { POLLED_SMALL } from '../platform/logging/request-log';

export const customerRoutes: FastifyPluginCallback = (app, _options, done) => {
  customerCalls(app);
  const counted = (call: LimitedCall) => ({ preHandler: app.callLimit(call) });

  app.post(
    API_PATHS.createOrder,
    counted('create'),
    async (request, reply): Promise<CreateOrderResponse> => {
      const payload = parseWith(CreateOrderSchema, request.body);
      const created = await createOrder(app, request.caller, payload);
      request.log.info(
        { orderId: created.orderId, customer: request.caller.telegramId },
        'order created',
      );
      void reply.status(201);
      return created;
    },
  );

  // Who the caller is, and whether the console is theirs (its entry shows only for operators).
  app.get(API_PATHS.me, async (request, reply): Promise<MeResponse> => {
    noStore(reply);
    const { telegramId, firstName } = request.caller;
    return { telegramId, firstName, operator: app.isOperator(telegramId) };
  });

  app.get(API_PATHS.activeOrders, async (request, reply): Promise<ActiveOrdersResponse> => {
    noStore(reply);
    return activeOrders(app, request.caller.telegramId);
  });

  app.get(API_PATHS.history, async (request, reply): Promise<HistoryResponse> => {
    const query = parseWith(HistoryQuerySchema, request.query);
    noStore(reply);
    return orderHistory(app, request.caller.telegramId, query);
  });

  // An app polling an order it already holds sends its ETag back and gets 304 with no body
  // while nothing but the server's time would change. The status lane (status-lane.ts) answers
  // most polls before they reach Fastify, with the same answer.
  app.get(STATUS_ROUTE, POLLED_SMALL, async (request, reply): Promise<FastifyReply> => {
    const answer = await statusAnswer(
      app,
      request.caller.telegramId,
      request.params,
      request.headers['if-none-match'],
    );
    void reply.status(answer.statusCode);
    const { headers } = answer;
    for (let i = 0; i < headers.length; i += 2)
      void reply.header(String(headers[i]), headers[i + 1]);
    return answer.body === null ? reply.send() : reply.send(answer.body);
  });

  app.get('/api/orders/:id/requisites', async (request, reply): Promise<BankRequisitesResponse> => {
    noStore(reply);
    return bankRequisites(app, request.caller.telegramId, orderIdParam(request.params));
  });

  /** An action on one of the caller's orders; its body, when it takes one, is judged after the id. */
  const orderAction =
    <S extends v.GenericSchema>(schema: S, action: OrderActionService<v.InferOutput<S>>) =>
    async (request: FastifyRequest): Promise<OrderActionResponse> => {
      const id = orderIdParam(request.params);
      const body = parseWith(schema, request.body);
      return actionResponse(await action(app, request.caller.telegramId, id, body));
    };
  const IgnoredBody = v.unknown();
  /** The receipt upload as its parser gives it: the wire's fields, fileData decoded. */
  const ReceivedUploadSchema = v.looseObject({
    ...ReceiptUploadSchema.entries,
    fileData: v.instance(ReceivedDataUrl),
  });

  app.post('/api/orders/:id/cancel', counted('action'), orderAction(IgnoredBody, cancelOrder));
  app.post(
    '/api/orders/:id/payment-confirm',
    counted('action'),
    orderAction(IgnoredBody, confirmPayment),
  );
  // The one large body, a file as a data URL: read only once the caller is known, within their
  // limit, and the order is theirs and waiting for a receipt; then read as it arrives, its file
  // decoded on the way (a scope of its own, for its own JSON parser).
  void app.register(async (receipts) => {
    receipts.removeContentTypeParser('application/json');
    receipts.addContentTypeParser('application/json', parseReceiptJson);
    // The file written as the body arrived, when the upload did not keep it (refused, or a body
    // that failed its schema): gone before the answer leaves. A kept one was renamed already.
    receipts.addHook('onSend', async (request, _reply, payload) => {
      const { fileData } = (request.body ?? {}) as { fileData?: unknown };
      if (fileData instanceof ReceivedDataUrl) await fileData.discard();
      return payload;
    });
    receipts.post(
      '/api/orders/:id/receipt',
      {
        onRequest: [
          app.identifiedBeforeBody,
          app.callLimit('receipt'),
          async (request: FastifyRequest) => {
            const id = orderIdParam(request.params);
            await orderTakingReceipt(app, request.caller.telegramId, id);
          },
        ],
      },
      orderAction(ReceivedUploadSchema, uploadReceipt),
    );
    return Promise.resolve();
  });
  app.post('/api/orders/:id/tx-hash', counted('action'), orderAction(TxHashSchema, submitTxHash));
  app.post(
    '/api/orders/:id/office-confirm',
    counted('action'),
    orderAction(IgnoredBody, confirmOfficeReceipt),
  );

  done();
};
