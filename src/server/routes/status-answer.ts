/**
 * The status poll's answer (spec section 7, `GET /api/orders/{id}/status`), as Fastify's route
 * (routes/customer.ts) and the status lane (status-lane.ts) both send it: the order's details,
 * never cached, with an `ETag`; or 304 and no body when the app already holds that version.
 */
import type { ServerContext } from '../context';
import { orderStatus } from '../orders/customer-orders';
import type { StatusAnswers } from '../orders/status-answers';
import { orderIdParam } from '../validation';
import { NO_STORE, holdsVersion } from './cache-control';

/** The status poll's route, as Fastify registers it and the metrics label it. */
export const STATUS_ROUTE = '/api/orders/:id/status';

export interface StatusAnswer {
  readonly statusCode: 200 | 304;
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON of an OrderDetails; null with 304. */
  readonly body: string | null;
}

/**
 * The answer to a customer polling an order by its `:id` (ORDER_NOT_FOUND when it is not theirs),
 * given the `If-None-Match` they sent.
 */
export async function statusAnswer(
  ctx: ServerContext & { readonly statusAnswers: StatusAnswers },
  customerId: number,
  params: unknown,
  ifNoneMatch: string | undefined,
): Promise<StatusAnswer> {
  const { etag, json } = await orderStatus(
    ctx,
    ctx.statusAnswers,
    customerId,
    orderIdParam(params),
    (version) => holdsVersion(ifNoneMatch, version),
  );
  return json === null
    ? { statusCode: 304, headers: { 'cache-control': NO_STORE, etag }, body: null }
    : {
        statusCode: 200,
        headers: {
          'cache-control': NO_STORE,
          etag,
          'content-type': 'application/json; charset=utf-8',
        },
        body: json,
      };
}
