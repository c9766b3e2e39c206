/**
 * The operators' queue as data: each group is the orders waiting for one operator
 * action of the transition table, so a status that the table lets an operator move is in exactly
 * the group of that action; `flagged` holds the orders the sweeper or a reused receipt marked for
 * a person, whatever their status. The server fills the groups, the console shows them.
 */
import { OPERATOR_USUAL_ANSWER_MS } from './limits';
import type { OrderAction, OrderStatus } from './order-status';
import {
  ACTIVE_STATUSES,
  PAID_STATUSES,
  WAITING_FOR_OPERATOR,
  findTransition,
} from './order-status';

export const QUEUE_GROUPS = [
  // Open appeals head the queue, oldest first: a senior operator decides them.
  'appeals',
  'requisites',
  'officeInstructions',
  'receipts',
  'transactions',
  'payouts',
  'flagged',
] as const;
export type QueueGroup = (typeof QUEUE_GROUPS)[number];

/** The operator action each group waits for; payouts are the completions where money leaves us. */
const GROUP_ACTIONS: Readonly<
  Record<
    Exclude<QueueGroup, 'flagged' | 'appeals'>,
    { readonly action: OrderAction; readonly only?: readonly OrderStatus[] }
  >
> = {
  requisites: { action: 'giveRequisites' },
  officeInstructions: { action: 'giveOfficeInstructions' },
  receipts: { action: 'operatorConfirmPayment' },
  transactions: { action: 'confirmIncomingTx' },
  // An office buy in OFFICE_READY waits for its customer at the office, not for a payout.
  payouts: { action: 'complete', only: ['PAYMENT_CONFIRMED', 'TX_CONFIRMED'] },
};

/**
 * The statuses of a group's orders (none for `flagged`, which goes by the flag, nor for
 * `appeals`, which goes by the open appeal).
 */
export function queueGroupStatuses(group: QueueGroup): readonly OrderStatus[] {
  if (group === 'flagged' || group === 'appeals') return [];
  const { action, only } = GROUP_ACTIONS[group];
  const from = findTransition(action, 'operator')?.from ?? [];
  return only === undefined ? from : from.filter((status) => only.includes(status));
}

/** How many rows of each group the queue answer carries (the count covers them all). */
export const QUEUE_GROUP_ROWS = 50;

/** Why an order is flagged for a person. */
export const ORDER_FLAGS = ['paidLate', 'reusedReceipt', 'waitingTooLong'] as const;
export type OrderFlag = (typeof ORDER_FLAGS)[number];

/** What decides an order's flags, from the order and whether its receipt is on another order. */
export interface FlagInput {
  readonly status: OrderStatus;
  /** Epoch ms. */
  readonly createdAt: number;
  readonly expiresAt: number | null;
  readonly reusedReceipt: boolean;
}

/**
 * Why an active order needs a person at `now`: paid or sent past its deadline (it never expires
 * by itself), the same receipt on another order, or still waiting for an operator after the usual
 * 10 minutes. The same rules the sweeper flags with; a flag goes once its cause does.
 */
export function orderFlags(order: FlagInput, now: number): readonly OrderFlag[] {
  if (!ACTIVE_STATUSES.includes(order.status)) return [];
  const flags: OrderFlag[] = [];
  if (PAID_STATUSES.includes(order.status) && order.expiresAt !== null && order.expiresAt <= now) {
    flags.push('paidLate');
  }
  if (order.reusedReceipt) flags.push('reusedReceipt');
  if (
    WAITING_FOR_OPERATOR.includes(order.status) &&
    order.createdAt <= now - OPERATOR_USUAL_ANSWER_MS
  ) {
    flags.push('waitingTooLong');
  }
  return flags;
}
