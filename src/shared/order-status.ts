/**
 * Order statuses and who may move an order between them (docs/architecture.md, "An order's
 * life"). This file is the only place that says which change is allowed; the server applies
 * it, the client only reads it. Where each status leads on the order screens: order-screens.ts.
 */

/** Every status, in the order an order usually meets them. */
export const ORDER_STATUSES = [
  'WAITING_REQUISITES',
  'REQUISITES_READY',
  'PAYMENT_PENDING',
  'PAYMENT_STARTED',
  'RECEIPT_UPLOADED',
  'PAYMENT_CONFIRMED',
  'WAITING_CRYPTO',
  'TX_PENDING',
  'TX_CONFIRMED',
  'COMPLETED',
  'CANCELLED',
  'REJECTED',
  'OFFICE_PENDING',
  'OFFICE_READY',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_TYPES = ['BUY', 'SELL'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const PAYMENT_METHODS = ['P2P', 'BANK_ACCOUNT', 'OFFICE'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Statuses after which nothing changes any more. */
export const FINAL_STATUSES: readonly OrderStatus[] = ['COMPLETED', 'CANCELLED', 'REJECTED'];

/** Everything that is not final: what `GET /api/orders/active` and the 'active' history tab show. */
export const ACTIVE_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.filter(
  (s) => !FINAL_STATUSES.includes(s),
);

export function isFinalStatus(status: OrderStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

/**
 * Who causes a change: the customer in the app, an operator in the staff API, the server's own
 * jobs, or the chain checker on what a node said (so that the audit trail tells a transaction
 * confirmed by the chain from one an operator confirmed by hand).
 */
export type Actor = 'customer' | 'operator' | 'system' | 'chain';

/** The named actions that change a status; each maps to one call or job. */
export type OrderAction =
  | 'cancel'
  | 'confirmPayment'
  | 'uploadReceipt'
  | 'submitTxHash'
  | 'attachDeposit'
  | 'confirmOfficeReceipt'
  | 'giveRequisites'
  | 'giveOfficeInstructions'
  | 'operatorConfirmPayment'
  | 'confirmIncomingTx'
  | 'complete'
  | 'reject'
  | 'expire';

export interface Transition {
  readonly action: OrderAction;
  readonly actor: Actor;
  readonly from: readonly OrderStatus[];
  readonly to: OrderStatus;
}

/**
 * Statuses a customer may cancel from: before any money moved.
 * The same set, minus the ones with no deadline, is what the sweeper may expire.
 */
export const CUSTOMER_CANCELLABLE: readonly OrderStatus[] = [
  'WAITING_REQUISITES',
  'REQUISITES_READY',
  'OFFICE_PENDING',
  'OFFICE_READY',
  'WAITING_CRYPTO',
];

/**
 * Statuses whose stored deadline (`expiresAt`, or `reservedUntil` at the office) cancels the order
 * when it passes, whether or not the app is open: the payment or the crypto not sent in time, and
 * an operator's answer (requisites, office instructions) not given in time.
 */
export const EXPIRABLE_STATUSES: readonly OrderStatus[] = [
  'WAITING_REQUISITES',
  'OFFICE_PENDING',
  'REQUISITES_READY',
  'OFFICE_READY',
  'WAITING_CRYPTO',
];

/**
 * Statuses in which the customer has already said they paid or sent crypto: past its deadline
 * such an order never expires by itself; it is flagged for a person.
 */
export const PAID_STATUSES: readonly OrderStatus[] = [
  'PAYMENT_PENDING',
  'PAYMENT_STARTED',
  'RECEIPT_UPLOADED',
  'TX_PENDING',
];

/**
 * Statuses in which the customer has yet to pay or send the crypto before a deadline: the bot
 * reminds them shortly before it.
 */
export const AWAITING_PAYMENT: readonly OrderStatus[] = ['REQUISITES_READY', 'WAITING_CRYPTO'];

/** Statuses that wait for an operator: past their deadline, nobody answered in time. */
export const WAITING_FOR_OPERATOR: readonly OrderStatus[] = [
  'WAITING_REQUISITES',
  'OFFICE_PENDING',
];

/**
 * Why an order was cancelled (a rejected order has its own reason): the customer cancelled it,
 * its deadline passed (judged by the server's clock, whoever asked), or no operator answered in
 * time. The customer reads it in their language.
 */
export const CANCEL_REASONS = ['customer', 'expired', 'no_operator'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/**
 * The deadline an order in its status must meet: the office's reservation while the office waits
 * (OFFICE_READY), else `expiresAt`; null for a final order, which has no deadline left whatever
 * its stored fields still say. One rule for the server (the sweeper's reasons, the console, the
 * bot's messages) and the app.
 */
export function orderDeadline<T>(order: {
  readonly status: OrderStatus;
  readonly expiresAt: T | null;
  readonly reservedUntil: T | null;
}): T | null {
  if (isFinalStatus(order.status)) return null;
  return order.status === 'OFFICE_READY' ? order.reservedUntil : order.expiresAt;
}

/** The reason of a cancellation at `now` of an order in `status` whose deadline is `deadline`. */
export function cancelReason(
  status: OrderStatus,
  deadline: number | null,
  now: number,
): CancelReason {
  if (deadline === null || deadline > now || !EXPIRABLE_STATUSES.includes(status))
    return 'customer';
  return WAITING_FOR_OPERATOR.includes(status) ? 'no_operator' : 'expired';
}

/** What an action does, whoever takes it: the statuses it moves an order from, and to. */
interface ActionRule {
  /** Who may take it. */
  readonly by: readonly Actor[];
  readonly from: readonly OrderStatus[];
  readonly to: OrderStatus;
}

/**
 * The transition table, by action: an action leads from the same statuses to the same one
 * whoever takes it. No action enters PAYMENT_STARTED; orders in it (from imported data) are
 * handled like PAYMENT_PENDING.
 */
const ACTION_RULES: Readonly<Record<OrderAction, ActionRule>> = {
  cancel: { by: ['customer'], from: CUSTOMER_CANCELLABLE, to: 'CANCELLED' },
  confirmPayment: { by: ['customer'], from: ['REQUISITES_READY'], to: 'PAYMENT_PENDING' },
  // A receipt is proof of payment even when the 'I have paid' call failed (the
  // P2P screen goes on to the receipt anyway), so it is taken from REQUISITES_READY too.
  uploadReceipt: {
    by: ['customer'],
    from: ['REQUISITES_READY', 'PAYMENT_PENDING', 'PAYMENT_STARTED'],
    to: 'RECEIPT_UPLOADED',
  },
  submitTxHash: { by: ['customer'], from: ['WAITING_CRYPTO'], to: 'TX_PENDING' },
  // A transfer to the deposit address without its hash, attached as the order's deposit: by the
  // chain when it matches this order alone (chain/chain-scan.ts), else by an operator.
  attachDeposit: { by: ['chain', 'operator'], from: ['WAITING_CRYPTO'], to: 'TX_PENDING' },
  confirmOfficeReceipt: { by: ['customer'], from: ['OFFICE_READY'], to: 'COMPLETED' },
  giveRequisites: { by: ['operator'], from: ['WAITING_REQUISITES'], to: 'REQUISITES_READY' },
  giveOfficeInstructions: { by: ['operator'], from: ['OFFICE_PENDING'], to: 'OFFICE_READY' },
  operatorConfirmPayment: {
    by: ['operator'],
    from: ['PAYMENT_PENDING', 'PAYMENT_STARTED', 'RECEIPT_UPLOADED'],
    to: 'PAYMENT_CONFIRMED',
  },
  // The chain's confirmation: the seller's deposit reached its network's confirmations
  // (chain/chain-checker.ts).
  confirmIncomingTx: {
    by: ['operator', 'system', 'chain'],
    from: ['TX_PENDING'],
    to: 'TX_CONFIRMED',
  },
  complete: {
    by: ['operator'],
    from: ['PAYMENT_CONFIRMED', 'TX_CONFIRMED', 'OFFICE_READY'],
    to: 'COMPLETED',
  },
  reject: { by: ['operator'], from: ACTIVE_STATUSES, to: 'REJECTED' },
  expire: { by: ['system'], from: EXPIRABLE_STATUSES, to: 'CANCELLED' },
};

/** The transition table as rows, one per action and actor, in the order of ACTION_RULES. */
export const TRANSITIONS: readonly Transition[] = (
  Object.keys(ACTION_RULES) as OrderAction[]
).flatMap((action) => {
  const { by, from, to } = ACTION_RULES[action];
  return by.map((actor) => ({ action, actor, from, to }));
});

/**
 * A customer action repeated on an order already past it (a double tap on 'I have paid')
 * succeeds without a second change: the statuses that count as "already done".
 * Where the action carries data (a transaction hash), it is only "already done" when the order
 * holds the same data; the transition function asks the caller.
 */
export const ALREADY_DONE: Partial<Record<OrderAction, readonly OrderStatus[]>> = {
  cancel: ['CANCELLED'],
  confirmPayment: [
    'PAYMENT_PENDING',
    'PAYMENT_STARTED',
    'RECEIPT_UPLOADED',
    'PAYMENT_CONFIRMED',
    'COMPLETED',
  ],
  submitTxHash: ['TX_PENDING', 'TX_CONFIRMED', 'COMPLETED'],
  confirmOfficeReceipt: ['COMPLETED'],
};

/**
 * Statuses in which an action is still taken without a status change. A further receipt on an
 * order already RECEIPT_UPLOADED (a second page, a double tap racing the first) or already
 * PAYMENT_CONFIRMED (a receipt racing the operator's confirmation) is kept on the order for
 * operators to see: answering success for a receipt and dropping it would lose evidence.
 */
export const TAKEN_WITHOUT_CHANGE: Partial<Record<OrderAction, readonly OrderStatus[]>> = {
  uploadReceipt: ['RECEIPT_UPLOADED', 'PAYMENT_CONFIRMED'],
};

/** Whether an order in `status` still takes `action` (with or without a status change). */
export function takesAction(action: OrderAction, actor: Actor, status: OrderStatus): boolean {
  return (
    canTransition(action, actor, status) ||
    (findTransition(action, actor) !== undefined &&
      (TAKEN_WITHOUT_CHANGE[action]?.includes(status) ?? false))
  );
}

/** The transition an actor may make with an action, or undefined when the table has none. */
export function findTransition(action: OrderAction, actor: Actor): Transition | undefined {
  return TRANSITIONS.find((t) => t.action === action && t.actor === actor);
}

/** Whether `actor` may apply `action` to an order currently in `from`. */
export function canTransition(action: OrderAction, actor: Actor, from: OrderStatus): boolean {
  return findTransition(action, actor)?.from.includes(from) ?? false;
}

/** The display-label key of each status (the dictionary's `statusLabels`). */
export const STATUS_LABEL_KEYS = {
  WAITING_REQUISITES: 'waitingRequisites',
  REQUISITES_READY: 'requisitesReady',
  PAYMENT_PENDING: 'paymentPending',
  PAYMENT_STARTED: 'paymentStarted',
  RECEIPT_UPLOADED: 'receiptUploaded',
  PAYMENT_CONFIRMED: 'paymentConfirmed',
  WAITING_CRYPTO: 'waitingCrypto',
  TX_PENDING: 'txPending',
  TX_CONFIRMED: 'txConfirmed',
  COMPLETED: 'completed',
  CANCELLED: 'cancelled',
  REJECTED: 'rejected',
  OFFICE_PENDING: 'officePending',
  OFFICE_READY: 'officeWaiting',
} as const satisfies Record<OrderStatus, string>;

/**
 * The statuses in which the order waits for its customer, not for us, and what they must do:
 * the history sets them apart from those where the customer only waits.
 */
export const CUSTOMER_ACTIONS = {
  REQUISITES_READY: 'pay',
  PAYMENT_PENDING: 'uploadReceipt',
  PAYMENT_STARTED: 'uploadReceipt',
  WAITING_CRYPTO: 'send',
  OFFICE_READY: 'visitOffice',
} as const satisfies Partial<Record<OrderStatus, string>>;
export type CustomerAction = (typeof CUSTOMER_ACTIONS)[keyof typeof CUSTOMER_ACTIONS];

/** What the customer must do for an order in `status`, or undefined when they only wait. */
export function customerAction(status: OrderStatus): CustomerAction | undefined {
  return status in CUSTOMER_ACTIONS
    ? CUSTOMER_ACTIONS[status as keyof typeof CUSTOMER_ACTIONS]
    : undefined;
}
