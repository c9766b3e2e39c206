/**
 * The messages an order's events cause, written to the outbox in the event's own transaction:
 * which status tells the customer or alerts the operators (the tables below, read by
 * `recordTransition` for every status change the transition function commits), and the flags
 * that put an order in front of the operators.
 */
import type { Transaction } from 'kysely';
import type { Language } from '../../shared/api';
import type {
  AddressAlert,
  CustomerNotice,
  NotificationKind,
  OrderAlert,
} from '../../shared/notifications';
import type { Actor, OrderStatus } from '../../shared/order-status';
import type { Database, OrderRow } from '../platform/db/schema';
import { preferredLanguage } from '../platform/i18n';
import {
  customerRecipient,
  enqueue,
  enqueueAll,
  OPERATORS_RECIPIENT,
  type Notification,
} from '../platform/outbox';
import { orderFacts, type NotificationFacts } from './order-facts';
import { flagOrder } from './order-store';

/** What the customer is told of a status an operator or the system moved their order to. */
const STATUS_NOTICES: Partial<Record<OrderStatus, CustomerNotice>> = {
  REQUISITES_READY: 'requisites_ready',
  OFFICE_READY: 'office_ready',
  PAYMENT_CONFIRMED: 'payment_confirmed',
  TX_CONFIRMED: 'tx_confirmed',
  COMPLETED: 'completed',
  REJECTED: 'rejected',
  CANCELLED: 'cancelled',
};

/**
 * The statuses whose notice an appeal's decision replaces: a rejection that refunds or upholds is
 * told by the decision's message (its wording, the senior's words), not by the ordinary rejection's,
 * whose "write to support about money already paid" the decision has answered. A completion keeps
 * its own notice beside the decision: it carries the payout's hash or the card paid.
 */
const TOLD_BY_APPEAL_DECISION: readonly OrderStatus[] = ['REJECTED'];

/** What the operators are alerted to of a status a customer moved their order to. */
const STATUS_ALERTS: Partial<Record<OrderStatus, OrderAlert>> = {
  TX_PENDING: 'tx_submitted',
};

/** The language each customer is written to in (preferredLanguage), read at once. */
async function customerLanguages(
  trx: Transaction<Database>,
  telegramIds: readonly number[],
): Promise<(telegramId: number) => Language> {
  const users = await trx
    .selectFrom('users')
    .select(['telegram_id', 'language', 'language_code'])
    .where('telegram_id', 'in', [...new Set(telegramIds)])
    .execute();
  const known = new Map(
    users.map((user) => [user.telegram_id, preferredLanguage(user.language, user.language_code)]),
  );
  return (telegramId) => known.get(telegramId) ?? preferredLanguage(undefined, undefined);
}

/** What a message about an order is for: its event (with the recipient, its unique key), when, and facts beyond the order's own. */
type OrderMessage = [event: string, now: number, extra?: Partial<NotificationFacts>];

/** Writes a message about `order` to `to`, with the order's facts as they are now. */
async function aboutOrder(
  trx: Transaction<Database>,
  kind: Exclude<NotificationKind, AddressAlert>,
  order: OrderRow,
  to: Pick<Notification, 'recipient' | 'language'>,
  ...[event, now, extra = {}]: OrderMessage
): Promise<void> {
  const facts = { ...(await orderFacts(trx, order, kind)), ...extra };
  await enqueue(trx, { kind, ...to, event, orderId: order.id, facts }, now);
}

/** Tells the customer of an order. */
export async function notifyCustomer(
  trx: Transaction<Database>,
  kind: CustomerNotice,
  order: OrderRow,
  ...message: OrderMessage
): Promise<void> {
  const languageOf = await customerLanguages(trx, [order.user_id]);
  await aboutOrder(
    trx,
    kind,
    order,
    { recipient: customerRecipient(order.user_id), language: languageOf(order.user_id) },
    ...message,
  );
}

/**
 * Flags an order for operators (its `needs_attention`) and alerts their chat about it, once per
 * `event`, in the caller's transaction.
 */
export async function flagForOperators(
  trx: Transaction<Database>,
  orderId: string,
  kind: OrderAlert,
  event: string,
  now: number,
  extra: Partial<NotificationFacts> = {},
): Promise<void> {
  const order = await flagOrder(trx, orderId);
  await alertOperators(trx, kind, order, event, now, extra);
}

/**
 * Flags `orderId` and the orders `elsewhere` that share something with it (a receipt file, a
 * hash), each alert naming the others; `eventOf` keys each order's alert. Sorted: two requests
 * flagging the same orders lock them in the same order.
 */
export async function flagTogether(
  trx: Transaction<Database>,
  orderId: string,
  elsewhere: readonly string[],
  alert: {
    readonly kind: OrderAlert;
    readonly eventOf: (id: string) => string;
    readonly extra?: Partial<NotificationFacts>;
  },
  now: number,
): Promise<void> {
  if (elsewhere.length === 0) return;
  const orderIds = [...new Set([orderId, ...elsewhere])].sort();
  for (const id of orderIds) {
    await flagForOperators(trx, id, alert.kind, alert.eventOf(id), now, {
      ...alert.extra,
      otherOrderIds: orderIds.filter((other) => other !== id),
    });
  }
}

/** Alerts the operators' chat about an order. */
export async function alertOperators(
  trx: Transaction<Database>,
  kind: OrderAlert,
  order: OrderRow,
  ...message: OrderMessage
): Promise<void> {
  await aboutOrder(
    trx,
    kind,
    order,
    { recipient: OPERATORS_RECIPIENT, language: null },
    ...message,
  );
}

/**
 * The messages of one status change, written by the transition function in its transaction:
 * the customer hears of what an operator or the system did to their order (not of what they did
 * themselves, nor of their own cancel), the operators of what a customer did. Statuses only move
 * forward, so (order, status reached) names the event. Several orders moved alike at once (a
 * job's batch) have their messages written together.
 */
export async function recordTransition(
  trx: Transaction<Database>,
  change: {
    readonly orders: readonly OrderRow[];
    readonly to: OrderStatus;
    readonly actor: Actor;
    /** The change is an appeal's decision, which its own message tells the customer. */
    readonly decidesAppeal: boolean;
  },
  now: number,
): Promise<void> {
  const { orders, to, actor } = change;
  const eventOf = (order: OrderRow) => `status:${order.id}:${to}`;
  const notice = STATUS_NOTICES[to];
  const toldByDecision = change.decidesAppeal && TOLD_BY_APPEAL_DECISION.includes(to);
  if (notice !== undefined && actor !== 'customer' && !toldByDecision) {
    const languageOf = await customerLanguages(
      trx,
      orders.map((order) => order.user_id),
    );
    const notices: Notification[] = [];
    for (const order of orders) {
      notices.push({
        kind: notice,
        recipient: customerRecipient(order.user_id),
        language: languageOf(order.user_id),
        event: eventOf(order),
        orderId: order.id,
        facts: await orderFacts(trx, order, notice),
      });
    }
    await enqueueAll(trx, notices, now);
  }
  const alert = STATUS_ALERTS[to];
  if (alert !== undefined && actor === 'customer') {
    for (const order of orders) await alertOperators(trx, alert, order, eventOf(order), now);
  }
}
