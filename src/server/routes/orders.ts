/** The customer's calls (spec section 7): thin routes over the order services. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  API_PATHS,
  type ActiveOrdersResponse,
  type BankRequisitesResponse,
  type CitiesResponse,
  type CreateOrderResponse,
  type HistoryResponse,
  type OrderActionResponse,
  type OrderDetails,
  type RateResponse,
} from '../../shared/api';
import { isListedCurrency } from '../../shared/currencies';
import { CreateOrderSchema } from '../../shared/schemas/create-order';
import { ReceiptUploadSchema, TxHashSchema } from '../../shared/schemas/order-actions';
import { HistoryQuerySchema, RateQuerySchema } from '../../shared/schemas/queries';
import type { AppContext } from '../app';
import { AppError } from '../errors';
import { createOrder } from '../orders/create';
import {
  activeOrders,
  bankRequisites,
  cancelOrder,
  confirmOfficeReceipt,
  confirmPayment,
  orderHistory,
  orderStatus,
  submitTxHash,
  uploadReceipt,
  type CustomerOrdersDeps,
} from '../orders/customer-orders';
import type { TransitionResult } from '../orders/transition';
import { quote } from '../rates/rates';
import { orderIdParam, parseWith } from '../validation';

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

const actionAnswer = (result: TransitionResult): OrderActionResponse => ({
  success: true,
  status: result.order.status,
});

export function orderRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps: CustomerOrdersDeps = {
    db: ctx.db,
    now: ctx.now,
    receiptsDir: ctx.config.receiptsDir,
    botUsername: ctx.config.botUsername,
  };

  app.get('/api/rates/calculate', async (request, reply): Promise<RateResponse> => {
    await ctx.auth.customer(request);
    const query = parseWith(RateQuerySchema, request.query);
    const rateUnits = await quote(ctx.db, {
      fiat: query.currency,
      crypto: query.cryptoCurrency,
      method: query.paymentMethod,
      operation: query.operation,
    });
    noStore(reply);
    return { rate: rateUnits / 1_000_000 };
  });

  app.get<{ Params: { currencyCode: string } }>(
    '/api/cities/:currencyCode',
    async (request, reply): Promise<CitiesResponse> => {
      const code = request.params.currencyCode.toUpperCase();
      if (!isListedCurrency(code)) throw new AppError('NOT_FOUND');
      const rows = await ctx.db.selectFrom('cities').selectAll().orderBy('position').execute();
      void reply.header('cache-control', 'public, max-age=300');
      return {
        data: rows
          .filter((row) => (JSON.parse(row.currencies) as string[]).includes(code))
          .map((row) => ({
            id: row.id,
            nameRu: row.name_ru,
            nameEn: row.name_en,
            countryCode: row.country_code,
          })),
      };
    },
  );

  app.post(API_PATHS.createOrder, async (request, reply): Promise<CreateOrderResponse> => {
    const customer = await ctx.auth.customer(request);
    await ctx.limiter.hit(customer.telegramId, 'create');
    const payload = parseWith(CreateOrderSchema, request.body);
    const orderId = await createOrder(ctx.db, ctx.config, customer.telegramId, payload, ctx.now());
    request.log.info({ orderId, customer: customer.telegramId }, 'order created');
    void reply.status(201);
    return { success: true, orderId };
  });

  app.get(API_PATHS.activeOrders, async (request, reply): Promise<ActiveOrdersResponse> => {
    const customer = await ctx.auth.customer(request);
    noStore(reply);
    return { orders: await activeOrders(ctx.db, customer.telegramId) };
  });

  app.get(API_PATHS.history, async (request, reply): Promise<HistoryResponse> => {
    const customer = await ctx.auth.customer(request);
    const query = parseWith(HistoryQuerySchema, request.query);
    noStore(reply);
    return orderHistory(ctx.db, customer.telegramId, {
      filter: query.status,
      limit: query.limit,
      offset: query.offset,
    });
  });

  app.get('/api/orders/:id/status', async (request, reply): Promise<OrderDetails> => {
    const customer = await ctx.auth.customer(request);
    noStore(reply);
    return orderStatus(deps, orderIdParam(request.params), customer.telegramId);
  });

  app.get('/api/orders/:id/requisites', async (request, reply): Promise<BankRequisitesResponse> => {
    const customer = await ctx.auth.customer(request);
    noStore(reply);
    return bankRequisites(deps, orderIdParam(request.params), customer.telegramId);
  });

  app.post('/api/orders/:id/cancel', async (request): Promise<OrderActionResponse> => {
    const customer = await ctx.auth.customer(request);
    await ctx.limiter.hit(customer.telegramId, 'action');
    return actionAnswer(await cancelOrder(deps, orderIdParam(request.params), customer.telegramId));
  });

  app.post('/api/orders/:id/payment-confirm', async (request): Promise<OrderActionResponse> => {
    const customer = await ctx.auth.customer(request);
    await ctx.limiter.hit(customer.telegramId, 'action');
    const id = orderIdParam(request.params);
    return actionAnswer(await confirmPayment(deps, id, customer.telegramId));
  });

  app.post('/api/orders/:id/receipt', async (request): Promise<OrderActionResponse> => {
    const customer = await ctx.auth.customer(request);
    await ctx.limiter.hit(customer.telegramId, 'receipt');
    const id = orderIdParam(request.params);
    const body = parseWith(ReceiptUploadSchema, request.body);
    return actionAnswer(await uploadReceipt(deps, id, customer.telegramId, body));
  });

  app.post('/api/orders/:id/tx-hash', async (request): Promise<OrderActionResponse> => {
    const customer = await ctx.auth.customer(request);
    await ctx.limiter.hit(customer.telegramId, 'action');
    const id = orderIdParam(request.params);
    const body = parseWith(TxHashSchema, request.body);
    return actionAnswer(await submitTxHash(deps, id, customer.telegramId, body));
  });

  app.post('/api/orders/:id/office-confirm', async (request): Promise<OrderActionResponse> => {
    const customer = await ctx.auth.customer(request);
    await ctx.limiter.hit(customer.telegramId, 'action');
    const id = orderIdParam(request.params);
    return actionAnswer(await confirmOfficeReceipt(deps, id, customer.telegramId));
  });
}
