import { sql, type ExpressionBuilder } from 'kysely';
import { OPERATOR_ALERTS } from '../../shared/notifications';
import type { Dialect } from '../platform/db/migrations';
import type { Database, NotificationRow } from '../platform/db/schema';
import { customerOfRecipient, OPERATORS_RECIPIENT } from '../platform/outbox';
import { CLAIM_BATCH, type OutboxSettings } from './outbox-settings';

/**
 * Longer than a row's wait for Telegram's limits, short, since a killed server's claims must lapse
 * before another start sends those rows; the `sending` mark checks the claim.
 */
const CLAIM_LEASE_MS = 15_000;

/** Waiting, or cut off mid-send by a worker that is gone (lease lapsed). */
const CLAIMABLE = ['pending', 'sending'] as const;

/** Literals: the partial indexes (migration 0013) serve only a query with their own condition. */
export function waiting(table: string) {
  return sql<boolean>`${sql.ref(`${table}.status`)} in (${sql.join(CLAIMABLE.map((s) => sql.lit(s)))})`;
}

type Notifications = ExpressionBuilder<Database, 'notifications'>;

const OPERATORS = sql.lit(OPERATORS_RECIPIENT);

/** A customer's chat is one queue: a row is taken only when no earlier row of its chat waits. */
function customerHeads(eb: Notifications, dialect: Dialect, now: number, limit: number) {
  const customers = eb
    .selectFrom('notifications as n')
    .select('n.id')
    .where(waiting('n'))
    .where(sql<boolean>`${sql.ref('n.recipient')} <> ${OPERATORS}`)
    // Unary plus keeps this out of SQLite's index choice: the queue is walked in order.
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

/** A queue per kind; never SKIP LOCKED, so a held head never lets the row behind it go first. */
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

/** Each queue's head through its own index, so a claim costs the same whatever waits behind. */
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
      // Re-read here: on PostgreSQL a row claimed by another instance meanwhile is left alone.
      .where('status', 'in', CLAIMABLE)
      .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<=', now)]))
      .returningAll()
      .execute()
  );
}

function nowhereToSend(settings: OutboxSettings, row: NotificationRow): string | undefined {
  if (settings.sender === undefined) return 'demo mode: no BOT_TOKEN, nothing is sent';
  if (customerOfRecipient(row.recipient) === undefined && settings.operatorChatId === undefined) {
    return 'OPERATOR_CHAT_ID is not set';
  }
  return undefined;
}

/** All in one statement: a demo's outbox costs a write per claim, not per row. */
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
