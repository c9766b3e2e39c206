/**
 * The operators' calls under /api/operator/: paths, which of them move money, and the answers
 * the console reads. Bodies are the schemas of src/shared/schemas/operator.ts; each answer's type
 * is derived from its schema in src/shared/schemas/operator-responses.ts, where its fields are
 * described.
 */
import type {
  IncomingDepositSchema,
  OperatorAppealResponseSchema,
  OperatorChatMessageSchema,
  OperatorChatResponseSchema,
  MeResponseSchema,
  OperatorCustomerSchema,
  OperatorEventSchema,
  OperatorIncomingResponseSchema,
  OperatorMessageSchema,
  OperatorOrderResponseSchema,
  OperatorOrderRowSchema,
  OperatorOrdersResponseSchema,
  OperatorQueueResponseSchema,
  OperatorRatesResponseSchema,
  OperatorReceiptSchema,
} from './schemas/operator-responses';
import type { ResponseOf } from './schemas/responses';
import { routePath } from './route-path';

export const OPERATOR_PATHS = {
  queue: '/api/operator/queue',
  orders: '/api/operator/orders',
  order: routePath('/api/operator/orders/:id'),
  receipt: routePath('/api/operator/orders/:id/receipts/:receiptId'),
  requisites: routePath('/api/operator/orders/:id/requisites'),
  officeInstructions: routePath('/api/operator/orders/:id/office-instructions'),
  confirmPayment: routePath('/api/operator/orders/:id/confirm-payment'),
  confirmTx: routePath('/api/operator/orders/:id/confirm-tx'),
  attachDeposit: routePath('/api/operator/orders/:id/attach-deposit'),
  incoming: '/api/operator/incoming',
  complete: routePath('/api/operator/orders/:id/complete'),
  reject: routePath('/api/operator/orders/:id/reject'),
  rates: '/api/operator/rates',
  spreads: '/api/operator/spreads',
  /** A pair's base fixed by an operator for a time (or the fixed base ended). */
  rateFix: '/api/operator/rates/fix',
  /** A held jump of a pair's market base, taken by an operator. */
  rateJump: '/api/operator/rates/jump',
  /** The order's chat: GET reads it (ETag, 304), POST writes an operator's message. */
  chat: routePath('/api/operator/orders/:id/chat'),
  chatAttachment: routePath('/api/operator/orders/:id/chat/:messageId/attachment'),
  /** The order's appeal as operators read it. */
  appeal: routePath('/api/operator/orders/:id/appeal'),
  /** A senior operator's decision of the order's appeal. */
  appealDecision: routePath('/api/operator/orders/:id/appeal/decision'),
} as const;

/**
 * What an operator can change: the actions on an order, and the PUTs of rates and spreads. A
 * message in the order's chat changes nothing of the order and moves no money.
 */
export type OperatorWrite = Exclude<
  keyof typeof OPERATOR_PATHS,
  'queue' | 'orders' | 'order' | 'receipt' | 'incoming' | 'chat' | 'chatAttachment' | 'appeal'
>;

/**
 * Which operator writes move money, and so want init data at most
 * OPERATOR_INIT_DATA_MAX_AGE old, not the day a customer's call may carry: a stale bearer could
 * otherwise send a customer's money to its own card, release crypto for a payment that never
 * came, or set the price everyone pays. Giving office instructions and rejecting move none.
 */
export const MONEY_ACTIONS: Readonly<Record<OperatorWrite, boolean>> = {
  /** Says where the customer sends their money. */
  requisites: true,
  officeInstructions: false,
  /** Releases the crypto of a buy. */
  confirmPayment: true,
  /** Accepts a seller's crypto and starts the payout to their card. */
  confirmTx: true,
  /** Takes a transfer as a seller's crypto, which the chain then confirms. */
  attachDeposit: true,
  /** Records the crypto sent, the card paid, or the cash taken. */
  complete: true,
  reject: false,
  /** Completes an order or refunds its customer. */
  appealDecision: true,
  /** The base rate every customer is quoted. */
  rates: true,
  /** The spread every customer is quoted. */
  spreads: true,
  /** The base every customer of a pair is quoted, for hours. */
  rateFix: true,
  /** The market's new base, taken for every customer of a pair. */
  rateJump: true,
};

/** `GET /api/operator/rates` (and the answer of each change): base rates and spreads, who set each. */
export type OperatorRatesResponse = ResponseOf<typeof OperatorRatesResponseSchema>;

/** `GET /api/me`: who the caller is, and whether the console is theirs. */
export type MeResponse = ResponseOf<typeof MeResponseSchema>;

/** The customer of an order as operators see them. */
export type OperatorCustomer = ResponseOf<typeof OperatorCustomerSchema>;

/** One row of the queue or of a search: the order, its customer, its deadline and its flags. */
export type OperatorOrderRow = ResponseOf<typeof OperatorOrderRowSchema>;

/** `GET /api/operator/queue`: every group, most urgent first, with its full count. */
export type OperatorQueueResponse = ResponseOf<typeof OperatorQueueResponseSchema>;

/** `GET /api/operator/orders?…`: a page of a search or filter, newest first. */
export type OperatorOrdersResponse = ResponseOf<typeof OperatorOrdersResponseSchema>;

/** A change of an order's status, as its audit trail keeps it. */
export type OperatorEvent = ResponseOf<typeof OperatorEventSchema>;

/** A receipt as operators check it, with the other orders that carry the same file. */
export type OperatorReceipt = ResponseOf<typeof OperatorReceiptSchema>;

/**
 * The operator id the demo's autopilot acts as: no Telegram user has it, so the audit
 * trail tells its steps from a person's.
 */
export const AUTOPILOT_OPERATOR_ID = 1;

/** A message the bot sent, or will send, about an order (the outbox). */
export type OperatorMessage = ResponseOf<typeof OperatorMessageSchema>;

/** A transfer to a deposit address that matched no single sell: for an operator to attach. */
export type IncomingDeposit = ResponseOf<typeof IncomingDepositSchema>;

/** `GET /api/operator/incoming`: the unmatched deposits, newest first. */
export type OperatorIncomingResponse = ResponseOf<typeof OperatorIncomingResponseSchema>;

/** The unmatched deposits a page of the console's queue lists. */
export const INCOMING_PAGE = 20;

/** `GET /api/operator/orders/{id}`: everything an operator needs to act on one order. */
export type OperatorOrderResponse = ResponseOf<typeof OperatorOrderResponseSchema>;

/** One message of an order's chat as operators read it. */
export type OperatorChatMessage = ResponseOf<typeof OperatorChatMessageSchema>;

/** `GET /api/operator/orders/{id}/chat`. */
export type OperatorChatResponse = ResponseOf<typeof OperatorChatResponseSchema>;

/** `GET /api/operator/orders/{id}/appeal`. */
export type OperatorAppealResponse = ResponseOf<typeof OperatorAppealResponseSchema>;
