/** The customer's order calls (spec section 7). */
import type { FastifyInstance } from 'fastify';
import { API_PATHS, type ActiveOrdersResponse } from '../../shared/api';
import { ACTIVE_STATUSES } from '../../shared/order-status';
import type { AppContext } from '../app';
import { toOrderSummary } from '../orders/order-view';

export function orderRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(API_PATHS.activeOrders, async (request, reply): Promise<ActiveOrdersResponse> => {
    const customer = await ctx.auth.customer(request);
    const rows = await ctx.db
      .selectFrom('orders')
      .selectAll()
      .where('user_id', '=', customer.telegramId)
      .where('status', 'in', ACTIVE_STATUSES)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    void reply.headers({ 'cache-control': 'no-store' });
    return { orders: rows.map(toOrderSummary) };
  });
}
