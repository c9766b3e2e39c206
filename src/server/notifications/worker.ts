/**
 * The outbox worker (design.md, "Staff side and notifications"): it claims due rows, sends them,
 * and records what became of each. Safe with several server instances: a claim is one UPDATE of
 * rows nobody holds (`FOR UPDATE SKIP LOCKED` on PostgreSQL; on SQLite the single writer makes
 * the conditional update the claim), with a lease, so a row is sent by one instance, and by
 * another only if the first died holding it. A recipient's messages go in the order they were
 * written: a row waits while an earlier one to the same chat is pending.
 *
 * Failures: Telegram's `retry_after` (429) is honoured, 5xx and network errors are retried with
 * a growing delay up to MAX_ATTEMPTS, a customer who blocked the bot (403) is marked unreachable
 * and not written to again until their next /start, any other refusal fails the row for good.
 * Every failure is kept in `notification_failures` and logged.
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Language } from '../../shared/api';
import type { NotificationKind } from '../../shared/notifications';
import type { Dialect } from '../db/migrations';
import type { Database, NotificationRow } from '../db/schema';
import type { NotificationFacts } from './facts';
import { customerOfRecipient } from './outbox';
import { renderNotification, type RenderOptions } from './render';
import type { MessageSender, SendOutcome } from './telegram-sender';

/** Notices that only move on a state the customer knows: they edit the order's last message. */
const THREAD_UPDATES: ReadonlySet<NotificationKind> = new Set([
  'payment_confirmed',
  'tx_confirmed',
]);

/** How many rows one pass claims. */
const CLAIM_BATCH = 30;
/** How long a claim holds a row: longer than a send can take (the throttler's queue included). */
const CLAIM_LEASE_MS = 60_000;
/** Retries of a 5xx or a network error, the delay doubling from RETRY_BASE_MS up to RETRY_MAX_MS. */
export const MAX_ATTEMPTS = 12;
const RETRY_BASE_MS = 2_000;
const RETRY_MAX_MS = 10 * 60_000;

export interface OutboxSettings {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
  /** Nothing is sent without one (demo mode): rows are marked skipped, for the console to show. */
  readonly sender: MessageSender | undefined;
  readonly operatorChatId: number | undefined;
  readonly operatorChatLanguage: Language;
  readonly render: () => RenderOptions;
}

/** Claims the rows due now, at most CLAIM_BATCH, each the earliest pending one of its chat. */
async function claim(settings: OutboxSettings, now: number): Promise<NotificationRow[]> {
  const { db } = settings;
  // A read first: an idle outbox costs no write (on SQLite every UPDATE takes the write lock).
  const due = await db
    .selectFrom('notifications')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .limit(1)
    .executeTakeFirst();
  if (due === undefined) return [];
  return (
    db
      .updateTable('notifications')
      .set({ claimed_until: now + CLAIM_LEASE_MS })
      .where('id', 'in', (eb) => {
        let due = eb
          .selectFrom('notifications as n')
          .select('n.id')
          .where('n.status', '=', 'pending')
          .where('n.next_attempt_at', '<=', now)
          .where((w) => w.or([w('n.claimed_until', 'is', null), w('n.claimed_until', '<=', now)]))
          .where((w) =>
            w.not(
              w.exists(
                w
                  .selectFrom('notifications as earlier')
                  .select(sql`1`.as('one'))
                  .whereRef('earlier.recipient', '=', 'n.recipient')
                  .where('earlier.status', '=', 'pending')
                  .whereRef('earlier.id', '<', 'n.id'),
              ),
            ),
          )
          .orderBy('n.id')
          .limit(CLAIM_BATCH);
        if (settings.dialect === 'postgres') due = due.forUpdate().skipLocked();
        return due;
      })
      // Checked again on the row itself: on PostgreSQL a row claimed by another instance between
      // the subquery and this update is re-read here and left alone.
      .where('status', '=', 'pending')
      .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<=', now)]))
      .returningAll()
      .execute()
  );
}

/** The token never reaches a stored error or a log line. */
function redact(error: string): string {
  return error.replace(/bot\d+:[A-Za-z0-9_-]+/g, 'bot<token>').slice(0, 500);
}

/** Sends one claimed row and records the outcome. */
async function deliver(
  settings: OutboxSettings,
  row: NotificationRow,
): Promise<SendOutcome | null> {
  const { db } = settings;
  const customer = customerOfRecipient(row.recipient);
  const chatId = customer ?? settings.operatorChatId;
  if (settings.sender === undefined || chatId === undefined) {
    await finish(settings, row, {
      status: 'skipped',
      last_error:
        settings.sender === undefined
          ? 'demo mode: no BOT_TOKEN, nothing is sent'
          : 'OPERATOR_CHAT_ID is not set',
    });
    return null;
  }
  if (customer !== undefined) {
    const user = await db
      .selectFrom('users')
      .select('bot_blocked_at')
      .where('telegram_id', '=', customer)
      .executeTakeFirst();
    if (user !== undefined && user.bot_blocked_at !== null) {
      await finish(settings, row, {
        status: 'unreachable',
        last_error: 'the customer blocked the bot',
      });
      return null;
    }
  }

  const message = renderNotification(
    row.kind,
    JSON.parse(row.payload) as NotificationFacts,
    row.language ?? settings.operatorChatLanguage,
    settings.render(),
  );
  const editMessageId = THREAD_UPDATES.has(row.kind)
    ? await lastMessageOf(settings, row)
    : undefined;
  const outcome = await settings.sender.send(chatId, message, editMessageId);
  const now = settings.now();
  const attempts = row.attempts + 1;
  if (outcome.kind === 'sent') {
    await finish(settings, row, {
      status: 'sent',
      attempts,
      message_id: outcome.messageId,
      sent_at: now,
      last_error: null,
    });
    return outcome;
  }

  const error = redact(outcome.error);
  await db
    .insertInto('notification_failures')
    .values({ notification_id: row.id, attempt: attempts, error, created_at: now })
    .execute();
  settings.log.warn(
    { notification: row.id, kind: row.kind, outcome: outcome.kind, attempt: attempts, error },
    'notification not sent',
  );
  switch (outcome.kind) {
    case 'retry_after':
      // Telegram's own wait; not counted against the retries of a fault.
      await finish(settings, row, {
        last_error: error,
        next_attempt_at: now + outcome.seconds * 1000,
      });
      break;
    case 'transient':
      await finish(
        settings,
        row,
        attempts >= MAX_ATTEMPTS
          ? { status: 'failed', attempts, last_error: error }
          : {
              attempts,
              last_error: error,
              next_attempt_at: now + Math.min(RETRY_BASE_MS * 2 ** (attempts - 1), RETRY_MAX_MS),
            },
      );
      break;
    case 'blocked':
      if (customer !== undefined) {
        await db
          .updateTable('users')
          .set({ bot_blocked_at: now })
          .where('telegram_id', '=', customer)
          .execute();
      }
      await finish(settings, row, {
        status: customer === undefined ? 'failed' : 'unreachable',
        attempts,
        last_error: error,
      });
      break;
    case 'refused':
      await finish(settings, row, { status: 'failed', attempts, last_error: error });
      break;
  }
  return outcome;
}

/** The bot's last message of the row's order in the row's chat, which a thread update edits. */
async function lastMessageOf(
  settings: OutboxSettings,
  row: NotificationRow,
): Promise<number | undefined> {
  if (row.order_id === null) return undefined;
  const last = await settings.db
    .selectFrom('notifications')
    .select('message_id')
    .where('order_id', '=', row.order_id)
    .where('recipient', '=', row.recipient)
    .where('status', '=', 'sent')
    .where('message_id', 'is not', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return last?.message_id ?? undefined;
}

/** Releases the claim with the row's new state. */
async function finish(
  settings: OutboxSettings,
  row: NotificationRow,
  update: {
    readonly status?: NotificationRow['status'];
    readonly attempts?: number;
    readonly last_error?: string | null;
    readonly next_attempt_at?: number;
    readonly message_id?: number;
    readonly sent_at?: number;
  },
): Promise<void> {
  await settings.db
    .updateTable('notifications')
    .set({ ...update, claimed_until: null })
    .where('id', '=', row.id)
    .execute();
}

export interface OutboxPass {
  readonly claimed: number;
  readonly sent: number;
}

/** One pass: claims what is due and sends it, the chats side by side. */
export async function sendDueNotifications(settings: OutboxSettings): Promise<OutboxPass> {
  const rows = await claim(settings, settings.now());
  const outcomes = await Promise.all(
    rows.map((row) =>
      deliver(settings, row).catch((error: unknown) => {
        // A fault of ours (the database, a bad row): the claim lapses and the row is retried.
        settings.log.error({ err: error, notification: row.id }, 'notification failed');
        return null;
      }),
    ),
  );
  return { claimed: rows.length, sent: outcomes.filter((o) => o?.kind === 'sent').length };
}
