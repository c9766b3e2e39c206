/**
 * The operators' calls under /api/operator/ (issue 11): paths, and the answers the console reads.
 * Bodies are the schemas of src/shared/schemas/operator.ts.
 */
import type { OrderDetails, OrderSummary, BankRequisites, OfficeInfo } from './api';
import type { NotificationKind, NotificationStatus } from './notifications';
import type { CryptoCurrency, NetworkId } from './networks';
import type { Actor, OrderStatus, OrderType, PaymentMethod } from './order-status';
import type { OrderFlag, QueueGroup } from './operator-queue';

export const OPERATOR_PATHS = {
  queue: '/api/operator/queue',
  orders: '/api/operator/orders',
  order: (id: string) => `/api/operator/orders/${encodeURIComponent(id)}`,
  receipt: (id: string, receiptId: string) =>
    `/api/operator/orders/${encodeURIComponent(id)}/receipts/${encodeURIComponent(receiptId)}`,
  requisites: (id: string) => `/api/operator/orders/${encodeURIComponent(id)}/requisites`,
  officeInstructions: (id: string) =>
    `/api/operator/orders/${encodeURIComponent(id)}/office-instructions`,
  confirmPayment: (id: string) => `/api/operator/orders/${encodeURIComponent(id)}/confirm-payment`,
  confirmTx: (id: string) => `/api/operator/orders/${encodeURIComponent(id)}/confirm-tx`,
  attachDeposit: (id: string) => `/api/operator/orders/${encodeURIComponent(id)}/attach-deposit`,
  incoming: '/api/operator/incoming',
  complete: (id: string) => `/api/operator/orders/${encodeURIComponent(id)}/complete`,
  reject: (id: string) => `/api/operator/orders/${encodeURIComponent(id)}/reject`,
  rates: '/api/operator/rates',
  spreads: '/api/operator/spreads',
} as const;

/** What an operator can change: the actions on an order, and the PUTs of rates and spreads. */
export type OperatorWrite = Exclude<
  keyof typeof OPERATOR_PATHS,
  'queue' | 'orders' | 'order' | 'receipt' | 'incoming'
>;

/**
 * Which operator writes move money (issue 21, item 2), and so want init data at most
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
  /** The base rate every customer is quoted. */
  rates: true,
  /** The spread every customer is quoted. */
  spreads: true,
};

/** `GET /api/operator/rates` (and the answer of each change): base rates and spreads, who set each. */
export interface OperatorRatesResponse {
  readonly rates: readonly {
    readonly fiat: string;
    readonly crypto: CryptoCurrency;
    /** Fiat per coin. */
    readonly baseRate: number;
    readonly updatedAt: string;
    /** The operator's Telegram id; null for the seed. */
    readonly updatedBy: number | null;
  }[];
  readonly spreads: readonly {
    readonly paymentMethod: PaymentMethod;
    readonly operation: OrderType;
    /** Basis points: 150 = 1.5 %. */
    readonly spreadBp: number;
    readonly updatedAt: string;
    readonly updatedBy: number | null;
  }[];
}

/** `GET /api/me`: who the caller is, and whether the console is theirs. */
export interface MeResponse {
  readonly telegramId: number;
  readonly firstName: string;
  readonly operator: boolean;
}

/** The customer of an order as operators see them. */
export interface OperatorCustomer {
  readonly telegramId: number;
  readonly firstName: string;
  readonly lastName: string | null;
  readonly username: string | null;
}

/** One row of the queue or of a search: the order, its customer, its deadline and its flags. */
export interface OperatorOrderRow extends OrderSummary {
  readonly customer: OperatorCustomer;
  /** The deadline that matters now: the office's reservation, else `expiresAt`; null without one. */
  readonly deadline: string | null;
  readonly flags: readonly OrderFlag[];
}

/** `GET /api/operator/queue`: every group, most urgent first, with its full count. */
export interface OperatorQueueResponse {
  readonly groups: readonly {
    readonly group: QueueGroup;
    readonly count: number;
    readonly orders: readonly OperatorOrderRow[];
  }[];
  readonly serverTime: string;
}

/** `GET /api/operator/orders?…`: a page of a search or filter, newest first. */
export interface OperatorOrdersResponse {
  readonly orders: readonly OperatorOrderRow[];
  readonly hasMore: boolean;
}

export interface OperatorEvent {
  readonly from: OrderStatus | null;
  readonly to: OrderStatus;
  readonly actor: Actor;
  readonly actorId: number | null;
  readonly reason: string | null;
  readonly at: string;
}

export interface OperatorReceipt {
  readonly id: string;
  readonly fileName: string;
  readonly mimeType: string;
  readonly sizeBytes: number;
  readonly sha256: string;
  readonly uploadedAt: string;
  /** Other orders that carry the same file. */
  readonly alsoOn: readonly string[];
}

/**
 * The operator id the demo's autopilot acts as (issue 13): no Telegram user has it, so the audit
 * trail tells its steps from a person's.
 */
export const AUTOPILOT_OPERATOR_ID = 1;

/**
 * A message the bot sent, or will send, about the order (the outbox): in demo mode, what the
 * customer would have received.
 */
export interface OperatorMessage {
  readonly id: number;
  readonly to: 'customer' | 'operators';
  readonly kind: NotificationKind;
  readonly status: NotificationStatus;
  /** As the recipient reads it, without Telegram's formatting. */
  readonly text: string;
  readonly buttons: readonly { readonly text: string; readonly url: string }[];
  readonly attempts: number;
  /** Why it was not sent (yet): Telegram's answer, or demo mode. */
  readonly lastError: string | null;
  readonly createdAt: string;
  readonly sentAt: string | null;
}

/**
 * A transfer to a deposit address that no submitted hash names and that matched no single sell
 * waiting for its deposit (issue 23, "Deposits without a hash"): for an operator to attach.
 */
export interface IncomingDeposit {
  readonly network: NetworkId;
  readonly txHash: string;
  readonly coin: CryptoCurrency;
  /** In coins, as a decimal string: exact, whatever the token's decimals. */
  readonly amount: string;
  readonly sender: string;
  readonly blockNumber: number | null;
  readonly seenAt: string;
  /** How many waiting sells it could have been when seen: 0, or more than one. */
  readonly candidates: number;
}

/** `GET /api/operator/incoming`: the unmatched deposits, newest first. */
export interface OperatorIncomingResponse {
  readonly deposits: readonly IncomingDeposit[];
  /** Whether older ones follow (the next page's offset is the count read so far). */
  readonly hasMore: boolean;
}

/** The unmatched deposits a page of the console's queue lists. */
export const INCOMING_PAGE = 20;

/** `GET /api/operator/orders/{id}`: everything an operator needs to act on one order. */
export interface OperatorOrderResponse {
  readonly order: OrderDetails;
  readonly customer: OperatorCustomer & {
    readonly languageCode: string | null;
    readonly firstSeenAt: string;
    readonly orderCount: number;
  };
  /** The deadline that matters now (`orderDeadline`): null without one, and for a final order. */
  readonly deadline: string | null;
  /** When a final order ended: the time of its final event; null while it is active. */
  readonly endedAt: string | null;
  readonly flags: readonly OrderFlag[];
  /** The card a sell pays out to. */
  readonly payoutCard: {
    readonly cardNumber: string;
    readonly cardHolder: string;
    readonly bankName: string;
    readonly phone?: string;
    readonly comment?: string;
  } | null;
  readonly events: readonly OperatorEvent[];
  readonly receipts: readonly OperatorReceipt[];
  /** An office buy: the offices of its city, to give instructions for. */
  readonly offices: readonly OfficeInfo[];
  /** A bank buy: the configured default account, to prefill its requisites. */
  readonly defaultBankAccount: BankRequisites | null;
  /** The bot's messages about the order, oldest first. */
  readonly messages: readonly OperatorMessage[];
  /**
   * Whether a sell's deposit on this order's network is checked on the chain (a node is
   * configured); false: an operator checks it in an explorer, as before (issue 23).
   */
  readonly chainChecked: boolean;
  /**
   * A sell waiting for its deposit on a network read from a node: the unmatched deposits of its
   * network and coin, newest first, to attach one as its deposit; empty otherwise.
   */
  readonly incoming: readonly IncomingDeposit[];
}
