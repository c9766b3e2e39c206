/**
 * Paths, requests and answers of the API calls (spec section 7), shared by the app's client and
 * the server's routes so that neither can drift from the other.
 */
import type { ErrorCode } from './errors';
import type { CryptoCurrency, NetworkId } from './networks';
import type { CancelReason, OrderStatus, OrderType, PaymentMethod } from './order-status';
import type { RejectReason } from './reject-reasons';

export const API_PATHS = {
  health: '/api/health',
  appConfig: '/api/app-config',
  demoSession: '/api/demo/session',
  rate: '/api/rates/calculate',
  createOrder: '/api/orders/create',
  activeOrders: '/api/orders/active',
  me: '/api/me',
  history: '/api/orders/history',
  cities: (currencyCode: string) => `/api/cities/${encodeURIComponent(currencyCode)}`,
  orderStatus: (id: string) => `/api/orders/${encodeURIComponent(id)}/status`,
  orderRequisites: (id: string) => `/api/orders/${encodeURIComponent(id)}/requisites`,
  cancel: (id: string) => `/api/orders/${encodeURIComponent(id)}/cancel`,
  paymentConfirm: (id: string) => `/api/orders/${encodeURIComponent(id)}/payment-confirm`,
  receipt: (id: string) => `/api/orders/${encodeURIComponent(id)}/receipt`,
  txHash: (id: string) => `/api/orders/${encodeURIComponent(id)}/tx-hash`,
  officeConfirm: (id: string) => `/api/orders/${encodeURIComponent(id)}/office-confirm`,
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

/** Every error answer: the message in the caller's language, the code, and per code its details. */
export interface ApiErrorBody extends ApiErrorDetails {
  readonly error: string;
  readonly code: ErrorCode;
}

/** The fields an error answer carries beside its message and code, each with the codes it comes with. */
export interface ApiErrorDetails {
  /** RATE_CHANGED: the server's current rate. */
  readonly rate?: number;
  /** INVALID_STATUS, TX_HASH_ALREADY_SUBMITTED: the order's current status. */
  readonly status?: OrderStatus;
  /** VALIDATION_FAILED: the payload's fields that were refused (`cardHolder`, `phone`…). */
  readonly fields?: readonly string[];
  /** RATE_LIMITED: seconds until the customer may try again. */
  readonly retryAfter?: number;
  /** AMOUNT_TOO_LOW, AMOUNT_TOO_HIGH: the bounds of the method, in whole units of `currency`. */
  readonly min?: number;
  /** AMOUNT_TOO_LOW, AMOUNT_TOO_HIGH: the upper bound; TOO_MANY_ACTIVE_ORDERS: the most allowed. */
  readonly max?: number;
  readonly currency?: string;
  /** TX_WRONG_TOKEN, TX_UNDERPAID, TX_AMOUNT_MISMATCH, TX_OVERPAID: the order's coin. */
  readonly coin?: CryptoCurrency;
  /** TX_UNDERPAID: what the transfer lacks, in whole coins as an exact decimal ("0.5"). */
  readonly shortfall?: string;
  /** TX_AMOUNT_MISMATCH, TX_OVERPAID: what the transfer sent, in whole coins as an exact decimal. */
  readonly sent?: string;
  /**
   * TX_AMOUNT_MISMATCH: the order's exact amount; TX_OVERPAID: the payout's amount (the buy's).
   * In whole coins as an exact decimal.
   */
  readonly expected?: string;
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
  /** Why a CANCELLED order was cancelled; null otherwise. */
  readonly cancelReason: CancelReason | null;
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

/**
 * A browser's demo identity (issue 13): the random id it keeps in local storage and sends to
 * `GET /api/demo/session?browser=`.
 */
export function isDemoBrowserId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9-]{16,64}$/.test(value);
}

/** The Telegram start parameter that opens an order: `order_<id>` (spec section 2, landing). */
export const ORDER_START_PARAM_PREFIX = 'order_';

/** The start parameter that opens an order in the operators' console: `console_<id>`. */
export const CONSOLE_START_PARAM_PREFIX = 'console_';

/** The start parameter that opens the console's queue (a flood's summary in the operators' chat). */
export const CONSOLE_QUEUE_START_PARAM = 'console';

function idFromStartParam(
  startParam: string | undefined | null,
  prefix: string,
): string | undefined {
  if (!startParam?.startsWith(prefix)) return undefined;
  const id = startParam.slice(prefix.length);
  return /^[A-Za-z0-9-]{1,64}$/.test(id) ? id : undefined;
}

/** The order id of a start parameter `order_<id>`, or undefined for any other parameter. */
export function orderIdFromStartParam(startParam: string | undefined | null): string | undefined {
  return idFromStartParam(startParam, ORDER_START_PARAM_PREFIX);
}

/** The order id of a start parameter `console_<id>`, or undefined for any other parameter. */
export function consoleOrderIdFromStartParam(
  startParam: string | undefined | null,
): string | undefined {
  return idFromStartParam(startParam, CONSOLE_START_PARAM_PREFIX);
}

/**
 * The link that opens the bot's mini-app with a start parameter (Telegram's main mini-app link):
 * `https://t.me/<bot>?startapp=<param>`.
 */
export function startAppLink(botUsername: string, startParam: string): string {
  return `https://t.me/${botUsername}?startapp=${encodeURIComponent(startParam)}`;
}

/** `GET /api/rates/calculate?amount&currency&operation&cryptoCurrency&paymentMethod`. */
export interface RateQuery {
  readonly amount: number;
  readonly currency: string;
  readonly operation: OrderType;
  readonly cryptoCurrency: CryptoCurrency;
  readonly paymentMethod: PaymentMethod;
}

export interface RateResponse {
  /** Fiat per coin, 2 decimals (spec section 9). */
  readonly rate: number;
}

/** P2P card requisites an operator gives for a P2P buy (spec section 3). */
export interface CardRequisites {
  readonly bankName: string;
  readonly cardNumber: string;
  readonly cardHolder: string;
  readonly phone?: string;
  readonly comment?: string;
}

/** The deposit address of a sell (and, for an office buy, the customer's receiving wallet). */
export interface WalletRequisites {
  readonly walletAddress: string;
}

/** Bank transfer requisites; beneficiary fields fall back to recipient name and account. */
export interface BankRequisites {
  readonly recipientName: string;
  readonly accountNumber: string;
  readonly bankName: string;
  readonly bik: string;
  readonly correspondentAccount: string;
  readonly inn: string;
  readonly bankAddress?: string;
  readonly beneficiaryName: string;
  readonly beneficiaryAccount: string;
}

export type Requisites = CardRequisites | WalletRequisites | BankRequisites;

/** `GET /api/orders/{id}/requisites`: the bank requisites, or that none are configured yet. */
export type BankRequisitesResponse =
  | { readonly requisitesNotConfigured: false; readonly requisites: BankRequisites }
  | { readonly requisitesNotConfigured: true; readonly requisites: null };

export interface ReceiptInfo {
  readonly id: string;
  readonly fileName: string;
  readonly uploadedAt: string;
}

/** An office and its city, in both languages (spec section 3, "Office reservation"). */
export interface OfficeInfo {
  /** Stable kebab-case slug, unique among all offices, e.g. `moscow-city-tower`. */
  readonly id: string;
  readonly addressRu: string;
  readonly addressEn: string;
  readonly workingHoursRu: string;
  readonly workingHoursEn: string;
  /** International format, e.g. `+7 495 662-41-80`. */
  readonly phone: string;
  /** An https map search for the office's address. */
  readonly mapLink: string;
}

export interface OfficeReservation {
  readonly orderId: string;
  readonly reservationCode: string;
  readonly reservedUntil: string;
  readonly office: OfficeInfo;
  readonly city: { readonly nameRu: string; readonly nameEn: string };
}

/** `GET /api/orders/{id}/status`: every order field of spec section 3, and the server's time. */
export interface OrderDetails extends OrderSummary {
  readonly expiresAt: string | null;
  readonly requisitesReadyAt: string | null;
  readonly reservedUntil: string | null;
  readonly cityId: string | null;
  /** The operator's free text of a rejection (with `rejectReasonCode`, or alone). */
  readonly rejectReason: string | null;
  /** A REJECTED order's catalogue reason, shown in the customer's language. */
  readonly rejectReasonCode: RejectReason | null;
  readonly txHash: string | null;
  readonly outgoingTxHash: string | null;
  readonly officeInstructions: string | null;
  /** The customer's receiving wallet of a buy. */
  readonly walletAddress: string | null;
  readonly receipts: readonly ReceiptInfo[];
  readonly requisites: Requisites | null;
  readonly reservation: OfficeReservation | null;
  /** A t.me link that opens the app on this order, when the bot's username is configured. */
  readonly deepLink: string | null;
  /**
   * What the chain says of a sell's deposit, or of a completed buy's payout (its confirmations
   * until final, on the done screen), issue 23; null on a network checked by hand (no node
   * configured), before a hash was given, and for a payout completed without one.
   */
  readonly chainCheck: ChainCheckView | null;
  /** The server's clock, so countdowns stay right on a phone whose clock is off. */
  readonly serverTime: string;
}

/**
 * Where the chain check of a sell's deposit stands, as the customer reads it: `looking` (not on
 * the chain yet), `seen` (counting confirmations), `confirmed`, `reorged` (it was seen, then its
 * block was replaced: looked for again), `not_found` (not found in time: an operator checks),
 * `flagged` (found, but an operator must look at it).
 */
export const CHAIN_CHECK_STATES = [
  'looking',
  'seen',
  'confirmed',
  'reorged',
  'not_found',
  'flagged',
] as const;
export type ChainCheckState = (typeof CHAIN_CHECK_STATES)[number];

export interface ChainCheckView {
  readonly state: ChainCheckState;
  /** Blocks on top of the transaction's, its own included; 0 until it is seen. */
  readonly confirmations: number;
  /** The confirmations the network waits for (Tron: until its block is solidified). */
  readonly required: number;
}

/** `POST /api/orders/create` answer. */
export interface CreateOrderResponse {
  readonly success: true;
  readonly orderId: string;
}

/** `GET /api/orders/history?status&limit&offset`. */
export const HISTORY_FILTERS = ['all', 'active', 'completed'] as const;
export type HistoryFilter = (typeof HISTORY_FILTERS)[number];

export interface HistoryResponse {
  readonly orders: readonly OrderSummary[];
  readonly hasMore: boolean;
}

/** `GET /api/cities/{currencyCode}`. */
export interface City {
  readonly id: string;
  readonly nameRu: string;
  readonly nameEn: string;
  readonly countryCode: string;
}

export interface CitiesResponse {
  readonly data: readonly City[];
}

/** The answer of the customer's order actions (cancel, payment-confirm, receipt, tx-hash, office-confirm). */
export interface OrderActionResponse {
  readonly success: true;
  readonly status: OrderStatus;
}

/** `POST /api/orders/{id}/receipt` (spec section 3, "Receipt upload payload"). */
export interface ReceiptUpload {
  readonly fileName: string;
  /** A base64 data URL. */
  readonly fileData: string;
  readonly fileSize: number;
}
