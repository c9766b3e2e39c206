/**
 * The one way an order's status changes (docs/architecture.md, "The order's row"). The table in
 * src/shared says what is allowed; this function reads the
 * order, checks the table, and moves it with a conditional UPDATE … WHERE status = <what it read>,
 * writing the order_events row and the messages it causes (the outbox) in the same transaction. If another request moved the order in
 * between, the update touches no row and the action is judged again against the new status: 409
 * with the status it lost to, or 'already done' for a customer's repeated action.
 */
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { OrderActionResponse } from '../../shared/api';
import { HELD_BY_APPEAL } from '../../shared/appeals';
import type { ErrorCode } from '../../shared/errors';
import {
  ALREADY_DONE,
  ORDER_STATUSES,
  TAKEN_WITHOUT_CHANGE,
  cancelReason,
  type CancelReason,
  findTransition,
  type Actor,
  type OrderAction,
  type OrderStatus,
} from '../../shared/order-status';
import type { ServerContext } from '../platform/context';
import {
  ORDER_COLUMNS,
  type Database,
  type OrderRow,
  type OrdersTable,
} from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { recordTransition } from './order-messages';
import { actionResponse, rowDeadline } from './order-view';

export interface TransitionRequest {
  readonly orderId: string;
  readonly action: OrderAction;
  readonly actor: Actor;
  /** The Telegram id of the customer or operator; null for the system. */
  readonly actorId: number | null;
  /** Only this customer's order: another customer's order answers 404 like a missing one. */
  readonly ownerId?: number;
  readonly reason?: string | null;
  /** Fields set together with the status (requisites, deadlines, hashes…). */
  readonly patch?: Omit<Updateable<OrdersTable>, 'id' | 'status' | 'updated_at'>;
  /**
   * Runs inside the transaction once the order has moved, or was taken without a change
   * (TAKEN_WITHOUT_CHANGE): extra rows that must commit with it.
   */
  readonly alongside?: (trx: Transaction<Database>, order: OrderRow) => Promise<void>;
  /**
   * For an action that carries data (a transaction hash): whether an order already past the
   * action holds what this request sent. Only then is it answered 'already done'; otherwise
   * `conflict` is thrown, so a second, different hash is never answered as if it were kept.
   */
  readonly holdsSame?: (order: OrderRow) => boolean;
  /** The code of that refusal (409); INVALID_STATUS when not given. */
  readonly conflict?: ErrorCode;
  /**
   * Only while the order is still in this status (the one an operator saw): otherwise 409
   * INVALID_STATUS with the status it has now, so a stale view never acts.
   */
  readonly expectedStatus?: OrderStatus | undefined;
  /**
   * A senior operator's decision of the order's open appeal: the only request that may end an
   * order under appeal (HELD_BY_APPEAL); any other is refused with APPEAL_HELD.
   */
  readonly decidesAppeal?: boolean;
}

export interface TransitionResult {
  readonly order: OrderRow;
  /**
   * False when the status did not change: a repeated customer action found the order already
   * past it, or the order took the action without a change (TAKEN_WITHOUT_CHANGE).
   */
  readonly changed: boolean;
}

/**
 * A service that applies one action to an order for its caller, a customer or an operator, with
 * what the call sent (each route file answers these the same way).
 */
export type OrderActionService<Body> = (
  ctx: ServerContext,
  callerId: number,
  orderId: string,
  body: Body,
) => Promise<TransitionResult>;

/**
 * An action's route, the customer's or an operator's: the service run for the caller on the order
 * of the path, with the body the route's schema judged, answered with the status it left.
 */
export async function answerAction<Body>(
  ctx: ServerContext,
  request: {
    readonly caller: { readonly telegramId: number };
    readonly params: { readonly id: string };
    readonly body: Body;
  },
  service: OrderActionService<Body>,
): Promise<OrderActionResponse> {
  return actionResponse(
    await service(ctx, request.caller.telegramId, request.params.id, request.body),
  );
}

/**
 * APPEAL_HELD when `action` would end an order whose appeal is open: only the appeal's decision
 * does. Asked once the conditional update holds the order's row (on PostgreSQL, its lock), so
 * an appeal opened beside it (which updates the same row first) is either committed and seen
 * here, or waits and then finds the order moved; the refusal rolls the move back.
 */
async function checkNotHeld(
  trx: Transaction<Database>,
  action: OrderAction,
  orderId: string,
): Promise<void> {
  if (!HELD_BY_APPEAL.includes(action)) return;
  const open = await trx
    .selectFrom('appeals')
    .select('id')
    .where('order_id', '=', orderId)
    .where('decided_at', 'is', null)
    .executeTakeFirst();
  if (open !== undefined) throw new AppError('APPEAL_HELD');
}

/** Applies one action in a transaction of its own. */
export async function applyTransition(
  db: Kysely<Database>,
  request: TransitionRequest,
  now: number,
): Promise<TransitionResult> {
  return db.transaction().execute((trx) => applyTransitionIn(trx, request, now));
}

/**
 * Applies one action inside a transaction the caller holds (the sweeper expires a batch of orders
 * it has claimed in one).
 */
export async function applyTransitionIn(
  trx: Transaction<Database>,
  request: TransitionRequest,
  now: number,
): Promise<TransitionResult> {
  const rule = findTransition(request.action, request.actor);
  if (rule === undefined) throw new AppError('FORBIDDEN');
  // Statuses only move forward (the table has no cycle): each pass that loses the conditional
  // update found the order moved on by someone else, so there are fewer passes than statuses.
  for (let pass = 0; pass < ORDER_STATUSES.length; pass++) {
    let query = trx.selectFrom('orders').select(ORDER_COLUMNS).where('id', '=', request.orderId);
    if (request.ownerId !== undefined) query = query.where('user_id', '=', request.ownerId);
    const current = await query.executeTakeFirst();
    if (current === undefined) throw new AppError('ORDER_NOT_FOUND');
    if (request.expectedStatus !== undefined && current.status !== request.expectedStatus) {
      throw new AppError('INVALID_STATUS', { status: current.status });
    }

    const stays = TAKEN_WITHOUT_CHANGE[request.action]?.includes(current.status) ?? false;
    if (!rule.from.includes(current.status) && !stays) {
      if (request.actor === 'customer' && ALREADY_DONE[request.action]?.includes(current.status)) {
        if (request.holdsSame === undefined || request.holdsSame(current)) {
          return { order: current, changed: false };
        }
        throw new AppError(request.conflict ?? 'INVALID_STATUS', { status: current.status });
      }
      throw new AppError('INVALID_STATUS', { status: current.status });
    }

    // Conditional on the status read: on PostgreSQL this also locks the row, so an action
    // taken without a change cannot interleave with another request moving the order.
    const to = stays ? current.status : rule.to;
    // Why an order is cancelled is decided here, by the server's clock, whoever asks: a
    // customer's cancel after the deadline (the app's timer) is 'expired' like the sweeper's.
    const cancelled =
      to === 'CANCELLED' ? cancelReason(current.status, rowDeadline(current), now) : null;
    const moved = await trx
      .updateTable('orders')
      .set({
        ...request.patch,
        status: to,
        updated_at: now,
        ...(cancelled === null ? {} : { cancel_reason: cancelled }),
      })
      .where('id', '=', current.id)
      .where('status', '=', current.status)
      .returning(ORDER_COLUMNS)
      .executeTakeFirst();
    // Another request moved the order between the read and the update (PostgreSQL runs them
    // side by side): judge the action again against the status it has now, so a double tap
    // still answers 'already done' and a receipt racing 'I have paid' is still taken.
    if (moved === undefined) continue;
    if (request.decidesAppeal !== true) await checkNotHeld(trx, request.action, current.id);

    if (!stays) {
      await trx
        .insertInto('order_events')
        .values({
          order_id: current.id,
          from_status: current.status,
          to_status: rule.to,
          actor: request.actor,
          actor_id: request.actorId,
          reason: cancelled ?? request.reason ?? null,
          created_at: now,
        })
        .execute();
      const decidesAppeal = request.decidesAppeal === true;
      await recordTransition(
        trx,
        { orders: [moved], to, actor: request.actor, decidesAppeal },
        now,
      );
    }
    await request.alongside?.(trx, moved);
    return { order: moved, changed: !stays };
  }
  throw new Error(`order ${request.orderId} kept changing under ${request.action}`);
}

/**
 * A system action on several orders at once, inside the caller's transaction: for each order
 * what applyTransitionIn does (the same rule, cancel reason, event row and messages), in a few
 * statements for all of them, so a job working through a backlog pays per order only for its
 * messages. The orders are the caller's claim (on PostgreSQL locked by it): one no longer in a
 * status the action takes, or held by an open appeal, is left as it is. Answers the orders moved.
 */
export async function applySystemTransitionIn(
  trx: Transaction<Database>,
  action: OrderAction,
  orderIds: readonly string[],
  now: number,
): Promise<OrderRow[]> {
  const rule = findTransition(action, 'system');
  if (rule === undefined) throw new AppError('FORBIDDEN');
  if (orderIds.length === 0) return [];
  // By id alone: the orders' primary key finds them (with a status condition SQLite may walk the
  // status index instead); the status and the appeal are judged on the rows read.
  const held = HELD_BY_APPEAL.includes(action)
    ? new Set(
        (
          await trx
            .selectFrom('appeals')
            .select('order_id')
            .where('order_id', 'in', orderIds)
            .where('decided_at', 'is', null)
            .execute()
        ).map((appeal) => appeal.order_id),
      )
    : new Set<string>();
  const current = (
    await trx.selectFrom('orders').select(ORDER_COLUMNS).where('id', 'in', orderIds).execute()
  ).filter((order) => rule.from.includes(order.status) && !held.has(order.id));
  // One update for the orders cancelled for the same reason (or moved without one).
  const byReason = new Map<CancelReason | null, OrderRow[]>();
  for (const order of current) {
    const reason =
      rule.to === 'CANCELLED' ? cancelReason(order.status, rowDeadline(order), now) : null;
    byReason.set(reason, [...(byReason.get(reason) ?? []), order]);
  }
  const moved: { readonly order: OrderRow; readonly reason: CancelReason | null }[] = [];
  for (const [reason, orders] of byReason) {
    const rows = await trx
      .updateTable('orders')
      .set({
        status: rule.to,
        updated_at: now,
        ...(reason === null ? {} : { cancel_reason: reason }),
      })
      .where(
        'id',
        'in',
        orders.map((order) => order.id),
      )
      .returning(ORDER_COLUMNS)
      .execute();
    moved.push(...rows.map((order) => ({ order, reason })));
  }
  if (moved.length === 0) return [];
  const before = new Map(current.map((order) => [order.id, order.status]));
  await trx
    .insertInto('order_events')
    .values(
      moved.map(({ order, reason }) => ({
        order_id: order.id,
        from_status: before.get(order.id) ?? order.status,
        to_status: rule.to,
        actor: 'system' as const,
        actor_id: null,
        reason,
        created_at: now,
      })),
    )
    .execute();
  const orders = moved.map(({ order }) => order);
  await recordTransition(trx, { orders, to: rule.to, actor: 'system', decidesAppeal: false }, now);
  return orders;
}
