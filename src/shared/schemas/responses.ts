/**
 * The answers of the customer's calls as valibot schemas: the one source of the
 * answer types src/shared/api.ts exports, of the OpenAPI document the server lists itself with,
 * and of the tests that hold an answer to its description. They describe, they do not parse:
 * plain objects, lists, unions and the enumerations src/shared already has, nothing
 * @valibot/to-json-schema cannot convert (no transform, no custom check). A field's meaning is
 * written on its entry here; the types in api.ts carry it along.
 */
import * as v from 'valibot';
import { APPEAL_DECISIONS, APPEAL_REASONS, APPEAL_STATES } from '../appeals';
import { ERROR_HTTP_STATUS, type ErrorCode } from '../errors';
import { CRYPTO_CURRENCIES, NETWORK_IDS } from '../networks';
import { CANCEL_REASONS, ORDER_STATUSES, ORDER_TYPES, PAYMENT_METHODS } from '../order-status';
import { REJECT_REASONS } from '../reject-reasons';

/** Read-only all the way down: an answer is read by whoever receives it, never changed. */
type DeepReadonly<T> = T extends readonly (infer Item)[]
  ? readonly DeepReadonly<Item>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/**
 * The type of what a response schema describes, read-only like every answer type of src/shared:
 * a service may answer with a read-only list it already holds. Read-only is said here, on the
 * type, since a `readonly` action in the schema has no JSON Schema equivalent.
 */
export type ResponseOf<TSchema extends v.GenericSchema> = DeepReadonly<v.InferOutput<TSchema>>;

/** A moment as the server writes it: ISO 8601 in UTC (`Date#toISOString`). */
export const timestamp = v.pipe(v.string(), v.isoTimestamp());

/** A whole number: a count, a Telegram id, a number of blocks. */
export const wholeNumber = v.pipe(v.number(), v.integer());

/**
 * Every error code. errors.ts keeps its list private and exports the HTTP status of each code, a
 * table the compiler holds to exactly the codes, so its keys are the list.
 */
const ERROR_CODE_LIST = Object.keys(ERROR_HTTP_STATUS) as ErrorCode[];

/** The fields an error answer carries beside its message and code, each with the codes it comes with. */
export const ApiErrorDetailsSchema = v.object({
  /** RATE_CHANGED: the server's current rate. */
  rate: v.optional(v.number()),
  /** INVALID_STATUS, TX_HASH_ALREADY_SUBMITTED: the order's current status. */
  status: v.optional(v.picklist(ORDER_STATUSES)),
  /** VALIDATION_FAILED: the payload's fields that were refused (`cardHolder`, `phone`…). */
  fields: v.optional(v.array(v.string())),
  /** RATE_LIMITED: seconds until the customer may try again. */
  retryAfter: v.optional(wholeNumber),
  /** AMOUNT_TOO_LOW, AMOUNT_TOO_HIGH: the bounds of the method, in whole units of `currency`. */
  min: v.optional(v.number()),
  /** AMOUNT_TOO_LOW, AMOUNT_TOO_HIGH: the upper bound; TOO_MANY_ACTIVE_ORDERS: the most allowed. */
  max: v.optional(v.number()),
  currency: v.optional(v.string()),
  /** TX_WRONG_TOKEN, TX_UNDERPAID, TX_AMOUNT_MISMATCH, TX_OVERPAID: the order's coin. */
  coin: v.optional(v.picklist(CRYPTO_CURRENCIES)),
  /** TX_UNDERPAID: what the transfer lacks, in whole coins as an exact decimal ("0.5"). */
  shortfall: v.optional(v.string()),
  /** TX_AMOUNT_MISMATCH, TX_OVERPAID: what the transfer sent, in whole coins as an exact decimal. */
  sent: v.optional(v.string()),
  /**
   * TX_AMOUNT_MISMATCH: the order's exact amount; TX_OVERPAID: the payout's amount (the buy's).
   * In whole coins as an exact decimal.
   */
  expected: v.optional(v.string()),
});

/** Every error answer: the message in the caller's language, the code, and per code its details. */
export const ApiErrorBodySchema = v.object({
  /** The message in the caller's language; the app shows its own text for `code` instead. */
  error: v.string(),
  code: v.picklist(ERROR_CODE_LIST),
  ...ApiErrorDetailsSchema.entries,
});

/** `GET /api/health`. */
export const HealthResponseSchema = v.object({
  ok: v.literal(true),
  /** The server's clock. */
  time: timestamp,
});

/** `GET /api/app-config`: what the app needs before it starts; no identity required. */
export const AppConfigResponseSchema = v.object({
  /** True when the server runs without a bot token and signs a demo customer's init data. */
  demo: v.boolean(),
  /** The support chat, a https://t.me/… link opened through Telegram. */
  supportUrl: v.string(),
});

/**
 * `GET /api/demo/session?startParam=…`: in demo mode only, init data the server signed for the
 * demo customer, so the app runs in a plain browser. 404 DEMO_DISABLED otherwise.
 */
export const DemoSessionResponseSchema = v.object({
  initData: v.string(),
});

/** `GET /api/rates/calculate?amount&currency&operation&cryptoCurrency&paymentMethod`. */
export const RateResponseSchema = v.object({
  /** Fiat per coin, 2 decimals. */
  rate: v.number(),
});

/** One order as lists show it (the history card). */
export const OrderSummarySchema = v.object({
  id: v.string(),
  type: v.picklist(ORDER_TYPES),
  status: v.picklist(ORDER_STATUSES),
  /** In coins. */
  amount: v.number(),
  cryptoCurrency: v.picklist(CRYPTO_CURRENCIES),
  network: v.picklist(NETWORK_IDS),
  /** The fiat currency's code (`RUB`, or an office's cash currency). */
  currency: v.string(),
  /** The fiat total, in whole units of `currency`. */
  totalRub: v.number(),
  /** Fiat per coin. */
  rate: v.number(),
  paymentMethod: v.picklist(PAYMENT_METHODS),
  createdAt: timestamp,
  updatedAt: timestamp,
  /** Why a CANCELLED order was cancelled; null otherwise. */
  cancelReason: v.nullable(v.picklist(CANCEL_REASONS)),
  /**
   * Messages of the order's chat the reader of this answer has not read: the operators' for the
   * customer, the customer's for an operator (the console's lists and order).
   */
  unreadMessages: wholeNumber,
});

/** `GET /api/orders/active`. */
export const ActiveOrdersResponseSchema = v.object({
  orders: v.array(OrderSummarySchema),
});

/** `GET /api/orders/history?status&limit&offset`: a page, newest first. */
export const HistoryResponseSchema = v.object({
  orders: v.array(OrderSummarySchema),
  /** Whether older orders follow. */
  hasMore: v.boolean(),
});

/**
 * P2P card requisites an operator gives for a P2P buy. Named a view to tell it
 * from the operator's request body (`CardRequisitesSchema` of ./operator.ts), which parses.
 */
export const CardRequisitesViewSchema = v.object({
  bankName: v.string(),
  cardNumber: v.string(),
  cardHolder: v.string(),
  phone: v.optional(v.string()),
  comment: v.optional(v.string()),
});

/** The deposit address of a sell (and, for an office buy, the customer's receiving wallet). */
export const WalletRequisitesViewSchema = v.object({
  walletAddress: v.string(),
});

/** Bank transfer requisites; beneficiary fields fall back to recipient name and account. */
export const BankRequisitesViewSchema = v.object({
  recipientName: v.string(),
  accountNumber: v.string(),
  bankName: v.string(),
  bik: v.string(),
  correspondentAccount: v.string(),
  inn: v.string(),
  bankAddress: v.optional(v.string()),
  beneficiaryName: v.string(),
  beneficiaryAccount: v.string(),
});

/** Whichever requisites the order has: a card, a wallet address, or a bank account. */
export const RequisitesViewSchema = v.union([
  CardRequisitesViewSchema,
  WalletRequisitesViewSchema,
  BankRequisitesViewSchema,
]);

/** `GET /api/orders/{id}/requisites`: the bank requisites, or that none are configured yet. */
export const BankRequisitesResponseSchema = v.variant('requisitesNotConfigured', [
  v.object({
    requisitesNotConfigured: v.literal(false),
    requisites: BankRequisitesViewSchema,
  }),
  v.object({
    requisitesNotConfigured: v.literal(true),
    requisites: v.null(),
  }),
]);

/** A receipt the customer uploaded, as their order lists it. */
export const ReceiptInfoSchema = v.object({
  id: v.string(),
  fileName: v.string(),
  uploadedAt: timestamp,
});

/** An office and its city, in both languages. */
export const OfficeInfoSchema = v.object({
  /** Stable kebab-case slug, unique among all offices, e.g. `moscow-city-tower`. */
  id: v.string(),
  addressRu: v.string(),
  addressEn: v.string(),
  workingHoursRu: v.string(),
  workingHoursEn: v.string(),
  /** International format, e.g. `+7 495 662-41-80`. */
  phone: v.string(),
  /** An https map search for the office's address. */
  mapLink: v.string(),
});

/** An office buy's reservation: where and until when the customer is expected, with which code. */
export const OfficeReservationSchema = v.object({
  orderId: v.string(),
  reservationCode: v.string(),
  reservedUntil: timestamp,
  office: OfficeInfoSchema,
  city: v.object({ nameRu: v.string(), nameEn: v.string() }),
});

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

/** What the chain says of a transfer, as the customer reads it. */
export const ChainCheckViewSchema = v.object({
  state: v.picklist(CHAIN_CHECK_STATES),
  /** Blocks on top of the transaction's, its own included; 0 until it is seen. */
  confirmations: wholeNumber,
  /** The confirmations the network waits for (Tron: until its block is solidified). */
  required: wholeNumber,
});

/**
 * The order's appeal as its customer reads it: open ("under review") or decided, with the
 * decision, the senior operator's outcome text and, for a refund, where it went.
 */
export const AppealViewSchema = v.object({
  state: v.picklist(APPEAL_STATES),
  reason: v.picklist(APPEAL_REASONS),
  openedAt: timestamp,
  decision: v.nullable(v.picklist(APPEAL_DECISIONS)),
  /** What the senior operator wrote to the customer with the decision. */
  outcome: v.nullable(v.string()),
  decidedAt: v.nullable(timestamp),
  /** A buy's refund: the requisites or reference it went to. */
  refundDetails: v.nullable(v.string()),
  /** A sell's refund: the hash of the transfer back to where the deposit came from. */
  refundTxHash: v.nullable(v.string()),
});

/** `GET /api/orders/{id}/status`: every order field, and the server's time. */
export const OrderDetailsSchema = v.object({
  ...OrderSummarySchema.entries,
  /** The deadline of the step the order waits for (payment, crypto, an operator's answer). */
  expiresAt: v.nullable(timestamp),
  requisitesReadyAt: v.nullable(timestamp),
  /** Until when an office holds the order's reservation. */
  reservedUntil: v.nullable(timestamp),
  /** An office buy's city. */
  cityId: v.nullable(v.string()),
  /** The operator's free text of a rejection (with `rejectReasonCode`, or alone). */
  rejectReason: v.nullable(v.string()),
  /** A REJECTED order's catalogue reason, shown in the customer's language. */
  rejectReasonCode: v.nullable(v.picklist(REJECT_REASONS)),
  /** The hash of a sell's deposit, as the customer gave it. */
  txHash: v.nullable(v.string()),
  /** The hash of a buy's payout, as the operator gave it. */
  outgoingTxHash: v.nullable(v.string()),
  officeInstructions: v.nullable(v.string()),
  /** The customer's receiving wallet of a buy. */
  walletAddress: v.nullable(v.string()),
  receipts: v.array(ReceiptInfoSchema),
  requisites: v.nullable(RequisitesViewSchema),
  reservation: v.nullable(OfficeReservationSchema),
  /** A t.me link that opens the app on this order, when the bot's username is configured. */
  deepLink: v.nullable(v.string()),
  /**
   * What the chain says of a sell's deposit, or of a completed buy's payout (its confirmations
   * until final, on the done screen); null on a network checked by hand (no node configured),
   * before a hash was given, and for a payout completed without one.
   */
  chainCheck: v.nullable(ChainCheckViewSchema),
  /**
   * The order's verification code (src/shared/verification-code.ts): every operator message and
   * bot message about the order carries it, so the customer can tell the exchange from an
   * impersonator.
   */
  verificationCode: v.string(),
  /**
   * The card a sell pays out to, as the customer may be shown it anywhere (the status call
   * carries no identity): its number masked (`maskCardNumber`) and its bank. Null on a buy.
   */
  payoutCard: v.nullable(v.object({ maskedNumber: v.string(), bankName: v.string() })),
  /** The order's appeal (shared/appeals.ts), null when none was opened. */
  appeal: v.nullable(AppealViewSchema),
  /** The server's clock, so countdowns stay right on a phone whose clock is off. */
  serverTime: timestamp,
});

/** `POST /api/orders/create` answer. */
export const CreateOrderResponseSchema = v.object({
  success: v.literal(true),
  orderId: v.string(),
});

/** A city with offices, in both languages. */
export const CitySchema = v.object({
  /** Stable kebab-case slug, e.g. `saint-petersburg`. */
  id: v.string(),
  nameRu: v.string(),
  nameEn: v.string(),
  /** An ISO 3166-1 alpha-2 code; countries.ts lists those a city may carry. */
  countryCode: v.string(),
});

/** `GET /api/cities/{currencyCode}`. */
export const CitiesResponseSchema = v.object({
  data: v.array(CitySchema),
});

/** The answer of the customer's order actions (cancel, payment-confirm, receipt, tx-hash, office-confirm). */
export const OrderActionResponseSchema = v.object({
  success: v.literal(true),
  /** The status the action left the order in. */
  status: v.picklist(ORDER_STATUSES),
});

/** Who writes in an order's chat: its customer, or one of the operators. */
export const CHAT_AUTHORS = ['customer', 'operator'] as const;

/** A file attached to a chat message, checked as receipts are (its type read from its bytes). */
export const ChatAttachmentSchema = v.object({
  fileName: v.string(),
  /** The type read from the file's bytes (image/jpeg, image/png, image/webp, image/heic, application/pdf). */
  mimeType: v.string(),
  sizeBytes: wholeNumber,
});

/** One message of an order's chat, as its customer reads it. */
export const ChatMessageSchema = v.object({
  /** Grows with every message of the server: the order of the chat. */
  id: wholeNumber,
  author: v.picklist(CHAT_AUTHORS),
  /** As written, trimmed; shown as text, never as markup. Null for a file sent alone. */
  text: v.nullable(v.string()),
  /** Fetched from the attachment's own path (`API_PATHS.chatAttachment`). */
  attachment: v.nullable(ChatAttachmentSchema),
  createdAt: timestamp,
});

/**
 * `GET /api/orders/{id}/chat`: the order's messages, oldest first (reading them marks the
 * operators' messages read), with an ETag: `If-None-Match` answers 304 while nothing was written.
 */
export const ChatResponseSchema = v.object({
  /** The order's verification code, which every operator message carries. */
  verificationCode: v.string(),
  messages: v.array(ChatMessageSchema),
});

/**
 * Every answer of the customer's calls by the name of its type in api.ts: what a generator lists
 * as the document's named schemas, and what the tests hold to JSON Schema.
 */
export const RESPONSE_SCHEMAS = {
  ApiErrorBody: ApiErrorBodySchema,
  HealthResponse: HealthResponseSchema,
  AppConfigResponse: AppConfigResponseSchema,
  DemoSessionResponse: DemoSessionResponseSchema,
  RateResponse: RateResponseSchema,
  CreateOrderResponse: CreateOrderResponseSchema,
  ActiveOrdersResponse: ActiveOrdersResponseSchema,
  HistoryResponse: HistoryResponseSchema,
  OrderDetails: OrderDetailsSchema,
  BankRequisitesResponse: BankRequisitesResponseSchema,
  CitiesResponse: CitiesResponseSchema,
  OrderActionResponse: OrderActionResponseSchema,
  ChatResponse: ChatResponseSchema,
  ChatMessage: ChatMessageSchema,
  AppealView: AppealViewSchema,
} as const satisfies Readonly<Record<string, v.GenericSchema>>;
