/**
 * The order screens as data: which screens exist, where a history
 * card leads, how often each screen asks for its order and what it does with each status it
 * sees. The app's one order-screen hook reads this table; the screens only render. The routes of
 * the order screens are generated from `ORDER_SCREENS`.
 */
import type { OrderStatus, OrderType, PaymentMethod } from './order-status';

/** The order screens, each at `/order/{orderId}/{screen}`. */
export const ORDER_SCREENS = [
  'waiting',
  'payment',
  'bank-requisites',
  'upload-receipt',
  'complete',
  'details',
  'send-crypto',
  'sell-waiting',
  'office-waiting',
] as const;
export type OrderScreen = (typeof ORDER_SCREENS)[number];

/** The route pattern of an order screen, with `:orderId` for the router. */
export function orderScreenRoute<S extends OrderScreen>(screen: S): `/order/:orderId/${S}` {
  return `/order/:orderId/${screen}`;
}

/** The route of an order screen: `/order/{orderId}/{screen}`. */
export function orderScreenPath(orderId: string, screen: OrderScreen): string {
  return `/order/${encodeURIComponent(orderId)}/${screen}`;
}

/** The part of an order that decides where it leads. */
export interface OrderRouting {
  readonly type: OrderType;
  readonly status: OrderStatus;
  readonly paymentMethod: PaymentMethod;
}

/** One row of the history-card table: the statuses it names, narrowed by type or method. */
export interface HistoryCardRow {
  readonly statuses: readonly OrderStatus[];
  readonly type?: OrderType;
  readonly paymentMethod?: PaymentMethod;
  readonly target: OrderScreen;
}

/**
 * Where a history card leads, row by row; the first matching row wins. REQUISITES_READY leads by
 * method (bank-requisites for BANK_ACCOUNT, office-waiting for OFFICE, otherwise payment).
 */
export const HISTORY_CARD_TABLE: readonly HistoryCardRow[] = [
  { statuses: ['WAITING_REQUISITES'], target: 'waiting' },
  { statuses: ['OFFICE_PENDING', 'OFFICE_READY'], target: 'office-waiting' },
  { statuses: ['REQUISITES_READY'], paymentMethod: 'BANK_ACCOUNT', target: 'bank-requisites' },
  { statuses: ['REQUISITES_READY'], paymentMethod: 'OFFICE', target: 'office-waiting' },
  { statuses: ['REQUISITES_READY'], target: 'payment' },
  { statuses: ['PAYMENT_PENDING', 'PAYMENT_STARTED'], target: 'upload-receipt' },
  { statuses: ['RECEIPT_UPLOADED', 'PAYMENT_CONFIRMED'], target: 'complete' },
  { statuses: ['WAITING_CRYPTO'], type: 'SELL', target: 'send-crypto' },
  { statuses: ['TX_PENDING', 'TX_CONFIRMED'], type: 'SELL', target: 'sell-waiting' },
  { statuses: ['COMPLETED', 'CANCELLED', 'REJECTED'], target: 'details' },
];

function narrows(
  row: { readonly type?: OrderType; readonly paymentMethod?: PaymentMethod },
  order: OrderRouting,
): boolean {
  return (
    (row.type === undefined || row.type === order.type) &&
    (row.paymentMethod === undefined || row.paymentMethod === order.paymentMethod)
  );
}

/**
 * Where a history card leads. A status the table does not name for the order's type (a BUY in
 * WAITING_CRYPTO, say) opens the read-only details.
 */
export function historyCardTarget(order: OrderRouting): OrderScreen {
  const row = HISTORY_CARD_TABLE.find(
    (r) => r.statuses.includes(order.status) && narrows(r, order),
  );
  return row?.target ?? 'details';
}

/** Where a screen sends the customer: another screen of the same order, the landing or My orders. */
export type OrderScreenDestination = OrderScreen | '/' | '/my-orders';

/**
 * The alerts a screen shows before it leaves: keys of the dictionary's `errors` section, or
 * `ended`: why the order ended and what happens to money already paid or sent (an order that
 * ends while the customer looks at it says so, never silently moves to a list).
 */
export type OrderScreenAlert = 'orderRejected' | 'orderCancelled' | 'ended';

/** One row of a screen's rules: when the polled order matches it, the screen leaves. */
export interface OrderScreenRule {
  readonly statuses: readonly OrderStatus[];
  readonly type?: OrderType;
  readonly paymentMethod?: PaymentMethod;
  /** Only when the order already carries its requisites. */
  readonly withRequisites?: true;
  /** Only for the first answer after the screen opened ("on load"). */
  readonly onLoad?: true;
  readonly go: OrderScreenDestination;
  /** Shown (and dismissed) before going. */
  readonly alert?: OrderScreenAlert;
  /** The order is handed to the next screen as navigation state, so it shows at once. */
  readonly passOrder?: true;
}

export interface OrderScreenBehaviour {
  /** How often the order is asked for, in ms; null: once, when the screen opens. */
  readonly pollMs: number | null;
  /** When the first call is made, if not at once. */
  readonly firstPollMs?: number;
  /**
   * What a failed call does: 'retry' logs it and asks again on the next poll,
   * 'alert' tells the customer (the read-only details, asked once).
   */
  readonly onFailure: 'retry' | 'alert';
  /** The first time the order is seen in one of these statuses, a success haptic fires. */
  readonly successHaptic?: readonly OrderStatus[];
  /** Row by row, the first match wins; a status no row names keeps the screen as it is. */
  readonly rules: readonly OrderScreenRule[];
}

const ENDED: readonly OrderStatus[] = ['REJECTED', 'CANCELLED'];

/**
 * Each order screen's polling and redirects. Every redirect replaces the current entry, so back
 * does not return to a screen that has already moved on. A screen goes on as its order does: to
 * complete once it is COMPLETED, from send-crypto to sell-waiting once the hash is in, to My
 * orders once a sell has ended.
 */
export const ORDER_SCREEN_TABLE: Readonly<Record<OrderScreen, OrderScreenBehaviour>> = {
  waiting: {
    pollMs: 2_000,
    firstPollMs: 500,
    onFailure: 'retry',
    rules: [
      {
        statuses: ['REQUISITES_READY'],
        withRequisites: true,
        paymentMethod: 'BANK_ACCOUNT',
        go: 'bank-requisites',
      },
      { statuses: ['REQUISITES_READY'], withRequisites: true, go: 'payment', passOrder: true },
      { statuses: ENDED, go: '/my-orders', alert: 'ended' },
    ],
  },
  payment: {
    pollMs: 5_000,
    onFailure: 'retry',
    rules: [
      // Ended before the screen first saw it: the order-rejected alert.
      { statuses: ENDED, onLoad: true, go: '/', alert: 'orderRejected' },
      { statuses: ['REJECTED'], go: '/', alert: 'orderRejected' },
      { statuses: ['CANCELLED'], go: '/', alert: 'ended' },
      { statuses: ['COMPLETED'], go: 'complete' },
    ],
  },
  'bank-requisites': {
    pollMs: 3_000,
    onFailure: 'retry',
    rules: [{ statuses: ENDED, go: '/my-orders', alert: 'ended' }],
  },
  'upload-receipt': {
    pollMs: 5_000,
    onFailure: 'retry',
    rules: [
      { statuses: ['REJECTED'], go: '/', alert: 'orderRejected' },
      { statuses: ['COMPLETED'], go: 'complete' },
    ],
  },
  complete: {
    pollMs: 3_000,
    onFailure: 'retry',
    successHaptic: ['COMPLETED', 'PAYMENT_CONFIRMED'],
    rules: [{ statuses: ['REJECTED'], go: '/', alert: 'orderRejected' }],
  },
  details: { pollMs: null, onFailure: 'alert', rules: [] },
  'send-crypto': {
    pollMs: 3_000,
    onFailure: 'retry',
    rules: [
      { statuses: ['TX_PENDING', 'TX_CONFIRMED'], go: 'sell-waiting' },
      { statuses: ['COMPLETED'], go: 'complete' },
      { statuses: ENDED, go: '/my-orders', alert: 'ended' },
    ],
  },
  'sell-waiting': {
    pollMs: 3_000,
    onFailure: 'retry',
    rules: [
      { statuses: ['COMPLETED'], go: 'complete' },
      { statuses: ENDED, go: '/my-orders', alert: 'ended' },
    ],
  },
  'office-waiting': {
    pollMs: 2_000,
    onFailure: 'retry',
    rules: [
      { statuses: ENDED, go: '/my-orders', alert: 'ended' },
      { statuses: ['COMPLETED'], go: 'complete' },
    ],
  },
};

/** What a screen needs to know of an order to pick its rule. */
export interface OrderForRules extends OrderRouting {
  readonly requisites: unknown;
}

/**
 * The rule of `screen` that an answer showing `order` triggers, or undefined when the screen
 * stays. `firstAnswer` is true for the first answer after the screen opened.
 */
export function orderScreenRule(
  screen: OrderScreen,
  order: OrderForRules,
  firstAnswer: boolean,
): OrderScreenRule | undefined {
  return ORDER_SCREEN_TABLE[screen].rules.find(
    (rule) =>
      rule.statuses.includes(order.status) &&
      narrows(rule, order) &&
      (rule.withRequisites !== true ||
        (order.requisites !== null && order.requisites !== undefined)) &&
      (rule.onLoad !== true || firstAnswer),
  );
}

/** The path a rule's destination names for an order. */
export function destinationPath(orderId: string, go: OrderScreenDestination): string {
  return go === '/' || go === '/my-orders' ? go : orderScreenPath(orderId, go);
}
