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
import type { Caller } from '../platform/identity/authenticator';
import { orderIdParam } from '../platform/http/validation';
import { created, documentedAs, ok, type ValibotTypeProvider } from '../platform/http/contract';
import {
  ActiveOrdersResponseSchema,
  BankRequisitesResponseSchema,
  CreateOrderResponseSchema,
  HistoryResponseSchema,
  OrderActionResponseSchema,
  OrderDetailsSchema,
} from '../../shared/schemas/responses';
import { MeResponseSchema } from '../../shared/schemas/operator-responses';
import { OrderParamsSchema } from '../../shared/schemas/params';
import { noStore } from '../platform/http/cache-control';
import { STATUS_ROUTE, statusAnswer } from './status/status-route';
import { parseReceiptJson } from '../receipts/receipt-json';
import { ReceivedDataUrl } from '../receipts/receipt-body';
import { POLLED_SMALL } from '../platform/logging/request-log';

export const customerRoutes: FastifyPluginCallback = (plain, _options, done) => {
  const app = plain.withTypeProvider<ValibotTypeProvider>();
  customerCalls(app);
  // Counted before the input is judged: a refused call counts like any other.
  const counted = (call: LimitedCall) => ({ preValidation: app.callLimit(call) });
  const tags = ['orders'];

  app.post(
    API_PATHS.createOrder,
    {
      schema: { tags, body: CreateOrderSchema, response: created(CreateOrderResponseSchema) },
      ...counted('create'),
    },
    async (request, reply): Promise<CreateOrderResponse> => {
      const created = await createOrder(app, request.caller, request.body);
      request.log.info(
        { orderId: created.orderId, customer: request.caller.telegramId },
        'order created',
      );
      void reply.status(201);
      return created;
    },
  );

  // Who the caller is, and whether the console is theirs (its entry shows only for operators).
  app.get(
    API_PATHS.me,
    { schema: { tags, response: ok(MeResponseSchema) } },
    async (request, reply): Promise<MeResponse> => {
      noStore(reply);
      const { telegramId, firstName } = request.caller;
      return { telegramId, firstName, operator: app.isOperator(telegramId) };
    },
  );

  app.get(
    API_PATHS.activeOrders,
    { schema: { tags, response: ok(ActiveOrdersResponseSchema) } },
    async (request, reply): Promise<ActiveOrdersResponse> => {
      noStore(reply);
      return activeOrders(app, request.caller.telegramId);
    },
  );

  app.get(
    API_PATHS.history,
    { schema: { tags, querystring: HistoryQuerySchema, response: ok(HistoryResponseSchema) } },
    async (request, reply): Promise<HistoryResponse> => {
      noStore(reply);
      return orderHistory(app, request.caller.telegramId, request.query);
    },
  );

  // An app polling an order it already holds sends its ETag back and gets 304 with no body
  // while nothing but the server's time would change. The status lane (status-lane.ts) answers
  // most polls before they reach Fastify, with the same answer.
  app.get(
    STATUS_ROUTE,
    { schema: { tags, params: OrderParamsSchema, response: STATUS_ANSWERS }, ...POLLED_SMALL },
    async (request, reply): Promise<FastifyReply> => {
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
    },
  );

  app.get(
    '/api/orders/:id/requisites',
    { schema: { tags, params: OrderParamsSchema, response: ok(BankRequisitesResponseSchema) } },
    async (request, reply): Promise<BankRequisitesResponse> => {
      noStore(reply);
      return bankRequisites(app, request.caller.telegramId, request.params.id);
    },
  );

  /** An action on one of the caller's orders: its id is judged first, then its body if any. */
  const withBody = <S extends v.GenericSchema>(body: S) => ({
    schema: { tags, params: OrderParamsSchema, body, response: ok(OrderActionResponseSchema) },
    ...counted('action'),
  });
  const noBody = {
    schema: { tags, params: OrderParamsSchema, response: ok(OrderActionResponseSchema) },
    ...counted('action'),
  };
  const act = async <Body>(
    request: { caller: Caller; params: { id: string }; body: Body },
    service: OrderActionService<Body>,
  ): Promise<OrderActionResponse> =>
    actionResponse(await service(app, request.caller.telegramId, request.params.id, request.body));

  app.post('/api/orders/:id/cancel', noBody, (request) => act(request, cancelOrder));
  app.post('/api/orders/:id/payment-confirm', noBody, (request) => act(request, confirmPayment));
  // The one large body, a file as a data URL: read only once the caller is known, within their
  // limit, and the order is theirs and waiting for a receipt; then read as it arrives, its file
  // decoded on the way (a scope of its own, for its own JSON parser).
  void app.register(async (plainReceipts) => {
    const receipts = plainReceipts.withTypeProvider<ValibotTypeProvider>();
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
        schema: {
          tags,
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
      (request) => act(request, uploadReceipt),
    );
    return Promise.resolve();
  });
  app.post('/api/orders/:id/tx-hash', withBody(TxHashSchema), (request) =>
    act(request, submitTxHash),
  );
  app.post('/api/orders/:id/office-confirm', noBody, (request) =>
    act(request, confirmOfficeReceipt),
  );

  done();
};

/** The receipt upload as its parser gives it: the wire's fields, fileData decoded into a file. */
const ReceivedUploadSchema = documentedAs(
  v.looseObject({ ...ReceiptUploadSchema.entries, fileData: v.instance(ReceivedDataUrl) }),
  ReceiptUploadSchema,
);

/** The status poll's answers: the order, or 304 with no body while the app holds its version. */
const STATUS_ANSWERS = {
  ...ok(OrderDetailsSchema),
  304: { description: 'Not modified: the version the app holds (If-None-Match) is current' },
};
