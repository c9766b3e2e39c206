/** The customer's order calls, typed from src/shared/api.ts. */
import {
  API_PATHS,
  type ActiveOrdersResponse,
  type AppealView,
  type BankRequisitesResponse,
  type CitiesResponse,
  type CreateOrderResponse,
  type HistoryFilter,
  type HistoryResponse,
  type OrderActionResponse,
  type OrderDetails,
  type RateQuery,
  type RateResponse,
  type ReceiptUpload,
} from '../../shared/api';
import type { MeResponse } from '../../shared/operator-api';
import type { OpenAppealSchema } from '../../shared/schemas/appeals';
import type { CreateOrderInput } from '../../shared/schemas/create-order';
import type * as v from 'valibot';
import { apiRequest, versionedPoller } from './client';

export function fetchRate(query: RateQuery, signal?: AbortSignal): Promise<RateResponse> {
  const params = new URLSearchParams({
    amount: String(query.amount),
    currency: query.currency,
    operation: query.operation,
    cryptoCurrency: query.cryptoCurrency,
    paymentMethod: query.paymentMethod,
  });
  return apiRequest<RateResponse>(
    `${API_PATHS.rate}?${params.toString()}`,
    signal ? { signal } : {},
  );
}

/** Who the caller is, and whether they are an operator (the console's entry shows then). */
export function fetchMe(signal?: AbortSignal): Promise<MeResponse> {
  return apiRequest<MeResponse>(API_PATHS.me, signal ? { signal } : {});
}

/** The customer's orders still in progress (newest first). */
export function fetchActiveOrders(
  options: { readonly timeoutMs?: number } = {},
): Promise<ActiveOrdersResponse> {
  return apiRequest<ActiveOrdersResponse>(API_PATHS.activeOrders, options);
}

export function createOrder(payload: CreateOrderInput): Promise<CreateOrderResponse> {
  return apiRequest<CreateOrderResponse>(API_PATHS.createOrder, { method: 'POST', body: payload });
}

export function fetchOrder(id: string, signal?: AbortSignal): Promise<OrderDetails> {
  return apiRequest<OrderDetails>(API_PATHS.orderStatus(id), signal ? { signal } : {});
}

/**
 * The status call as a screen that polls it makes it (`versionedPoller`): on `304 Not Modified`
 * it gives back the very answer it kept, so `toAnswer` runs only when a 200 arrives (the clock
 * offset of `serverTime` is that of the 200, not of a later 304).
 */
export function orderStatusPoller<T>(
  toAnswer: (order: OrderDetails) => T,
): (id: string, signal?: AbortSignal) => Promise<T> {
  return versionedPoller(API_PATHS.orderStatus, (body) => toAnswer(body as OrderDetails));
}

export function fetchBankRequisites(
  id: string,
  signal?: AbortSignal,
): Promise<BankRequisitesResponse> {
  return apiRequest<BankRequisitesResponse>(
    API_PATHS.orderRequisites(id),
    signal ? { signal } : {},
  );
}

export function fetchCities(currency: string, signal?: AbortSignal): Promise<CitiesResponse> {
  return apiRequest<CitiesResponse>(API_PATHS.cities(currency), signal ? { signal } : {});
}

export function fetchHistory(
  query: { readonly filter: HistoryFilter; readonly limit: number; readonly offset: number },
  signal?: AbortSignal,
): Promise<HistoryResponse> {
  const params = new URLSearchParams({
    status: query.filter,
    limit: String(query.limit),
    offset: String(query.offset),
  });
  return apiRequest<HistoryResponse>(
    `${API_PATHS.history}?${params.toString()}`,
    signal ? { signal } : {},
  );
}

const post = (path: string, body: unknown = {}) =>
  apiRequest<OrderActionResponse>(path, { method: 'POST', body });

export const cancelOrder = (id: string) => post(API_PATHS.cancel(id));
export const confirmPayment = (id: string) => post(API_PATHS.paymentConfirm(id));
export const uploadReceipt = (id: string, upload: ReceiptUpload) =>
  post(API_PATHS.receipt(id), upload);
export const submitTxHash = (id: string, txHash: string, network: string) =>
  post(API_PATHS.txHash(id), { txHash, network });
export const confirmOfficeReceipt = (id: string) => post(API_PATHS.officeConfirm(id));

/** Opens the order's appeal: a reason, the customer's words, and chat messages as evidence. */
export const openAppeal = (id: string, body: v.InferInput<typeof OpenAppealSchema>) =>
  apiRequest<AppealView>(API_PATHS.appeal(id), { method: 'POST', body });
