/**
 * `/api/operator/*`: every route behind `operatorOnly`, so only Telegram users listed in
 * OPERATOR_IDS reach them (403 for anyone else), and in demo mode each demo visitor, whose console
 * holds their own orders only (`consoleScope`: another's order answers 404 like a missing one).
 * The writes that move money want recent init data (MONEY_ACTIONS). Thin routes over the
 * operator services.
 */
import type { FastifyPluginCallback } from 'fastify';
import * as v from 'valibot';
import {
  MONEY_ACTIONS,
  OPERATOR_PATHS,
  type OperatorIncomingResponse,
  type OperatorWrite,
  type OperatorOrdersResponse,
  type OperatorQueueResponse,
} from '../../shared/operator-api';
import {
  BankRequisitesSchema,
  CardRequisitesSchema,
  AttachDepositSchema,
  CompleteSchema,
  ConfirmTxSchema,
  OfficeInstructionsSchema,
  OperatorActionSchema,
  IncomingQuerySchema,
  OperatorListQuerySchema,
  RejectSchema,
  SetRateSchema,
  FixRateSchema,
  ConfirmJumpSchema,
  SetSpreadSchema,
} from '../../shared/schemas/operator';
import { unmatchedDeposits } from './incoming-deposits';
import { orderForOperator } from './order-for-operator';
import { attachIncomingDeposit } from './verbs/attach-deposit';
import { completeOrder } from './verbs/complete';
import { confirmPaymentByOperator } from './verbs/confirm-payment';
import { confirmIncomingTx } from './verbs/confirm-tx';
import { giveOfficeInstructions } from './verbs/give-office-instructions';
import { giveRequisites } from './verbs/give-requisites';
import { rejectOrder } from './verbs/reject';
import { answerAction, type OrderActionService, consoleCalls } from '../orders';
import { operatorQueue, searchOrders } from './queue';
import { confirmJump, fixRate, readRates, setBaseRate, setSpread } from '../rates';
import { sendDownload, openReceipt } from '../receipts';
import {
  described,
  ok,
  type ContractInstance,
  type ValibotTypeProvider,
} from '../platform/http/contract';
import { OrderActionResponseSchema, type ResponseOf } from '../../shared/schemas/responses';
import {
  OperatorIncomingResponseSchema,
  OperatorOrderResponseSchema,
  OperatorOrdersResponseSchema,
  OperatorQueueResponseSchema,
  OperatorRatesResponseSchema,
} from '../../shared/schemas/operator-responses';
import { OrderParamsSchema, ReceiptParamsSchema } from '../../shared/schemas/params';
import { POLLED } from '../platform/logging/request-log';

/** The console's scope with the valibot type provider (contract.ts). */
type Console = ContractInstance;

/** The options of a write's route: recent init data when MONEY_ACTIONS says it moves money. */
function write(app: Console, name: OperatorWrite) {
  return MONEY_ACTIONS[name] ? { onRequest: app.recentOperator } : {};
}

/** A receipt's file, as it was uploaded (its type read from its bytes), or a refusal. */
const RECEIPT_FILE = described("The receipt's file (image/jpeg, image/png or application/pdf)");

/**
 * A console read of one order's part (the order, its appeal), as the operator who asks sees it:
 * the order's id from the path, 404 for an order their console does not hold (orders' consoleCalls).
 */
export function consoleOrderRead<S extends v.GenericSchema>(
  app: Console,
  path: string,
  response: S,
  read: (ctx: Console, operatorId: number, orderId: string) => Promise<ResponseOf<S>>,
): void {
  app.get(
    path,
    { schema: { tags: ['operator'], params: OrderParamsSchema, response: ok(response) } },
    // Fastify cannot resolve the reply type of a schema still generic here: `read`'s signature
    // above holds it to the schema's answer at every call instead.
    (request) => read(app, request.caller.telegramId, request.params.id) as never,
  );
}

/** The queue, the search, one order and a receipt's file. */
function readRoutes(app: Console): void {
  const tags = ['operator'];
  app.get(
    OPERATOR_PATHS.queue,
    { schema: { tags, response: ok(OperatorQueueResponseSchema) }, ...POLLED },
    async (request): Promise<OperatorQueueResponse> => {
      return operatorQueue(app, request.consoleScope);
    },
  );
  app.get(
    OPERATOR_PATHS.orders,
    {
      schema: {
        tags,
        querystring: OperatorListQuerySchema,
        response: ok(OperatorOrdersResponseSchema),
      },
    },
    async (request): Promise<OperatorOrdersResponse> => {
      return searchOrders(app, request.query, request.consoleScope);
    },
  );
  consoleOrderRead(
    app,
    OPERATOR_PATHS.order.pattern,
    OperatorOrderResponseSchema,
    orderForOperator,
  );
  app.get(
    OPERATOR_PATHS.receipt.pattern,
    { schema: { tags, params: ReceiptParamsSchema, response: RECEIPT_FILE } },
    async (request, reply) => {
      const receipt = await openReceipt(app, request.params.id, request.params.receiptId);
      return sendDownload(reply, receipt);
    },
  );
}

/** The console's writes on one order, each at its path in OPERATOR_PATHS. */
type OrderVerb = Exclude<OperatorWrite, 'rates' | 'spreads' | 'rateFix' | 'rateJump'>;

/**
 * One action on an order, `POST /api/operator/orders/{id}/<action>`: the order's id judged, then
 * its body, then the service run for the operator (with fresh init data when it moves money).
 */
function actionRoute<S extends v.GenericSchema>(
  app: Console,
  name: OrderVerb,
  body: S,
  service: OrderActionService<v.InferOutput<S>>,
): void {
  const schema = { tags: ['operator'], params: OrderParamsSchema, body };
  app.post(
    OPERATOR_PATHS[name].pattern,
    { schema: { ...schema, response: ok(OrderActionResponseSchema) }, ...write(app, name) },
    // The route's schemas judged the body: it is what the service takes.
    (request) => answerAction(app, request as typeof request & { body: v.InferOutput<S> }, service),
  );
}

/** The actions on an order, each with its body's schema and its service. */
function actionRoutes(app: Console): void {
  const requisites = v.union([CardRequisitesSchema, BankRequisitesSchema]);
  const office = OfficeInstructionsSchema;
  actionRoute(app, 'requisites', requisites, giveRequisites);
  actionRoute(app, 'officeInstructions', office, giveOfficeInstructions);
  actionRoute(app, 'confirmPayment', OperatorActionSchema, confirmPaymentByOperator);
  actionRoute(app, 'confirmTx', ConfirmTxSchema, confirmIncomingTx);
  actionRoute(app, 'attachDeposit', AttachDepositSchema, attachIncomingDeposit);
  // No body completes an order that needs no outgoing hash (an office buy, a sell).
  actionRoute(app, 'complete', v.nullish(CompleteSchema, {}), completeOrder);
  actionRoute(app, 'reject', RejectSchema, rejectOrder);
}

/** The transfers to the deposit addresses no order took, and the rates and spreads. */
function serviceRoutes(app: Console): void {
  const tags = ['operator'];
  app.get(
    OPERATOR_PATHS.incoming,
    {
      schema: {
        tags,
        querystring: IncomingQuerySchema,
        response: ok(OperatorIncomingResponseSchema),
      },
    },
    async (request): Promise<OperatorIncomingResponse> => {
      return unmatchedDeposits(app.db, request.consoleScope, request.query);
    },
  );
  app.get(
    OPERATOR_PATHS.rates,
    { schema: { tags, response: ok(OperatorRatesResponseSchema) } },
    async () => {
      return readRates(app);
    },
  );
  app.put(
    OPERATOR_PATHS.rates,
    {
      schema: { tags, body: SetRateSchema, response: ok(OperatorRatesResponseSchema) },
      ...write(app, 'rates'),
    },
    async (request) => setBaseRate(app, request.caller.telegramId, request.body),
  );
  app.put(
    OPERATOR_PATHS.spreads,
    {
      schema: { tags, body: SetSpreadSchema, response: ok(OperatorRatesResponseSchema) },
      ...write(app, 'spreads'),
    },
    async (request) => setSpread(app, request.caller.telegramId, request.body),
  );
  app.put(
    OPERATOR_PATHS.rateFix,
    {
      schema: { tags, body: FixRateSchema, response: ok(OperatorRatesResponseSchema) },
      ...write(app, 'rateFix'),
    },
    async (request) => fixRate(app, request.caller.telegramId, request.body),
  );
  app.post(
    OPERATOR_PATHS.rateJump,
    {
      schema: { tags, body: ConfirmJumpSchema, response: ok(OperatorRatesResponseSchema) },
      ...write(app, 'rateJump'),
    },
    async (request) => confirmJump(app, request.caller.telegramId, request.body),
  );
}

export const operatorRoutes: FastifyPluginCallback = (plain, _options, done) => {
  const app = plain.withTypeProvider<ValibotTypeProvider>();
  consoleCalls(app);
  readRoutes(app);
  actionRoutes(app);
  serviceRoutes(app);
  done();
};
