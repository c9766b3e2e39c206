/**
 * `/api/operator/*`: every route behind `operatorOnly`, so only Telegram users listed in
 * OPERATOR_IDS reach them (403 for anyone else), and in demo mode each demo visitor, whose console
 * holds their own orders only (`consoleScope`: another's order answers 404 like a missing one).
 * The writes that move money want recent init data (MONEY_ACTIONS). Thin routes over the
 * operator services.
 */
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import type { OrderActionResponse } from '../../shared/api';
import {
  MONEY_ACTIONS,
  OPERATOR_PATHS,
  type OperatorIncomingResponse,
  type OperatorWrite,
  type OperatorOrderResponse,
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
  SetSpreadSchema,
} from '../../shared/schemas/operator';
import { unmatchedDeposits } from './incoming-deposits';
import {
  attachIncomingDeposit,
  completeOrder,
  confirmIncomingTx,
  confirmPaymentByOperator,
  giveOfficeInstructions,
  giveRequisites,
  orderForOperator,
  rejectOrder,
} from './operator-orders';
import { actionResponse } from '../orders/order-view';
import type { OrderActionService } from '../orders/transition';
import { checkInScope, operatorQueue, searchOrders } from './queue';
import { readRates, setBaseRate, setSpread } from '../rates/rates';
import { openReceipt } from '../receipts/receipts';
import { orderIdParam, parseWith, receiptIdParam } from '../platform/http/validation';
import { noStore } from '../platform/http/cache-control';
import { POLLED } from '../platform/logging/request-log';

export const operatorRoutes: FastifyPluginCallback = (app, _options, done) => {
  // Known before a body is read (platform/http/json-body.ts): who calls, and the orders they may touch.
  app.addHook('onRequest', app.operatorOnly);

  // Every route of one order: first, whether the caller's console holds it (consoleScope).
  app.addHook('onRequest', async (request) => {
    const params = request.params as Record<string, unknown> | undefined;
    if (request.consoleScope === null || params?.['id'] === undefined) return;
    await checkInScope(app, orderIdParam(params), request.consoleScope);
  });

  /** The options of a write's route: recent init data when MONEY_ACTIONS says it moves money. */
  const write = (name: OperatorWrite) =>
    MONEY_ACTIONS[name] ? { onRequest: app.recentOperator } : {};

  /** An action on an order; its body, when it takes one, is judged before the order id. */
  const orderAction =
    <S extends v.GenericSchema>(schema: S, action: OrderActionService<v.InferOutput<S>>) =>
    async (request: FastifyRequest): Promise<OrderActionResponse> => {
      const body = parseWith(schema, request.body);
      const id = orderIdParam(request.params);
      return actionResponse(await action(app, request.caller.telegramId, id, body));
    };

  app.get(OPERATOR_PATHS.queue, POLLED, async (request, reply): Promise<OperatorQueueResponse> => {
    noStore(reply);
    return operatorQueue(app, request.consoleScope);
  });

  app.get(OPERATOR_PATHS.orders, async (request, reply): Promise<OperatorOrdersResponse> => {
    noStore(reply);
    return searchOrders(
      app,
      parseWith(OperatorListQuerySchema, request.query),
      request.consoleScope,
    );
  });

  app.get('/api/operator/orders/:id', async (request, reply): Promise<OperatorOrderResponse> => {
    noStore(reply);
    return orderForOperator(app, request.caller.telegramId, orderIdParam(request.params));
  });

  app.get('/api/operator/orders/:id/receipts/:receiptId', async (request, reply) => {
    const receipt = await openReceipt(
      app,
      orderIdParam(request.params),
      receiptIdParam(request.params),
    );
    return reply
      .header('content-type', receipt.mimeType)
      .header('cache-control', 'private, no-store')
      .header(
        'content-disposition',
        `attachment; filename*=UTF-8''${encodeURIComponent(receipt.fileName)}`,
      )
      .send(receipt.file);
  });

  app.post(
    '/api/operator/orders/:id/requisites',
    write('requisites'),
    orderAction(v.union([CardRequisitesSchema, BankRequisitesSchema]), giveRequisites),
  );
  app.post(
    '/api/operator/orders/:id/office-instructions',
    write('officeInstructions'),
    orderAction(OfficeInstructionsSchema, giveOfficeInstructions),
  );
  app.post(
    '/api/operator/orders/:id/confirm-payment',
    write('confirmPayment'),
    orderAction(OperatorActionSchema, confirmPaymentByOperator),
  );
  app.post(
    '/api/operator/orders/:id/confirm-tx',
    write('confirmTx'),
    orderAction(ConfirmTxSchema, confirmIncomingTx),
  );
  app.post(
    '/api/operator/orders/:id/attach-deposit',
    write('attachDeposit'),
    orderAction(AttachDepositSchema, attachIncomingDeposit),
  );

  app.get(OPERATOR_PATHS.incoming, async (request, reply): Promise<OperatorIncomingResponse> => {
    noStore(reply);
    const page = parseWith(IncomingQuerySchema, request.query);
    return unmatchedDeposits(app.db, request.consoleScope, page);
  });
  // No body completes an order that needs no outgoing hash (an office buy, a sell).
  app.post(
    '/api/operator/orders/:id/complete',
    write('complete'),
    orderAction(v.nullish(CompleteSchema, {}), completeOrder),
  );
  app.post(
    '/api/operator/orders/:id/reject',
    write('reject'),
    orderAction(RejectSchema, rejectOrder),
  );

  app.get('/api/operator/rates', async (_request, reply) => {
    noStore(reply);
    return readRates(app);
  });

  app.put('/api/operator/rates', write('rates'), async (request) =>
    setBaseRate(app, request.caller.telegramId, parseWith(SetRateSchema, request.body)),
  );

  app.put('/api/operator/spreads', write('spreads'), async (request) =>
    setSpread(app, request.caller.telegramId, parseWith(SetSpreadSchema, request.body)),
  );

  done();
};
