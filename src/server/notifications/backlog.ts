/**
 * The outbox's backlog as the metrics read it at every scrape (src/server/platform/metrics/metrics.ts): how many
 * rows wait to be sent, per kind of chat, and how long the most overdue has waited. Read through
 * the partial indexes of the waiting rows (migration 0013) with the worker's own conditions, so
 * the sent rows, the many, are never read.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../platform/db/schema';
import { OPERATORS_RECIPIENT } from '../platform/outbox';
import { waiting } from './claim';

/** A customer's private chat with the bot, or the operators' chat. */
export type RecipientKind = 'customer' | 'operators';

/** Rows pending or being sent, per kind of chat: one statement, each count from its own index. */
export async function outboxBacklog(db: Kysely<Database>): Promise<Record<RecipientKind, number>> {
  const operators = sql.lit(OPERATORS_RECIPIENT);
  const counts = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('notifications')
        .select((n) => n.fn.countAll<number | string>().as('count'))
        .where(waiting('notifications'))
        .where(sql<boolean>`${sql.ref('notifications.recipient')} <> ${operators}`)
        .as('customer'),
      eb
        .selectFrom('notifications')
        .select((n) => n.fn.countAll<number | string>().as('count'))
        .where(waiting('notifications'))
        .where(sql<boolean>`${sql.ref('notifications.recipient')} = ${operators}`)
        .as('operators'),
    ])
    .executeTakeFirstOrThrow();
  return { customer: Number(counts.customer ?? 0), operators: Number(counts.operators ?? 0) };
}

/**
 * How long the most overdue waiting row has been due at `now`, in ms (0 when none is): the
 * first entry of notifications_due. A row behind a retried one in its chat's queue counts too.
 */
export async function outboxOldestDue(db: Kysely<Database>, now: number): Promise<number> {
  const oldest = await db
    .selectFrom('notifications')
    .select((n) => n.fn.min<number | null>('next_attempt_at').as('at'))
    .where(waiting('notifications'))
    .where('next_attempt_at', '<=', now)
    .executeTakeFirst();
  // An aggregate answers one row, its minimum null when no row is due.
  const at = oldest?.at ?? null;
  return at === null ? 0 : Math.max(0, now - at);
}
