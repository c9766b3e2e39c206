/** Who may call the console on an order: an operator, and only on an order their console holds. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../platform/context';
import { orderIdParam } from '../platform/http/validation';
import { orderRow } from './order-row';

/**
 * ORDER_NOT_FOUND for an order outside the caller's console (`consoleScope`): another demo
 * visitor's order is answered as a missing one, before anything reads or changes it.
 */
async function checkInScope(
  ctx: ServerContext,
  orderId: string,
  scope: number | null,
): Promise<void> {
  if (scope === null) return;
  await orderRow(ctx.db, orderId, ['id'], scope);
}

/**
 * The console's calls of a plugin: known before a body is read (platform/http/json-body.ts), who
 * calls (an operator), and for every route of one order, whether their console holds it
 * (consoleScope: another demo visitor's order is answered as a missing one). The console's own
 * routes, its chat's and its appeals' stand behind it.
 */
export function consoleCalls(app: FastifyInstance): void {
  app.addHook('onRequest', app.operatorOnly);
  app.addHook('onRequest', async (request) => {
    const params = request.params as Record<string, unknown> | undefined;
    if (request.consoleScope === null || params?.['id'] === undefined) return;
    await checkInScope(app, orderIdParam(params), request.consoleScope);
  });
}
