/**
 * `/api/operator/*`: allowed only to Telegram users listed in OPERATOR_IDS (403 for anyone else).
 * Thin routes over src/server/operator.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import type { OrderActionResponse } from '../../shared/api';
import {
  BankRequisitesSchema,
  CardRequisitesSchema,
  CompleteSchema,
  OfficeInstructionsSchema,
  OperatorListQuerySchema,
  RejectSchema,
  SetRateSchema,
  SetSpreadSchema,
} from '../../shared/schemas/operator';
import type { AppContext } from '../app';
import { AppError } from '../errors';
import {
  completeOrder,
  confirmIncomingTx,
  confirmPaymentByOperator,
  giveOfficeInstructions,
  giveRequisites,
  listOrders,
  orderForOperator,
  readRates,
  receiptFile,
  rejectOrder,
  setBaseRate,
  setSpread,
  type OperatorDeps,
} from '../operator/operator-orders';
import type { TransitionResult } from '../orders/transition';
import { orderIdParam, parseWith, receiptIdParam } from '../validation';

const answer = (result: TransitionResult): OrderActionResponse => ({
  success: true,
  status: result.order.status,
});

export function operatorRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps: OperatorDeps = { db: ctx.db, now: ctx.now };
  const operator = async (request: Parameters<typeof ctx.auth.operator>[0]) =>
    (await ctx.auth.operator(request)).telegramId;

  app.get('/api/operator/orders', async (request, reply) => {
    await operator(request);
    void reply.header('cache-control', 'no-store');
    return listOrders(ctx.db, parseWith(OperatorListQuerySchema, request.query));
  });

  app.get('/api/operator/orders/:id', async (request, reply) => {
    await operator(request);
    void reply.header('cache-control', 'no-store');
    const { order, ...rest } = await orderForOperator(ctx.db, orderIdParam(request.params));
    return {
      ...rest,
      order: {
        id: order.id,
        status: order.status,
        type: order.type,
        paymentMethod: order.payment_method,
        needsAttention: order.needs_attention === 1,
        payoutCard: order.payout_card === null ? null : (JSON.parse(order.payout_card) as unknown),
        walletAddress: order.wallet_address,
        txHash: order.tx_hash,
        cityId: order.city_id,
      },
    };
  });

  app.get('/api/operator/orders/:id/receipts/:receiptId', async (request, reply) => {
    await operator(request);
    const receipt = await receiptFile(
      ctx.db,
      orderIdParam(request.params),
      receiptIdParam(request.params),
    );
    const file = path.join(ctx.config.receiptsDir, receipt.storage_key);
    if (!fs.existsSync(file)) throw new AppError('NOT_FOUND');
    return reply
      .header('content-type', receipt.mime_type)
      .header('cache-control', 'private, no-store')
      .header(
        'content-disposition',
        `attachment; filename*=UTF-8''${encodeURIComponent(receipt.file_name)}`,
      )
      .send(fs.createReadStream(file));
  });

  app.post('/api/operator/orders/:id/requisites', async (request) => {
    const operatorId = await operator(request);
    const body = parseWith(v.union([CardRequisitesSchema, BankRequisitesSchema]), request.body);
    return answer(await giveRequisites(deps, operatorId, orderIdParam(request.params), body));
  });

  app.post('/api/operator/orders/:id/office-instructions', async (request) => {
    const operatorId = await operator(request);
    const body = parseWith(OfficeInstructionsSchema, request.body);
    return answer(
      await giveOfficeInstructions(deps, operatorId, orderIdParam(request.params), body),
    );
  });

  app.post('/api/operator/orders/:id/confirm-payment', async (request) => {
    const operatorId = await operator(request);
    return answer(await confirmPaymentByOperator(deps, operatorId, orderIdParam(request.params)));
  });

  app.post('/api/operator/orders/:id/confirm-tx', async (request) => {
    const operatorId = await operator(request);
    return answer(await confirmIncomingTx(deps, operatorId, orderIdParam(request.params)));
  });

  app.post('/api/operator/orders/:id/complete', async (request) => {
    const operatorId = await operator(request);
    const body = parseWith(CompleteSchema, request.body ?? {});
    return answer(await completeOrder(deps, operatorId, orderIdParam(request.params), body));
  });

  app.post('/api/operator/orders/:id/reject', async (request) => {
    const operatorId = await operator(request);
    const body = parseWith(RejectSchema, request.body);
    return answer(await rejectOrder(deps, operatorId, orderIdParam(request.params), body.reason));
  });

  app.get('/api/operator/rates', async (request, reply) => {
    await operator(request);
    void reply.header('cache-control', 'no-store');
    return readRates(ctx.db);
  });

  app.put('/api/operator/rates', async (request) => {
    const operatorId = await operator(request);
    await setBaseRate(deps, operatorId, parseWith(SetRateSchema, request.body));
    return readRates(ctx.db);
  });

  app.put('/api/operator/spreads', async (request) => {
    const operatorId = await operator(request);
    await setSpread(deps, operatorId, parseWith(SetSpreadSchema, request.body));
    return readRates(ctx.db);
  });
}
