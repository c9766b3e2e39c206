/**
 * Floods of operator alerts: a backlog after an outage can flag tens of
 * thousands of orders at once, and Telegram lets a group have about 20 messages a minute. So the
 * operators' chat gets at most SUMMARY_AFTER messages of one kind in any minute: the first ones as
 * they are, and the last place of the minute goes to one summary of every alert of that kind still
 * waiting ("1 234 orders waiting over 10 minutes", a button to the console's queue); those alerts
 * are marked `summarised`, their rows kept (the console shows each with its order). Past that,
 * the kind's next alert waits for a place to open and then, while the flood goes on (a summary
 * sent in the minute before), sums up at once what came meanwhile: about one message a minute.
 */
import type { Kysely } from 'kysely';
import type { Database, NotificationRow } from '../platform/db/schema';
import type { NotificationFacts } from '../orders';
import { OPERATORS_RECIPIENT } from '../platform/outbox';

/** How many messages of one kind the operators' chat gets in any SUMMARY_WINDOW_MS. */
export const SUMMARY_AFTER = 3;
export const SUMMARY_WINDOW_MS = 60_000;
/** How many alerts one statement marks as summed up. */
const SUMMARY_BATCH = 2_000;

export type FloodDecision =
  /** Send this row: as it is, or (its payload's summaryCount set) as the summary. */
  | { readonly kind: 'send'; readonly row: NotificationRow }
  /** The kind has had its messages this minute: wait until a place opens. */
  | { readonly kind: 'hold'; readonly until: number };

/** What to do with a claimed alert to the operators' chat, the earliest waiting of its kind. */
export async function summariseFlood(
  db: Kysely<Database>,
  row: NotificationRow,
  now: number,
): Promise<FloodDecision> {
  const facts = JSON.parse(row.payload) as NotificationFacts;
  // Already a summary (its send was retried): it says what it said.
  if (facts.summaryCount !== undefined) return { kind: 'send', row };
  // The kind's latest messages: those of the last minute take its places, and a summary among
  // those of the minute before says a flood is still going on.
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

  // The minute's last place, or a flood going on: every alert of the kind still waiting goes into
  // this one message. Marked in bounded batches with a yield between them (40 000 in one statement
  // held SQLite, and every request, for 300 ms), then the count is kept with the row. A server
  // killed between the two leaves the alerts marked so far in the console, counted by no summary.
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
