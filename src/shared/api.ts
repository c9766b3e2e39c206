/**
 * Paths, requests and answers of the API calls, shared by the app's client and
 * the server's routes so that neither can drift from the other. Each answer's type is derived
 * from its schema in ./schemas/responses.ts, where its fields are described.
 */
import type { CryptoCurrency } from './networks';
import type { OrderType, PaymentMethod } from './order-status';
import type {
  ActiveOrdersResponseSchema,
  ApiErrorBodySchema,
  AppealViewSchema,
  ApiErrorDetailsSchema,
  AppConfigResponseSchema,
  BankRequisitesResponseSchema,
  BankRequisitesViewSchema,
  CardRequisitesViewSchema,
  CHAIN_CHECK_STATES,
  CHAT_AUTHORS,
  ChatAttachmentSchema,
  ChatMessageSchema,
  ChatResponseSchema,
  ChainCheckViewSchema,
  CitiesResponseSchema,
  CitySchema,
  CreateOrderResponseSchema,
  DemoSessionResponseSchema,
  HealthResponseSchema,
  HistoryResponseSchema,
  OfficeInfoSchema,
  OfficeReservationSchema,
  OrderActionResponseSchema,
  OrderDetailsSchema,
  OrderSummarySchema,
  RateResponseSchema,
  ReceiptInfoSchema,
  RequisitesViewSchema,
  ResponseOf,
  WalletRequisitesViewSchema,
} from './schemas/responses';
import { routePath } from './route-path';

export const API_PATHS = {
  health: '/api/health',
  /** The API's own OpenAPI document, made from the routes' schemas. */
  openApi: '/api/openapi.json',
  /** Prometheus metrics, for the operators' scraper (METRICS_TOKEN). */
  metrics: '/api/metrics',
  appConfig: '/api/app-config',
  demoSession: '/api/demo/session',
  rate: '/api/rates/calculate',
  createOrder: '/api/orders/create',
  activeOrders: '/api/orders/active',
  me: '/api/me',
  history: '/api/orders/history',
  // The caller's saved wallets and cards; one of them is savedItem (kind: wallets or cards).
  savedDetails: '/api/saved-details',
  savedWallets: '/api/saved-details/wallets',
  savedCards: '/api/saved-details/cards',
  // Saves the card one of the caller's sells pays out to, read on the server from the order.
  savedCardFromOrder: '/api/saved-details/cards/from-order',
  savedItem: routePath('/api/saved-details/:kind/:id'),
  cities: routePath('/api/cities/:currencyCode'),
  orderStatus: routePath('/api/orders/:id/status'),
  orderRequisites: routePath('/api/orders/:id/requisites'),
  cancel: routePath('/api/orders/:id/cancel'),
  paymentConfirm: routePath('/api/orders/:id/payment-confirm'),
  receipt: routePath('/api/orders/:id/receipt'),
  txHash: routePath('/api/orders/:id/tx-hash'),
  officeConfirm: routePath('/api/orders/:id/office-confirm'),
  /** The order's chat: GET reads it (ETag, 304), POST writes a message. */
  chat: routePath('/api/orders/:id/chat'),
  chatAttachment: routePath('/api/orders/:id/chat/:messageId/attachment'),
  /** Opens the order's appeal (shared/appeals.ts). */
  appeal: routePath('/api/orders/:id/appeal'),
} as const;

/** Languages the app and the server speak; ru is the default. */
export const LANGUAGES = ['ru', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'ru';

export function isLanguage(value: unknown): value is Language {
  return value === 'ru' || value === 'en';
}

/** The HTTP header the app sends its Telegram init data in: `Authorization: tma <raw>`. */
export const AUTH_SCHEME = 'tma';

/** Every error answer: the message in the caller's language, the code, and per code its details. */
export type ApiErrorBody = ResponseOf<typeof ApiErrorBodySchema>;

/** The fields an error answer carries beside its message and code, each with the codes it comes with. */
export type ApiErrorDetails = ResponseOf<typeof ApiErrorDetailsSchema>;

/** `GET /api/health`. */
export type HealthResponse = ResponseOf<typeof HealthResponseSchema>;

/** One order as lists show it (the history card). */
export type OrderSummary = ResponseOf<typeof OrderSummarySchema>;

/** `GET /api/orders/active`. */
export type ActiveOrdersResponse = ResponseOf<typeof ActiveOrdersResponseSchema>;

/** `GET /api/app-config`: what the app needs before it starts; no identity required. */
export type AppConfigResponse = ResponseOf<typeof AppConfigResponseSchema>;

/** `GET /api/demo/session`: in demo mode only, init data the server signed for the demo customer. */
export type DemoSessionResponse = ResponseOf<typeof DemoSessionResponseSchema>;

/**
 * A browser's demo identity (each browser is its own demo customer, so visitors of one demo never
 * see or block each other's orders): the random id it keeps in local storage and sends to
 * `GET /api/demo/session?browser=`.
 */
export function isDemoBrowserId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9-]{16,64}$/.test(value);
}

/** The Telegram start parameter that opens an order: `order_<id>` (landing). */
export const ORDER_START_PARAM_PREFIX = 'order_';

/**
 * The start parameter that opens an order's chat: `chat_<id>`, the bot's button under an
 * operator's message in the order's chat.
 */
export const CHAT_START_PARAM_PREFIX = 'chat_';

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

/** What a start parameter opens: an order, its chat, an order in the console, the console's queue. */
export type StartLink =
  | { readonly opens: 'order' | 'chat' | 'console'; readonly orderId: string }
  | { readonly opens: 'queue' };

const START_PARAM_PREFIXES = [
  ['order', ORDER_START_PARAM_PREFIX],
  ['chat', CHAT_START_PARAM_PREFIX],
  ['console', CONSOLE_START_PARAM_PREFIX],
] as const;

/** What a start parameter opens, or undefined for one the app does not know (opened plainly). */
export function startLink(startParam: string | undefined | null): StartLink | undefined {
  if (startParam === CONSOLE_QUEUE_START_PARAM) return { opens: 'queue' };
  for (const [opens, prefix] of START_PARAM_PREFIXES) {
    const orderId = idFromStartParam(startParam, prefix);
    if (orderId !== undefined) return { opens, orderId };
  }
  return undefined;
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

/** The answer of `GET /api/rates/calculate`: fiat per coin. */
export type RateResponse = ResponseOf<typeof RateResponseSchema>;

/** P2P card requisites an operator gives for a P2P buy. */
export type CardRequisites = ResponseOf<typeof CardRequisitesViewSchema>;

/** The deposit address of a sell (and, for an office buy, the customer's receiving wallet). */
export type WalletRequisites = ResponseOf<typeof WalletRequisitesViewSchema>;

/** Bank transfer requisites; beneficiary fields fall back to recipient name and account. */
export type BankRequisites = ResponseOf<typeof BankRequisitesViewSchema>;

/** Whichever requisites an order has: a card, a wallet address or a bank account. */
export type Requisites = ResponseOf<typeof RequisitesViewSchema>;

/** `GET /api/orders/{id}/requisites`: the bank requisites, or that none are configured yet. */
export type BankRequisitesResponse = ResponseOf<typeof BankRequisitesResponseSchema>;

/** A receipt the customer uploaded, as their order lists it. */
export type ReceiptInfo = ResponseOf<typeof ReceiptInfoSchema>;

/** An office, in both languages. */
export type OfficeInfo = ResponseOf<typeof OfficeInfoSchema>;

/** An office buy's reservation: the office, its city, the code and until when it holds. */
export type OfficeReservation = ResponseOf<typeof OfficeReservationSchema>;

/** `GET /api/orders/{id}/status`: every order field, and the server's time. */
export type OrderDetails = ResponseOf<typeof OrderDetailsSchema>;

/** Where the chain check of a transfer stands, as the customer reads it (CHAIN_CHECK_STATES). */
export type ChainCheckState = (typeof CHAIN_CHECK_STATES)[number];

/** What the chain says of a sell's deposit or a buy's payout: its state and confirmations. */
export type ChainCheckView = ResponseOf<typeof ChainCheckViewSchema>;

/** An order's appeal as its customer reads it. */
export type AppealView = ResponseOf<typeof AppealViewSchema>;

/** `POST /api/orders/create` answer. */
export type CreateOrderResponse = ResponseOf<typeof CreateOrderResponseSchema>;

/** `GET /api/orders/history?status&limit&offset`. */
export const HISTORY_FILTERS = ['all', 'active', 'completed'] as const;
export type HistoryFilter = (typeof HISTORY_FILTERS)[number];

/** A page of the customer's orders, newest first. */
export type HistoryResponse = ResponseOf<typeof HistoryResponseSchema>;

/** A city with an office, in both languages. */
export type City = ResponseOf<typeof CitySchema>;

/** `GET /api/cities/{currencyCode}`. */
export type CitiesResponse = ResponseOf<typeof CitiesResponseSchema>;

/** The answer of the customer's order actions (cancel, payment-confirm, receipt, tx-hash, office-confirm). */
export type OrderActionResponse = ResponseOf<typeof OrderActionResponseSchema>;

/** `POST /api/orders/{id}/receipt`. */
export interface ReceiptUpload {
  readonly fileName: string;
  /** A base64 data URL. */
  readonly fileData: string;
  readonly fileSize: number;
}

/** Who writes in an order's chat. */
export type ChatAuthor = (typeof CHAT_AUTHORS)[number];

/** A file attached to a chat message. */
export type ChatAttachment = ResponseOf<typeof ChatAttachmentSchema>;

/** One message of an order's chat, as its customer reads it (and the answer of sending one). */
export type ChatMessage = ResponseOf<typeof ChatMessageSchema>;

/** `GET /api/orders/{id}/chat`: the order's verification code and its messages, oldest first. */
export type ChatResponse = ResponseOf<typeof ChatResponseSchema>;

/**
 * `POST /api/orders/{id}/chat` (and the operators' `POST /api/operator/orders/{id}/chat`): a
 * text, a file sent as a receipt is, or both.
 */
export interface ChatMessageBody {
  readonly text?: string;
  readonly fileName?: string;
  /** A base64 data URL. */
  readonly fileData?: string;
  readonly fileSize?: number;
}
