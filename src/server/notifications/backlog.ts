/** The outbox's backlog, read through the partial indexes of waiting rows only. */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../platform/db/schema';
import { OPERATORS_RECIPIENT } from '../platform/outbox';
import { waiting } from './claim';

export type RecipientKind = 'customer' | 'operators';

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

/** A row behind a retried one in its chat's queue counts too. */
export async function outboxOldestDue(db: Kysely<Database>, now: number): Promise<number> {
  const oldest = await db
    .selectFrom('notifications')
    .select((n) => n.fn.min<number | null>('next_attempt_at').as('at'))
    .where(waiting('notifications'))
    .where('next_attempt_at', '<=', now)
    .executeTakeFirst();
  const at = oldest?.at ?? null;
  return at === null ? 0 : Math.max(0, now - at);
}
