/** The customer's calls, each behind `authenticate` and limited to the caller's own orders. */
import type { FastifyPluginCallback, FastifyReply } from 'fastify';
import {
  API_PATHS,
  type ActiveOrdersResponse,
  type CreateOrderResponse,
  type HistoryResponse,
} from '../../shared/api';
import type { MeResponse } from '../../shared/operator-api';
import { CreateOrderSchema } from '../../shared/schemas/create-order';
import { HistoryQuerySchema } from '../../shared/schemas/queries';
import { createOrder } from './create';
import type { Quote } from './pricing';
import {
  activeOrders,
  bankRequisites,
  cancelOrder,
  confirmOfficeReceipt,
  confirmPayment,
  orderHistory,
} from './customer-orders';
import { answerAction } from './transition';
import type { LimitedCall } from '../platform/limits/rate-limit';
import { customerCalls } from '../platform/identity/identity-plugin';
import {
  created,
  ok,
  type ContractInstance,
  type ValibotTypeProvider,
} from '../platform/http/contract';
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
import { STATUS_ROUTE, statusAnswer } from './status/status-route';
import { POLLED_SMALL } from '../platform/logging/request-log';

type Customer = ContractInstance;

const tags = ['orders'];

/** Counted before the input is judged: a refused call counts like any other. */
const counted = (app: Customer, call: LimitedCall) => ({ preValidation: app.callLimit(call) });

function readRoutes(app: Customer, quote: Quote): void {
  app.post(
    API_PATHS.createOrder,
    {
      schema: { tags, body: CreateOrderSchema, response: created(CreateOrderResponseSchema) },
      ...counted(app, 'create'),
    },
    async (request, reply): Promise<CreateOrderResponse> => {
      const order = await createOrder(app, quote, request.caller, request.body);
      request.log.info(
        { orderId: order.orderId, customer: request.caller.telegramId },
        'order created',
      );
      void reply.status(201);
      return order;
    },
  );
  // Whether the console is theirs: its entry shows only for operators.
  app.get(
    API_PATHS.me,
    { schema: { tags, response: ok(MeResponseSchema) } },
    (request): MeResponse => {
      const { telegramId, firstName } = request.caller;
      return { telegramId, firstName, operator: app.isOperator(telegramId) };
    },
  );
  app.get(
    API_PATHS.activeOrders,
    { schema: { tags, response: ok(ActiveOrdersResponseSchema) } },
    async (request): Promise<ActiveOrdersResponse> => {
      return activeOrders(app, request.caller.telegramId);
    },
  );
  app.get(
    API_PATHS.history,
    { schema: { tags, querystring: HistoryQuerySchema, response: ok(HistoryResponseSchema) } },
    async (request): Promise<HistoryResponse> => {
      return orderHistory(app, request.caller.telegramId, request.query);
    },
  );
}

function orderRoutes(app: Customer): void {
  // An app holding the order sends its ETag and gets 304 while only the server's time would
  // change. The poll lane (platform/http/poll-lane.ts) answers most polls before Fastify.
  app.get(
    STATUS_ROUTE,
    { schema: { tags, params: OrderParamsSchema, response: STATUS_ANSWERS }, ...POLLED_SMALL },
    async (request, reply): Promise<FastifyReply> => {
      const answer = await statusAnswer(
        app,
        request.caller.telegramId,
        request.params.id,
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
    API_PATHS.orderRequisites.pattern,
    { schema: { tags, params: OrderParamsSchema, response: ok(BankRequisitesResponseSchema) } },
    (request) => bankRequisites(app, request.caller.telegramId, request.params.id),
  );
}

/** The id is judged first, then the body. The receipt's upload is the receipts module's. */
function actionRoutes(app: Customer): void {
  const noBody = {
    schema: { tags, params: OrderParamsSchema, response: ok(OrderActionResponseSchema) },
    ...counted(app, 'action'),
  };
  app.post(API_PATHS.cancel.pattern, noBody, (r) => answerAction(app, r, cancelOrder));
  app.post(API_PATHS.paymentConfirm.pattern, noBody, (r) => answerAction(app, r, confirmPayment));
  app.post(API_PATHS.officeConfirm.pattern, noBody, (r) =>
    answerAction(app, r, confirmOfficeReceipt),
  );
}

export const customerRoutes =
  (quote: Quote): FastifyPluginCallback =>
  (plain, _options, done) => {
    const app = plain.withTypeProvider<ValibotTypeProvider>();
    customerCalls(app);
    readRoutes(app, quote);
    orderRoutes(app);
    actionRoutes(app);
    done();
  };

const STATUS_ANSWERS = {
  ...ok(OrderDetailsSchema),
  304: { description: 'Not modified: the version the app holds (If-None-Match) is current' },
};
