/** The messages an order's events cause, written to the outbox in the event's own transaction. */
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

/** The customer hears of what an operator or the system did to their order. */
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
 * A rejection an appeal decides is told by the decision's message instead. A completion keeps its
 * own beside the decision: it carries the payout's hash or the card paid.
 */
const TOLD_BY_APPEAL_DECISION: readonly OrderStatus[] = ['REJECTED'];

/** The operators hear of what a customer did. */
const STATUS_ALERTS: Partial<Record<OrderStatus, OrderAlert>> = {
  TX_PENDING: 'tx_submitted',
};

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

/** An event (with the recipient, its unique key), when, and facts beyond the order's own. */
type OrderMessage = [event: string, now: number, extra?: Partial<NotificationFacts>];

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

/** Its `needs_attention` and an alert to the operators' chat, once per `event`. */
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

/** Each alert names the others; sorted, so two requests lock the same orders in the same order. */
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
 * The messages of one status change, in its transaction. Statuses only move forward, so (order,
 * status reached) names the event; a job's batch writes its messages together.
 */
export async function recordTransition(
  trx: Transaction<Database>,
  change: {
    readonly orders: readonly OrderRow[];
    readonly to: OrderStatus;
    readonly actor: Actor;
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
