/** The operator console's calls (src/shared/operator-api.ts), typed. */
import type { OrderActionResponse } from '../../../shared/api';
import {
  INCOMING_PAGE,
  OPERATOR_PATHS,
  type OperatorAppealResponse,
  type OperatorIncomingResponse,
  type OperatorOrderResponse,
  type OperatorOrdersResponse,
  type OperatorQueueResponse,
  type OperatorRatesResponse,
} from '../../../shared/operator-api';
import { apiRequest, send } from '../../api/client';

export function fetchQueue(signal?: AbortSignal): Promise<OperatorQueueResponse> {
  return apiRequest<OperatorQueueResponse>(OPERATOR_PATHS.queue, signal ? { signal } : {});
}

export function searchOrders(
  query: Readonly<Record<string, string>>,
  signal?: AbortSignal,
): Promise<OperatorOrdersResponse> {
  const params = new URLSearchParams(query).toString();
  return apiRequest<OperatorOrdersResponse>(
    params === '' ? OPERATOR_PATHS.orders : `${OPERATOR_PATHS.orders}?${params}`,
    signal ? { signal } : {},
  );
}

export function fetchOperatorOrder(
  id: string,
  signal?: AbortSignal,
): Promise<OperatorOrderResponse> {
  return apiRequest<OperatorOrderResponse>(OPERATOR_PATHS.order(id), signal ? { signal } : {});
}

/** The order's appeal as operators read it, and whether the caller decides it. */
export function fetchOperatorAppeal(
  id: string,
  signal?: AbortSignal,
): Promise<OperatorAppealResponse> {
  return apiRequest<OperatorAppealResponse>(OPERATOR_PATHS.appeal(id), signal ? { signal } : {});
}

/** A page of the deposits no order could take, newest first, from the `offset`-th on. */
export function fetchIncoming(
  offset: number,
  signal?: AbortSignal,
): Promise<OperatorIncomingResponse> {
  const query = new URLSearchParams({ limit: String(INCOMING_PAGE), offset: String(offset) });
  return apiRequest<OperatorIncomingResponse>(
    `${OPERATOR_PATHS.incoming}?${query.toString()}`,
    signal ? { signal } : {},
  );
}

/** A receipt's file as uploaded, as a Blob. */
export async function fetchReceiptFile(orderId: string, receiptId: string): Promise<Blob> {
  return (await send(OPERATOR_PATHS.receipt(orderId, receiptId), {}, '*/*')).blob();
}

/** The operator actions, each a POST of its body (with the status the operator saw). */
export type OperatorActionPath = Exclude<
  keyof typeof OPERATOR_PATHS,
  | 'queue'
  | 'orders'
  | 'order'
  | 'receipt'
  | 'rates'
  | 'spreads'
  | 'rateFix'
  | 'rateJump'
  | 'incoming'
  | 'chat'
  | 'chatAttachment'
  | 'appeal'
>;

export function operatorAction(
  action: OperatorActionPath,
  orderId: string,
  body: object,
): Promise<OrderActionResponse> {
  return apiRequest<OrderActionResponse>(OPERATOR_PATHS[action](orderId), {
    method: 'POST',
    body,
  });
}

export function fetchRates(signal?: AbortSignal): Promise<OperatorRatesResponse> {
  return apiRequest<OperatorRatesResponse>(OPERATOR_PATHS.rates, signal ? { signal } : {});
}

export function putRate(body: {
  readonly fiat: string;
  readonly crypto: string;
  readonly baseRate: number;
  readonly confirmLargeChange: boolean;
}): Promise<OperatorRatesResponse> {
  return apiRequest<OperatorRatesResponse>(OPERATOR_PATHS.rates, { method: 'PUT', body });
}

export function putFixedRate(body: {
  readonly fiat: string;
  readonly crypto: string;
  readonly baseRate: number | null;
  readonly hours?: number;
  readonly confirmLargeChange?: boolean;
}): Promise<OperatorRatesResponse> {
  return apiRequest<OperatorRatesResponse>(OPERATOR_PATHS.rateFix, { method: 'PUT', body });
}

export function confirmRateJump(body: {
  readonly fiat: string;
  readonly crypto: string;
}): Promise<OperatorRatesResponse> {
  return apiRequest<OperatorRatesResponse>(OPERATOR_PATHS.rateJump, { method: 'POST', body });
}

export function putSpread(body: {
  readonly paymentMethod: string;
  readonly operation: string;
  readonly spreadBp: number;
}): Promise<OperatorRatesResponse> {
  return apiRequest<OperatorRatesResponse>(OPERATOR_PATHS.spreads, { method: 'PUT', body });
}
