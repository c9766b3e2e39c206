/**
 * The status poll's answer (`GET /api/orders/{id}/status`), as Fastify's route
 * (orders/orders-routes.ts) and the poll lane (platform/http/poll-lane.ts) both send it: the order's details,
 * never cached (as every answer: request-wide.ts), with an `ETag`; or 304 and no body when the app already holds that version.
 */
import type { ServerContext } from '../../platform/context';
import { orderStatus } from '../customer-orders';
import type { StatusAnswers } from './status-answers';
import { holdsVersion } from '../../platform/http/cache-control';
import type { PollAnswer } from '../../platform/http/poll-lane';
import { API_PATHS } from '../../../shared/api';

/** The status poll's route, as Fastify registers it and the metrics label it. */
export const STATUS_ROUTE = API_PATHS.orderStatus.pattern;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The answer to a customer polling an order by its id, as the route's schema gives it
 * (ORDER_NOT_FOUND when it is not theirs), given the `If-None-Match` they sent.
 */
export async function statusAnswer(
  ctx: ServerContext & { readonly statusAnswers: StatusAnswers },
  customerId: number,
  orderId: string,
  ifNoneMatch: string | undefined,
): Promise<PollAnswer> {
  const { etag, json } = await orderStatus(ctx, ctx.statusAnswers, customerId, orderId, (version) =>
    holdsVersion(ifNoneMatch, version),
  );
  const headers = ['etag', etag];
  return json === null
    ? { statusCode: 304, headers, body: null }
    : { statusCode: 200, headers: [...headers, 'content-type', JSON_TYPE], body: json };
}
