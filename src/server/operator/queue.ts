/**
 * What operators look at: the queue, grouped by the operator action each order waits
 * for (src/shared/operator-queue.ts), most urgent first, with a count per group; and the search
 * and filter over every order. Each row carries its customer, the deadline that matters and its
 * flags, decided by the same rules as the sweeper's.
 */
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type * as v from 'valibot';
import { OPERATOR_USUAL_ANSWER_MS } from '../../shared/limits';
import type {
  OperatorOrderRow,
  OperatorOrdersResponse,
  OperatorQueueResponse,
} from '../../shared/operator-api';
import {
  QUEUE_GROUPS,
  QUEUE_GROUP_ROWS,
  orderFlags,
  queueGroupStatuses,
  type QueueGroup,
} from '../../shared/operator-queue';
import { ACTIVE_STATUSES, PAID_STATUSES, WAITING_FOR_OPERATOR } from '../../shared/order-status';
import type { OperatorListQuerySchema } from '../../shared/schemas/operator';
import type { ServerContext } from '../platform/context';
import { pageOf } from '../platform/db/paging';
import type { Database } from '../platform/db/schema';
import { rowDeadline, toOrderSummary, unreadMessages } from '../orders';

/** Later than any deadline: orders without one sort after those with one. */
const NO_DEADLINE = Number.MAX_SAFE_INTEGER;

type OrdersExpression = ExpressionBuilder<Database, 'orders' | 'users'>;

/** The file of one of the order's receipts is on another order too. */
function reusedReceipt(eb: OrdersExpression) {
  return eb.exists(
    eb
      .selectFrom('receipts as mine')
      .innerJoin('receipts as other', (join) =>
        join
          .onRef('other.sha256', '=', 'mine.sha256')
          .onRef('other.order_id', '!=', 'mine.order_id'),
      )
      .select(sql<number>`1`.as('one'))
      .whereRef('mine.order_id', '=', 'orders.id'),
  );
}

/** The orders `orderFlags` flags at `now`, as a condition of SQL. */
function flaggedAt(now: number) {
  return (eb: OrdersExpression) =>
    eb.and([
      eb('orders.status', 'in', ACTIVE_STATUSES),
      eb.or([
        eb.and([eb('orders.status', 'in', PAID_STATUSES), eb('orders.expires_at', '<=', now)]),
        eb.and([
          eb('orders.status', 'in', WAITING_FOR_OPERATOR),
          eb('orders.created_at', '<=', now - OPERATOR_USUAL_ANSWER_MS),
        ]),
        reusedReceipt(eb),
      ]),
    ]);
}

/** Orders with their customers, and whether a receipt is reused, ready to become rows. */
function rowsQuery(db: Kysely<Database>) {
  return db
    .selectFrom('orders')
    .innerJoin('users', 'users.telegram_id', 'orders.user_id')
    .selectAll('orders')
    .select((eb) => [
      'users.first_name',
      'users.last_name',
      'users.username',
      reusedReceipt(eb).as('reused_receipt'),
      openAppeal(eb).select('appeals.opened_at').as('appeal_opened_at'),
    ])
    .select(unreadMessages('operator'));
}

type JoinedRow = Awaited<ReturnType<ReturnType<typeof rowsQuery>['execute']>>[number];

function toRow(row: JoinedRow, now: number): OperatorOrderRow {
  const deadline = rowDeadline(row);
  return {
    ...toOrderSummary(row),
    customer: {
      telegramId: row.user_id,
      firstName: row.first_name,
      lastName: row.last_name,
      username: row.username,
    },
    deadline: deadline === null ? null : new Date(deadline).toISOString(),
    flags: orderFlags(
      {
        status: row.status,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        reusedReceipt: Boolean(row.reused_receipt),
      },
      now,
    ),
    appealOpenedAt:
      row.appeal_opened_at === null ? null : new Date(row.appeal_opened_at).toISOString(),
  };
}

/** The order's open appeal. */
function openAppeal(eb: ExpressionBuilder<Database, 'orders'>) {
  return eb
    .selectFrom('appeals')
    .whereRef('appeals.order_id', '=', 'orders.id')
    .where('appeals.decided_at', 'is', null);
}

/** The orders of a queue group at `now`, as a condition of SQL. */
function inGroup(group: QueueGroup, now: number) {
  return (eb: OrdersExpression) => {
    if (group === 'flagged') return flaggedAt(now)(eb);
    if (group === 'appeals') return eb.exists(openAppeal(eb).select('appeals.id'));
    return eb('orders.status', 'in', queueGroupStatuses(group));
  };
}

/** `GET /api/operator/queue`, of every customer's orders or of one's (`consoleScope`). */
export async function operatorQueue(
  ctx: ServerContext,
  scope: number | null,
): Promise<OperatorQueueResponse> {
  const now = ctx.now();
  const urgency = sql`coalesce(case when orders.status = 'OFFICE_READY' then orders.reserved_until else orders.expires_at end, ${sql.lit(NO_DEADLINE)})`;
  const groups = await Promise.all(
    QUEUE_GROUPS.map(async (group) => {
      const [rows, counted] = await Promise.all([
        rowsQuery(ctx.db)
          .where(inGroup(group, now))
          .$if(scope !== null, (q) => q.where('orders.user_id', '=', scope ?? 0))
          // Appeals by their age, oldest first; the other groups by their deadlines.
          .orderBy(group === 'appeals' ? sql`appeal_opened_at` : urgency)
          .orderBy('orders.created_at')
          .orderBy('orders.id')
          .limit(QUEUE_GROUP_ROWS)
          .execute(),
        ctx.db
          .selectFrom('orders')
          .innerJoin('users', 'users.telegram_id', 'orders.user_id')
          .where(inGroup(group, now))
          .$if(scope !== null, (q) => q.where('orders.user_id', '=', scope ?? 0))
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .executeTakeFirstOrThrow(),
      ]);
      return {
        group,
        count: Number(counted.count),
        orders: rows.map((row) => toRow(row, now)),
      };
    }),
  );
  return { groups, serverTime: new Date(now).toISOString() };
}

/** The calendar day `yyyy-mm-dd` as epoch ms at its start (UTC), or at the start of the next. */
function dayStart(day: string, next = false): number {
  return Date.parse(`${day}T00:00:00.000Z`) + (next ? 86_400_000 : 0);
}

/** `GET /api/operator/orders?q&status&type&method&from&to&limit&offset`, newest first. */
export async function searchOrders(
  ctx: ServerContext,
  query: v.InferOutput<typeof OperatorListQuerySchema>,
  scope: number | null,
): Promise<OperatorOrdersResponse> {
  const now = ctx.now();
  let select = rowsQuery(ctx.db);
  if (scope !== null) select = select.where('orders.user_id', '=', scope);
  if (query.status === 'active') select = select.where('orders.status', 'in', ACTIVE_STATUSES);
  else if (query.status === 'attention') select = select.where(flaggedAt(now));
  else if (query.status !== undefined) select = select.where('orders.status', '=', query.status);
  if (query.type !== undefined) select = select.where('orders.type', '=', query.type);
  if (query.method !== undefined) select = select.where('orders.payment_method', '=', query.method);
  if (query.from !== undefined)
    select = select.where('orders.created_at', '>=', dayStart(query.from));
  if (query.to !== undefined)
    select = select.where('orders.created_at', '<', dayStart(query.to, true));
  // An order number (the start of its id), a Telegram id, a @username or a name.
  const q = query.q?.trim().toLowerCase().replace(/^@/, '');
  if (q !== undefined && q !== '') {
    const escaped = q.replace(/[\\%_]/g, (c) => `\\${c}`);
    const like = `%${escaped}%`;
    const startsLike = `${escaped}%`;
    select = select.where((eb) =>
      eb.or([
        eb(sql`lower(orders.id)`, 'like', sql`${startsLike} escape '\\'`),
        ...(/^\d{1,15}$/.test(q) ? [eb('orders.user_id', '=', Number(q))] : []),
        eb(sql`lower(users.username)`, 'like', sql`${like} escape '\\'`),
        eb(
          sql`lower(users.first_name || ' ' || coalesce(users.last_name, ''))`,
          'like',
          sql`${like} escape '\\'`,
        ),
      ]),
    );
  }
  const { rows, hasMore } = await pageOf(
    select.orderBy('orders.created_at', 'desc').orderBy('orders.id', 'desc'),
    query,
  );
  return { orders: rows.map((row) => toRow(row, now)), hasMore };
}
