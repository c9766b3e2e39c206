/**
 * The one way an order's status changes (docs/architecture.md, "The order's row"): a conditional
 * UPDATE … WHERE status = <what it read>, with its event row and messages in the same transaction.
 * A request that loses the race is judged again: 409 with the status it lost to, or 'already done'.
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
  /** Null for the system. */
  readonly actorId: number | null;
  /** Only this customer's order: another customer's answers 404 like a missing one. */
  readonly ownerId?: number;
  readonly reason?: string | null;
  readonly patch?: Omit<Updateable<OrdersTable>, 'id' | 'status' | 'updated_at'>;
  /** Rows that must commit with the move (or with TAKEN_WITHOUT_CHANGE). */
  readonly alongside?: (trx: Transaction<Database>, order: OrderRow) => Promise<void>;
  /**
   * For an action that carries data: whether an order past it holds what this request sent. Only
   * then is it 'already done', so a second, different hash is never answered as kept.
   */
  readonly holdsSame?: (order: OrderRow) => boolean;
  readonly conflict?: ErrorCode;
  /** The status an operator saw: otherwise 409 INVALID_STATUS, so a stale view never acts. */
  readonly expectedStatus?: OrderStatus | undefined;
  /** A senior's appeal decision: the only request that may end an order under appeal. */
  readonly decidesAppeal?: boolean;
}

export interface TransitionResult {
  readonly order: OrderRow;
  /** False for a repeated customer action, or an action taken without a change. */
  readonly changed: boolean;
}

export type OrderActionService<Body> = (
  ctx: ServerContext,
  callerId: number,
  orderId: string,
  body: Body,
) => Promise<TransitionResult>;

/** An action's route: the service run for the caller on the path's order, answering its status. */
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
 * Asked once the conditional update holds the row (on PostgreSQL, its lock), so an appeal opened
 * beside it is either seen here or finds the order moved; the refusal rolls the move back.
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

export async function applyTransition(
  db: Kysely<Database>,
  request: TransitionRequest,
  now: number,
): Promise<TransitionResult> {
  return db.transaction().execute((trx) => applyTransitionIn(trx, request, now));
}

/** Inside the caller's transaction (the sweeper expires a claimed batch in one). */
export async function applyTransitionIn(
  trx: Transaction<Database>,
  request: TransitionRequest,
  now: number,
): Promise<TransitionResult> {
  const rule = findTransition(request.action, request.actor);
  if (rule === undefined) throw new AppError('FORBIDDEN');
  // Statuses only move forward, so there are fewer lost passes than statuses.
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

    // On PostgreSQL this also locks the row, so an action without a change cannot interleave.
    const to = stays ? current.status : rule.to;
    // The cancel reason is decided by the server's clock: a customer's cancel past the deadline
    // is 'expired', like the sweeper's.
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
    // Moved between read and update: judged again, so a double tap still answers 'already done'
    // and a receipt racing 'I have paid' is still taken.
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
 * A system action on the caller's claimed orders in a few statements for all, with the same rule,
 * cancel reason, events and messages as applyTransitionIn; orders it no longer takes, or held by
 * an appeal, are left. Answers the orders moved.
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
  // By id alone, so SQLite uses the primary key; status and appeal are judged on the rows read.
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
