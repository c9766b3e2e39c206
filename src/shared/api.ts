/**
 * Paths, requests and answers of the API calls (spec section 7), shared by the app's client and
 * the server's routes so that neither can drift from the other.
 */
import type { ErrorCode } from './errors';
import type { CryptoCurrency, NetworkId } from './networks';
import type { OrderStatus, OrderType, PaymentMethod } from './order-status';

export const API_PATHS = {
  health: '/api/health',
  activeOrders: '/api/orders/active',
  appConfig: '/api/app-config',
  demoSession: '/api/demo/session',
} as const;

/** Languages the app and the server speak; ru is the default (spec section 1). */
export const LANGUAGES = ['ru', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'ru';

export function isLanguage(value: unknown): value is Language {
  return value === 'ru' || value === 'en';
}

/** The HTTP header the app sends its Telegram init data in: `Authorization: tma <raw>`. */
export const AUTH_SCHEME = 'tma';

/** Every error answer. */
export interface ApiErrorBody {
  readonly error: string;
  readonly code: ErrorCode;
  /** Present with RATE_CHANGED: the server's current rate. */
  readonly rate?: number;
  /** Present with INVALID_STATUS: the order's current status. */
  readonly status?: OrderStatus;
}

/** `GET /api/health`. */
export interface HealthResponse {
  readonly ok: true;
  readonly time: string;
}

/** One order as lists show it (the history card of spec section 2). */
export interface OrderSummary {
  readonly id: string;
  readonly type: OrderType;
  readonly status: OrderStatus;
  readonly amount: number;
  readonly cryptoCurrency: CryptoCurrency;
  readonly network: NetworkId;
  readonly currency: string;
  readonly totalRub: number;
  readonly rate: number;
  readonly paymentMethod: PaymentMethod;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** `GET /api/orders/active`. */
export interface ActiveOrdersResponse {
  readonly orders: readonly OrderSummary[];
}

/** `GET /api/app-config`: what the app needs before it starts; no identity required. */
export interface AppConfigResponse {
  /** True when the server runs without a bot token and signs a demo customer's init data. */
  readonly demo: boolean;
  /** The support chat, a https://t.me/… link opened through Telegram. */
  readonly supportUrl: string;
}

/**
 * `GET /api/demo/session?startParam=…`: in demo mode only, init data the server signed for the
 * demo customer, so the app runs in a plain browser. 404 DEMO_DISABLED otherwise.
 */
export interface DemoSessionResponse {
  readonly initData: string;
}

/** The Telegram start parameter that opens an order: `order_<id>` (spec section 2, landing). */
export const ORDER_START_PARAM_PREFIX = 'order_';

/** The order id of a start parameter `order_<id>`, or undefined for any other parameter. */
export function orderIdFromStartParam(startParam: string | undefined | null): string | undefined {
  if (!startParam?.startsWith(ORDER_START_PARAM_PREFIX)) return undefined;
  const id = startParam.slice(ORDER_START_PARAM_PREFIX.length);
  return /^[A-Za-z0-9-]{1,64}$/.test(id) ? id : undefined;
}
