/**
 * Floods of operator alerts (docs/bot.md, "Pacing"): a group gets about 20 messages a minute, so
 * past SUMMARY_AFTER of one kind in a minute the rest waiting become one summary, their rows kept
 * and marked `summarised`; about one message a minute while the flood lasts.
 */
import type { Kysely } from 'kysely';
import type { Database, NotificationRow } from '../platform/db/schema';
import type { NotificationFacts } from '../orders';
import { OPERATORS_RECIPIENT } from '../platform/outbox';

/** How many messages of one kind the operators' chat gets in any SUMMARY_WINDOW_MS. */
export const SUMMARY_AFTER = 3;
export const SUMMARY_WINDOW_MS = 60_000;
const SUMMARY_BATCH = 2_000;

export type FloodDecision =
  | { readonly kind: 'send'; readonly row: NotificationRow }
  | { readonly kind: 'hold'; readonly until: number };

export async function summariseFlood(
  db: Kysely<Database>,
  row: NotificationRow,
  now: number,
): Promise<FloodDecision> {
  const facts = JSON.parse(row.payload) as NotificationFacts;
  // Already a summary (its send was retried): it says what it said.
  if (facts.summaryCount !== undefined) return { kind: 'send', row };
  const latest = await db
    .selectFrom('notifications')
    .select(['sent_at', 'payload'])
    .where('recipient', '=', OPERATORS_RECIPIENT)
    .where('kind', '=', row.kind)
    .where('status', '=', 'sent')
    .where('sent_at', '>', now - 2 * SUMMARY_WINDOW_MS)
    .orderBy('sent_at', 'desc')
    .limit(SUMMARY_AFTER)
    .execute();
  const recent = latest.filter((sent) => (sent.sent_at ?? 0) > now - SUMMARY_WINDOW_MS);
  if (recent.length >= SUMMARY_AFTER) {
    const oldest = recent.at(-1)?.sent_at ?? now;
    return { kind: 'hold', until: oldest + SUMMARY_WINDOW_MS + 1 };
  }
  const flooding = latest.some(
    (sent) => (JSON.parse(sent.payload) as NotificationFacts).summaryCount !== undefined,
  );
  if (!flooding && recent.length < SUMMARY_AFTER - 1) return { kind: 'send', row };

  // Marked in bounded batches (40 000 in one statement held SQLite, and every request, 300 ms);
  // a server killed midway leaves marked alerts that no summary counts.
  let others = 0;
  for (;;) {
    const batch = await db
      .updateTable('notifications')
      .set({ status: 'summarised', claimed_until: null })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('notifications as n')
          .select('n.id')
          .where('n.recipient', '=', OPERATORS_RECIPIENT)
          .where('n.kind', '=', row.kind)
          .where('n.status', '=', 'pending')
          .where('n.id', '>', row.id)
          .where((w) => w.or([w('n.claimed_until', 'is', null), w('n.claimed_until', '<=', now)]))
          .limit(SUMMARY_BATCH),
      )
      .where('status', '=', 'pending')
      .executeTakeFirst();
    const marked = Number(batch.numUpdatedRows);
    others += marked;
    if (marked < SUMMARY_BATCH) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (others === 0) return { kind: 'send', row };
  const payload = JSON.stringify({ ...facts, summaryCount: others + 1 });
  await db.updateTable('notifications').set({ payload }).where('id', '=', row.id).execute();
  return { kind: 'send', row: { ...row, payload } };
}
