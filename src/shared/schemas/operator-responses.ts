/**
 * The answers of the operators' calls under /api/operator/ (and of `GET /api/me`) as valibot
 * schemas: the one source of the types src/shared/operator-api.ts exports. Like ./responses.ts,
 * they describe and do not parse, in terms @valibot/to-json-schema converts.
 */
import * as v from 'valibot';
import { CRYPTO_CURRENCIES, NETWORK_IDS } from '../networks';
import { CUSTOMER_NOTICES, NOTIFICATION_STATUSES, OPERATOR_ALERTS } from '../notifications';
import { ORDER_FLAGS, QUEUE_GROUPS } from '../operator-queue';
import type { Actor } from '../order-status';
import { ORDER_STATUSES, ORDER_TYPES, PAYMENT_METHODS } from '../order-status';
import { APPEAL_DECISIONS } from '../appeals';
import { LISTED_CURRENCIES } from '../currencies';
import { CANDIDATE_STATES, RATE_CHANGE_KINDS, UNQUOTED_REASONS } from '../rate-rules';
import {
  AppealViewSchema,
  BankRequisitesViewSchema,
  ChatAttachmentSchema,
  ChatMessageSchema,
  CardRequisitesViewSchema,
  OfficeInfoSchema,
  OrderDetailsSchema,
  OrderSummarySchema,
  timestamp,
  wholeNumber,
} from './responses';

/**
 * Every actor of order-status.ts's `Actor`, which is a type without a list: the table makes the
 * compiler refuse an actor missing here or unknown there.
 */
const ACTOR_TABLE: Readonly<Record<Actor, true>> = {
  customer: true,
  operator: true,
  system: true,
  chain: true,
};
const ACTORS = Object.keys(ACTOR_TABLE) as Actor[];

/** A base rate: fiat per coin, and who set it. */
export const OperatorRateSchema = v.object({
  fiat: v.string(),
  crypto: v.picklist(CRYPTO_CURRENCIES),
  /** Fiat per coin. */
  baseRate: v.number(),
  updatedAt: timestamp,
  /** The operator's Telegram id; null for the seed. */
  updatedBy: v.nullable(wholeNumber),
});

/** The spread of a method and operation, and who set it. */
export const OperatorSpreadSchema = v.object({
  paymentMethod: v.picklist(PAYMENT_METHODS),
  operation: v.picklist(ORDER_TYPES),
  /** Basis points: 150 = 1.5 %. */
  spreadBp: wholeNumber,
  updatedAt: timestamp,
  /** The operator's Telegram id; null for the seed. */
  updatedBy: v.nullable(wholeNumber),
});

/** `GET /api/operator/rates` (and the answer of each change): base rates and spreads, who set each. */
/** A source's price of a pair as its base stands now. */
export const MarketCandidateSchema = v.object({
  source: v.string(),
  rate: v.number(),
  /** The time of the oldest price it is made of. */
  at: timestamp,
  /** Made with the bank's rate of the currency, not the source's own price of the pair. */
  crossed: v.boolean(),
  state: v.picklist(CANDIDATE_STATES),
});

/** A market source: when it was read, when it is read next, its last fault. */
export const MarketSourceSchema = v.object({
  name: v.string(),
  readAt: v.nullable(timestamp),
  nextReadAt: timestamp,
  fault: v.nullable(v.object({ at: timestamp, kind: v.string(), message: v.string() })),
});

/** A pair the market prices, as it stands: its sources, its base, what customers are quoted. */
export const MarketPairSchema = v.object({
  crypto: v.picklist(CRYPTO_CURRENCIES),
  fiat: v.picklist(LISTED_CURRENCIES),
  /** The base customers are quoted now (fixed or the market's); null: not quoted. */
  base: v.nullable(v.number()),
  unquoted: v.nullable(v.picklist(UNQUOTED_REASONS)),
  /** The median of the fresh sources that agree; null when too few do. */
  median: v.nullable(v.number()),
  /** The market's base last accepted. */
  accepted: v.nullable(v.number()),
  /** A jump held: the market's base, the accepted one it jumped from, since when. */
  held: v.nullable(v.object({ rate: v.number(), from: v.number(), since: timestamp })),
  /** An operator's fixed base, until when, by whom. */
  fixed: v.nullable(v.object({ rate: v.number(), until: timestamp, by: v.nullable(wholeNumber) })),
  candidates: v.array(MarketCandidateSchema),
  /** What a customer is quoted now by each method that takes the currency. */
  quotes: v.array(
    v.object({
      paymentMethod: v.picklist(PAYMENT_METHODS),
      operation: v.picklist(ORDER_TYPES),
      rate: v.number(),
    }),
  ),
});

/** A change of what customers are quoted, as the audit keeps it. */
export const RateChangeSchema = v.object({
  at: timestamp,
  /** The operator's Telegram id; null: the server itself (an expiry, sources that agreed). */
  operatorId: v.nullable(wholeNumber),
  kind: v.picklist(RATE_CHANGE_KINDS),
  /** The pair (`USDT/RUB`) or the method and direction (`P2P/BUY`). */
  subject: v.string(),
  /** Rates in the currency per coin, spreads in basis points. */
  before: v.nullable(v.number()),
  after: v.nullable(v.number()),
  until: v.nullable(timestamp),
});

export const OperatorRatesResponseSchema = v.object({
  rates: v.array(OperatorRateSchema),
  spreads: v.array(OperatorSpreadSchema),
  /** The market the bases follow; null when no source is configured (the typed rates apply). */
  market: v.nullable(
    v.object({
      sources: v.array(MarketSourceSchema),
      pairs: v.array(MarketPairSchema),
      /** How far a base may move in 10 minutes before it is held, in basis points. */
      jumpBp: wholeNumber,
    }),
  ),
  /** The latest changes, newest first. */
  changes: v.array(RateChangeSchema),
});

/** `GET /api/me`: who the caller is, and whether the console is theirs. */
export const MeResponseSchema = v.object({
  telegramId: wholeNumber,
  firstName: v.string(),
  /** Whether the caller is one of the operators, to whom the console opens. */
  operator: v.boolean(),
});

/** The customer of an order as operators see them. */
export const OperatorCustomerSchema = v.object({
  telegramId: wholeNumber,
  firstName: v.string(),
  lastName: v.nullable(v.string()),
  /** The Telegram @username, without the @. */
  username: v.nullable(v.string()),
});

/** One row of the queue or of a search: the order, its customer, its deadline and its flags. */
export const OperatorOrderRowSchema = v.object({
  ...OrderSummarySchema.entries,
  customer: OperatorCustomerSchema,
  /** The deadline that matters now: the office's reservation, else `expiresAt`; null without one. */
  deadline: v.nullable(timestamp),
  /** Why the order needs a person. */
  flags: v.array(v.picklist(ORDER_FLAGS)),
  /** When its open appeal was opened (the queue shows its age); null without one. */
  appealOpenedAt: v.nullable(timestamp),
});

/** One group of the queue: the orders waiting for one operator action. */
export const OperatorQueueGroupSchema = v.object({
  group: v.picklist(QUEUE_GROUPS),
  /** Every order of the group, however many rows `orders` carries. */
  count: wholeNumber,
  orders: v.array(OperatorOrderRowSchema),
});

/** `GET /api/operator/queue`: every group, most urgent first, with its full count. */
export const OperatorQueueResponseSchema = v.object({
  groups: v.array(OperatorQueueGroupSchema),
  /** The server's clock, so deadlines count down right on an operator's phone. */
  serverTime: timestamp,
});

/** `GET /api/operator/orders?…`: a page of a search or filter, newest first. */
export const OperatorOrdersResponseSchema = v.object({
  orders: v.array(OperatorOrderRowSchema),
  /** Whether older orders follow. */
  hasMore: v.boolean(),
});

/** A change of the order's status, as its audit trail keeps it. */
export const OperatorEventSchema = v.object({
  /** The status before; null for the order's creation. */
  from: v.nullable(v.picklist(ORDER_STATUSES)),
  to: v.picklist(ORDER_STATUSES),
  actor: v.picklist(ACTORS),
  /** The Telegram id of the customer or operator who acted; null for the server and the chain. */
  actorId: v.nullable(wholeNumber),
  reason: v.nullable(v.string()),
  at: timestamp,
  /**
   * A message written in the order's chat (`from` and `to` are then the status it had): its id;
   * null for a change of status.
   */
  messageId: v.nullable(wholeNumber),
});

/** A receipt as operators check it. */
export const OperatorReceiptSchema = v.object({
  id: v.string(),
  fileName: v.string(),
  mimeType: v.string(),
  sizeBytes: wholeNumber,
  /** Hex digest of the file, which finds the same file on other orders. */
  sha256: v.string(),
  uploadedAt: timestamp,
  /** Other orders that carry the same file. */
  alsoOn: v.array(v.string()),
});

/**
 * A message the bot sent, or will send, about the order (the outbox): in demo mode, what the
 * customer would have received.
 */
export const OperatorMessageSchema = v.object({
  id: wholeNumber,
  to: v.picklist(['customer', 'operators']),
  kind: v.picklist([...CUSTOMER_NOTICES, ...OPERATOR_ALERTS]),
  status: v.picklist(NOTIFICATION_STATUSES),
  /** As the recipient reads it, without Telegram's formatting. */
  text: v.string(),
  buttons: v.array(v.object({ text: v.string(), url: v.string() })),
  attempts: wholeNumber,
  /** Why it was not sent (yet): Telegram's answer, or demo mode. */
  lastError: v.nullable(v.string()),
  createdAt: timestamp,
  sentAt: v.nullable(timestamp),
});

/**
 * A transfer to a deposit address that no submitted hash names and that matched no single sell
 * waiting for its deposit: for an operator to attach.
 */
export const IncomingDepositSchema = v.object({
  network: v.picklist(NETWORK_IDS),
  txHash: v.string(),
  coin: v.picklist(CRYPTO_CURRENCIES),
  /** In coins, as a decimal string: exact, whatever the token's decimals. */
  amount: v.string(),
  sender: v.string(),
  blockNumber: v.nullable(wholeNumber),
  seenAt: timestamp,
  /** How many waiting sells it could have been when seen: 0, or more than one. */
  candidates: wholeNumber,
});

/** `GET /api/operator/incoming`: the unmatched deposits, newest first. */
export const OperatorIncomingResponseSchema = v.object({
  deposits: v.array(IncomingDepositSchema),
  /** Whether older ones follow (the next page's offset is the count read so far). */
  hasMore: v.boolean(),
});

/** `GET /api/operator/orders/{id}`: everything an operator needs to act on one order. */
export const OperatorOrderResponseSchema = v.object({
  order: OrderDetailsSchema,
  customer: v.object({
    ...OperatorCustomerSchema.entries,
    /** The language Telegram reports for the customer's app, as it reports it (`ru`, `en-GB`). */
    languageCode: v.nullable(v.string()),
    firstSeenAt: timestamp,
    /** Every order of the customer, this one included. */
    orderCount: wholeNumber,
  }),
  /** The deadline that matters now (`orderDeadline`): null without one, and for a final order. */
  deadline: v.nullable(timestamp),
  /** When a final order ended: the time of its final event; null while it is active. */
  endedAt: v.nullable(timestamp),
  flags: v.array(v.picklist(ORDER_FLAGS)),
  /** The card a sell pays out to. */
  payoutCard: v.nullable(CardRequisitesViewSchema),
  events: v.array(OperatorEventSchema),
  receipts: v.array(OperatorReceiptSchema),
  /** An office buy: the offices of its city, to give instructions for. */
  offices: v.array(OfficeInfoSchema),
  /** A bank buy: the configured default account, to prefill its requisites. */
  defaultBankAccount: v.nullable(BankRequisitesViewSchema),
  /** The bot's messages about the order, oldest first. */
  messages: v.array(OperatorMessageSchema),
  /**
   * Whether a sell's deposit on this order's network is checked on the chain (a node is
   * configured); false: an operator checks it in an explorer.
   */
  chainChecked: v.boolean(),
  /**
   * A sell waiting for its deposit on a network read from a node: the unmatched deposits of its
   * network and coin, newest first, to attach one as its deposit; empty otherwise.
   */
  incoming: v.array(IncomingDepositSchema),
});

/** One message of an order's chat as operators read it: who wrote it, and its file's digest. */
export const OperatorChatMessageSchema = v.object({
  ...ChatMessageSchema.entries,
  /** The Telegram id of the customer or operator who wrote it. */
  authorId: wholeNumber,
  attachment: v.nullable(
    v.object({
      ...ChatAttachmentSchema.entries,
      /** Hex digest of the file, as a receipt's. */
      sha256: v.string(),
    }),
  ),
});

/**
 * `GET /api/operator/orders/{id}/chat`: the order's messages, oldest first (reading them marks
 * the customer's read for every operator), with an ETag and 304 as the customer's.
 */
export const OperatorChatResponseSchema = v.object({
  verificationCode: v.string(),
  messages: v.array(OperatorChatMessageSchema),
});

/** `GET /api/operator/orders/{id}/appeal`: the appeal as operators read it, and who may decide. */
export const OperatorAppealResponseSchema = v.object({
  appeal: v.nullable(
    v.object({
      ...AppealViewSchema.entries,
      /** The customer's words. */
      text: v.string(),
      /** The order's chat messages given as evidence (their files are the chat's). */
      evidence: v.array(wholeNumber),
      /** The senior operator who decided it. */
      decidedBy: v.nullable(wholeNumber),
    }),
  ),
  /** Whether the caller is a senior operator, who decides appeals. */
  senior: v.boolean(),
  /** The decisions the order's status leaves (shared/appeals.ts, `appealDecisions`). */
  decisions: v.array(v.picklist(APPEAL_DECISIONS)),
});

/** Every answer of the operators' calls (and of `GET /api/me`) by the name of its type in operator-api.ts. */
export const OPERATOR_RESPONSE_SCHEMAS = {
  MeResponse: MeResponseSchema,
  OperatorQueueResponse: OperatorQueueResponseSchema,
  OperatorOrdersResponse: OperatorOrdersResponseSchema,
  OperatorOrderResponse: OperatorOrderResponseSchema,
  OperatorIncomingResponse: OperatorIncomingResponseSchema,
  OperatorRatesResponse: OperatorRatesResponseSchema,
  OperatorChatResponse: OperatorChatResponseSchema,
  OperatorChatMessage: OperatorChatMessageSchema,
  OperatorAppealResponse: OperatorAppealResponseSchema,
} as const satisfies Readonly<Record<string, v.GenericSchema>>;
