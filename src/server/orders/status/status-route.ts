/**
 * The status poll's answer, as both Fastify's route and the poll lane send it: never cached, with
 * an `ETag`, or 304 when the app holds that version.
 */
import type { ServerContext } from '../../platform/context';
import { orderStatus } from '../customer-orders';
import type { StatusAnswers } from './status-answers';
import { holdsVersion } from '../../platform/http/cache-control';
import type { PollAnswer } from '../../platform/http/poll-lane';
import { API_PATHS } from '../../../shared/api';

export const STATUS_ROUTE = API_PATHS.orderStatus.pattern;

const JSON_TYPE = 'application/json; charset=utf-8';

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
