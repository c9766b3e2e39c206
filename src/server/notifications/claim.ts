import { sql, type ExpressionBuilder } from 'kysely';
import { OPERATOR_ALERTS } from '../../shared/notifications';
import type { Dialect } from '../platform/db/migrations';
import type { Database, NotificationRow } from '../platform/db/schema';
import { customerOfRecipient, OPERATORS_RECIPIENT } from '../platform/outbox';
import { CLAIM_BATCH, type OutboxSettings } from './outbox-settings';

/**
 * How long a claim holds a row before its send: longer than its wait for Telegram's limits (about
 * a second: one row per chat is claimed, 30 at most), short, since a server killed holding claims
 * leaves them to lapse before another start sends those rows. A row whose wait outlasts it is
 * sent only if no other worker has claimed it meanwhile (the `sending` mark checks the claim).
 */
const CLAIM_LEASE_MS = 15_000;

/** Rows a claim may take: waiting, or cut off mid-send by a worker that is gone (lease lapsed). */
const CLAIMABLE = ['pending', 'sending'] as const;

/**
 * `<table>.status in ('pending', 'sending')`, written out as literals: the outbox's partial
 * indexes (migration 0013) are used only by a query whose condition is theirs, constants and all.
 */
export function waiting(table: string) {
  return sql<boolean>`${sql.ref(`${table}.status`)} in (${sql.join(CLAIMABLE.map((s) => sql.lit(s)))})`;
}

/** Notifications seen from a claim's subquery. */
type Notifications = ExpressionBuilder<Database, 'notifications'>;

/** The recipient of the operators' chat, as a literal in the queues' conditions. */
const OPERATORS = sql.lit(OPERATORS_RECIPIENT);

/**
 * A customer's chat is one queue: its waiting rows in order (notifications_customer_queue), each
 * taken only when no earlier row of its chat waits. On PostgreSQL, rows another instance holds
 * are skipped.
 */
function customerHeads(eb: Notifications, dialect: Dialect, now: number, limit: number) {
  const customers = eb
    .selectFrom('notifications as n')
    .select('n.id')
    .where(waiting('n'))
    .where(sql<boolean>`${sql.ref('n.recipient')} <> ${OPERATORS}`)
    // The unary plus keeps this term out of the choice of an index (SQLite's documented way,
    // a no-op on PostgreSQL's bigint): the queue is walked in order, not by when rows are due.
    .where(sql<boolean>`+${sql.ref('n.next_attempt_at')} <= ${now}`)
    .where((w) => w.or([w('n.claimed_until', 'is', null), w('n.claimed_until', '<=', now)]))
    .where((w) =>
      w.not(
        w.exists(
          w
            .selectFrom('notifications as earlier')
            .select(sql`1`.as('one'))
            .whereRef('earlier.recipient', '=', 'n.recipient')
            .where('earlier.status', 'in', CLAIMABLE)
            .whereRef('earlier.id', '<', 'n.id'),
        ),
      ),
    )
    .orderBy('n.id')
    .limit(limit);
  return dialect === 'postgres' ? customers.forUpdate().skipLocked() : customers;
}

/**
 * The operators' chat is a queue per kind: each kind's head, one index lookup
 * (notifications_operator_queue), taken when it is due. Never SKIP LOCKED: a head held by
 * another instance must not let the row behind it go first (the claim's update waits for it and
 * then leaves it, claimed).
 */
function operatorHeads(eb: Notifications, now: number) {
  return OPERATOR_ALERTS.map((kind) =>
    eb
      .selectFrom('notifications as head')
      .select('head.id')
      .where(
        'head.id',
        '=',
        eb
          .selectFrom('notifications as q')
          .select((q) => q.fn.min('q.id').as('id'))
          .where(waiting('q'))
          .where(sql<boolean>`${sql.ref('q.recipient')} = ${OPERATORS}`)
          .where('q.kind', '=', kind),
      )
      .where('head.next_attempt_at', '<=', now)
      .where((w) =>
        w.or([w('head.claimed_until', 'is', null), w('head.claimed_until', '<=', now)]),
      ),
  );
}

/**
 * Claims the rows due now, at most `limit`, each the head of its queue: the earliest unfinished
 * row of its chat (of its kind, in the operators' chat). The heads are found through the queues'
 * own indexes, so that a claim costs the same whatever waits behind them: 40 000 alerts held for
 * their summary made every claim walk them all (60 ms on SQLite, seconds on PostgreSQL).
 */
export async function claim(
  settings: OutboxSettings,
  now: number,
  limit: number = CLAIM_BATCH,
): Promise<NotificationRow[]> {
  const { db } = settings;
  // A read first: an idle outbox costs no write (on SQLite every UPDATE takes the write lock).
  const due = await db
    .selectFrom('notifications')
    .select('id')
    .where(waiting('notifications'))
    .where('next_attempt_at', '<=', now)
    .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<=', now)]))
    .limit(1)
    .executeTakeFirst();
  if (due === undefined) return [];
  return (
    db
      .updateTable('notifications')
      .set({ claimed_until: now + CLAIM_LEASE_MS })
      .where('id', 'in', (eb) => {
        const customers = customerHeads(eb, settings.dialect, now, limit);
        const all = operatorHeads(eb, now).reduce(
          (union, head) => union.unionAll(head),
          eb.selectFrom(customers.as('c')).select('c.id'),
        );
        return eb.selectFrom(all.as('due')).select('due.id').orderBy('due.id').limit(limit);
      })
      // Checked again on the row itself: on PostgreSQL a row claimed by another instance between
      // the subquery and this update is re-read here and left alone.
      .where('status', 'in', CLAIMABLE)
      .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<=', now)]))
      .returningAll()
      .execute()
  );
}

/** Why a row cannot be sent by this server at all, if it cannot. */
function nowhereToSend(settings: OutboxSettings, row: NotificationRow): string | undefined {
  if (settings.sender === undefined) return 'demo mode: no BOT_TOKEN, nothing is sent';
  if (customerOfRecipient(row.recipient) === undefined && settings.operatorChatId === undefined) {
    return 'OPERATOR_CHAT_ID is not set';
  }
  return undefined;
}

/**
 * Marks the claimed rows that have nowhere to go `skipped` (with why, for the console), all in
 * one statement, and returns the others: a demo's outbox costs a write per claim, not per row.
 */
export async function setAsideUnsendable(
  settings: OutboxSettings,
  rows: readonly NotificationRow[],
): Promise<NotificationRow[]> {
  const toSend: NotificationRow[] = [];
  const skipped = new Map<string, number[]>();
  for (const row of rows) {
    const why = nowhereToSend(settings, row);
    if (why === undefined) toSend.push(row);
    else skipped.set(why, [...(skipped.get(why) ?? []), row.id]);
  }
  for (const [why, ids] of skipped) {
    await settings.db
      .updateTable('notifications')
      .set({ status: 'skipped', last_error: why, claimed_until: null })
      .where('id', 'in', ids)
      .execute();
  }
  return toSend;
}
