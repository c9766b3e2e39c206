/** Who may call the console on an order: an operator, and only on an order their console holds. */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../platform/context';
import { orderIdParam } from '../platform/http/validation';
import { orderRow } from './order-row';

/** Another demo visitor's order is answered as missing, before anything reads or changes it. */
async function checkInScope(
  ctx: ServerContext,
  orderId: string,
  scope: number | null,
): Promise<void> {
  if (scope === null) return;
  await orderRow(ctx.db, orderId, ['id'], scope);
}

/** Known before a body is read: the caller is an operator, and their console holds the order. */
export function consoleCalls(app: FastifyInstance): void {
  app.addHook('onRequest', app.operatorOnly);
  app.addHook('onRequest', async (request) => {
    const params = request.params as Record<string, unknown> | undefined;
    if (request.consoleScope === null || params?.['id'] === undefined) return;
    await checkInScope(app, orderIdParam(params), request.consoleScope);
  });
}
