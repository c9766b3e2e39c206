/**
 * The outbox worker (design.md, "Staff side and notifications"): it claims due rows, sends them,
 * and records what became of each. Safe with several server instances: a claim is one UPDATE of
 * rows nobody holds (`FOR UPDATE SKIP LOCKED` on PostgreSQL; on SQLite the single writer makes
 * the conditional update the claim), with a lease, so a row is sent by one instance, and by
 * another only if the first died holding it.
 *
 * Each chat is its own queue: a row is claimed only when no earlier row to the same chat is still
 * pending or being sent, so a recipient's messages go in the order they were written, and the
 * running worker (`startOutbox`) claims again as soon as any send ends, without waiting for the
 * slower chats of its batch: the operators' group at 20 messages a minute never holds back a
 * customer's message. The operators' chat is a queue per kind of alert, so that a flood of one
 * kind held for its summary never delays another kind.
 *
 * Delivery is at least once. Telegram has no idempotency key, so a message whose call left and
 * whose answer was never recorded (the server killed, the database gone in between) can only be
 * sent again. The window is kept as small as it can be: the row is marked `sending` (its attempt
 * counted) right before the call, and recorded `sent` by the very next statement after Telegram's
 * answer. A `sending` row whose lease lapsed is sent again, and the failure table says that it may
 * have reached the chat already.
 *
 * Failures: Telegram's `retry_after` (429) is honoured, 5xx and network errors are retried with
 * a growing delay up to MAX_ATTEMPTS, a customer who blocked the bot (403) is marked unreachable
 * and not written to again until their next /start, any other refusal fails the row for good.
 * A fault of ours before the call (a row that cannot be rendered, the database) counts as an
 * attempt too, so that after MAX_ATTEMPTS the row is set aside as failed and its chat goes on.
 * Every failure is kept in `notification_failures` (the token redacted) and logged.
 *
 * Floods of operator alerts (summaries.ts): past a few alerts of one kind a minute, the operators'
 * chat gets one message saying how many, and the rest are marked `summarised`.
 */
import { setMaxListeners } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Language } from '../../shared/api';
import {
  CHAT_MESSAGE_KINDS,
  OPERATOR_ALERTS,
  type NotificationKind,
} from '../../shared/notifications';
import type { Dialect } from '../platform/db/migrations';
import type { Database, NotificationRow } from '../platform/db/schema';
import type { JobMonitor } from '../platform/jobs/periodic';
import { redactToken } from '../platform/logging/redact-token';
import { customerOfRecipient, OPERATORS_RECIPIENT, sentTo } from '../platform/outbox';
import { renderStored, type RenderOptions } from './render';
import { summariseFlood } from './summaries';
import type { MessageSender, SendOutcome } from './telegram-sender';

/** Notices that only move on a state the customer knows: they edit the order's last message. */
const THREAD_UPDATES: ReadonlySet<NotificationKind> = new Set([
  'payment_confirmed',
  'tx_confirmed',
]);

/** How many rows one claim takes, and how many sends the running worker keeps going at once. */
const CLAIM_BATCH = 30;
/**
 * How long a claim holds a row before its send: longer than its wait for Telegram's limits (about
 * a second: one row per chat is claimed, 30 at most), short, since a server killed holding claims
 * leaves them to lapse before another start sends those rows. A row whose wait outlasts it is
 * sent only if no other worker has claimed it meanwhile (the `sending` mark checks the claim).
 */
const CLAIM_LEASE_MS = 15_000;
/** How long the `sending` mark holds it: longer than a call can take (CALL_TIMEOUT_SECONDS). */
const SEND_LEASE_MS = 30_000;
/** Retries of a 5xx, a network error or a fault of ours, the delay doubling up to RETRY_MAX_MS. */
export const MAX_ATTEMPTS = 12;
const RETRY_BASE_MS = 2_000;
const RETRY_MAX_MS = 10 * 60_000;
/** How long a stored error may be. */
const ERROR_LENGTH = 500;

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
  /** Aborted when the server closes: nothing more is claimed, and no send that has not left starts. */
  readonly signal?: AbortSignal;
  /** Told how each claim went, and of each row a fault of ours kept from its send (metrics). */
  readonly monitor?: JobMonitor;
}

/** The worker's name in its log lines and metrics. */
const OUTBOX_JOB = 'notification outbox';

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
async function claim(
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
async function setAsideUnsendable(
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

/** The error as stored and logged: no token, not too long. */
function stored(error: string): string {
  return redactToken(error).slice(0, ERROR_LENGTH);
}

/** The server is closing: the row is let go as it was, for the next start to send. */
class Stopping extends Error {}

/** Sends one claimed row and records the outcome; a fault of ours is counted as an attempt. */
async function deliver(
  settings: OutboxSettings,
  row: NotificationRow,
): Promise<SendOutcome | null> {
  try {
    return await attempt(settings, row);
  } catch (error) {
    if (error instanceof Stopping || settings.signal?.aborted === true) {
      await finish(settings, row, {});
      return null;
    }
    settings.monitor?.itemFailed(OUTBOX_JOB);
    await recordFault(settings, row, error);
    return null;
  }
}

/**
 * A customer who blocked the bot is not written to until their next /start: the row is finished
 * `unreachable`. Returns whether it was.
 */
async function blockedBot(
  settings: OutboxSettings,
  row: NotificationRow,
  customer: number,
): Promise<boolean> {
  const user = await settings.db
    .selectFrom('users')
    .select('bot_blocked_at')
    .where('telegram_id', '=', customer)
    .executeTakeFirst();
  if (user === undefined || user.bot_blocked_at === null) return false;
  await finish(settings, row, {
    status: 'unreachable',
    last_error: 'the customer blocked the bot',
  });
  return true;
}

/** A row claimed as `sending`: its worker stopped during the call, Telegram may have it already. */
async function recordCutOff(settings: OutboxSettings, claimed: NotificationRow): Promise<void> {
  const error = 'the previous send was cut off (the server stopped): it may have reached the chat';
  settings.log.warn({ notification: claimed.id, kind: claimed.kind }, `notification: ${error}`);
  await settings.db
    .insertInto('notification_failures')
    .values({
      notification_id: claimed.id,
      attempt: claimed.attempts,
      error,
      created_at: settings.now(),
    })
    .execute();
}

/**
 * An operators' alert goes through its kind's flood: held for the summary (null, the row let go
 * until then), or sent as the row the flood makes of it. Any other row goes as it is.
 */
async function throughFlood(
  settings: OutboxSettings,
  row: NotificationRow,
): Promise<NotificationRow | null> {
  if (row.recipient !== OPERATORS_RECIPIENT) return row;
  const flood = await summariseFlood(settings.db, row, settings.now());
  if (flood.kind === 'hold') {
    await finish(settings, row, { next_attempt_at: flood.until });
    return null;
  }
  return flood.row;
}

/**
 * Renders the row and sends it in a place Telegram's limits give its chat; null when the claim
 * lapsed before the send.
 */
async function markAndSend(
  settings: OutboxSettings,
  sender: MessageSender,
  chatId: number,
  row: NotificationRow,
  attempts: number,
): Promise<SendOutcome | null> {
  const message = renderStored(row, settings.operatorChatLanguage, settings.render());
  const editMessageId = THREAD_UPDATES.has(row.kind)
    ? await lastMessageOf(settings, row)
    : undefined;
  const place = await sender.reserve(chatId, settings.signal);
  try {
    if (settings.signal?.aborted === true) throw new Stopping();
    // The attempt is counted and the row marked before the call: a restart can tell it may have
    // left. Only while the claim is still this worker's.
    const marked = await settings.db
      .updateTable('notifications')
      .set({ status: 'sending', attempts, claimed_until: settings.now() + SEND_LEASE_MS })
      .where('id', '=', row.id)
      .where('claimed_until', '=', row.claimed_until)
      .executeTakeFirst();
    if (marked.numUpdatedRows === 0n) {
      settings.log.warn({ notification: row.id }, 'notification: the claim lapsed before the send');
      return null;
    }
    return await sender.send(chatId, message, editMessageId, place);
  } finally {
    // Given back if the call never left.
    place.release();
  }
}

async function attempt(
  settings: OutboxSettings,
  claimed: NotificationRow,
): Promise<SendOutcome | null> {
  const customer = customerOfRecipient(claimed.recipient);
  const chatId = customer ?? settings.operatorChatId;
  const sender = settings.sender;
  if (sender === undefined || chatId === undefined) {
    throw new Error('a row with nowhere to go is set aside when claimed, never sent');
  }
  if (customer !== undefined && (await blockedBot(settings, claimed, customer))) return null;
  if (claimed.status === 'sending') await recordCutOff(settings, claimed);
  const row = await throughFlood(settings, claimed);
  if (row === null) return null;

  const attempts = row.attempts + 1;
  const outcome = await markAndSend(settings, sender, chatId, row, attempts);
  if (outcome === null) return null;
  // Nothing between Telegram's answer and the row's update: the window of a repeat.
  if (outcome.kind === 'sent') {
    await finish(settings, row, {
      status: 'sent',
      attempts,
      message_id: outcome.messageId,
      sent_at: settings.now(),
      last_error: null,
    });
    return outcome;
  }
  await recordFailure(settings, row, attempts, outcome, customer);
  return outcome;
}

/** What a refusal or a fault of Telegram's means for the row. */
async function recordFailure(
  settings: OutboxSettings,
  row: NotificationRow,
  attempts: number,
  outcome: Exclude<SendOutcome, { readonly kind: 'sent' }>,
  customer: number | undefined,
): Promise<void> {
  const { db } = settings;
  const now = settings.now();
  const error = stored(outcome.error);
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
        status: 'pending',
        attempts: row.attempts,
        last_error: error,
        next_attempt_at: now + outcome.seconds * 1000,
      });
      break;
    case 'transient':
      await finish(settings, row, retryOrFail(attempts, error, now));
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
}

/** Another try later, the delay doubling, or failed for good after MAX_ATTEMPTS. */
function retryOrFail(attempts: number, error: string, now: number): RowUpdate {
  return attempts >= MAX_ATTEMPTS
    ? { status: 'failed', attempts, last_error: error }
    : {
        status: 'pending',
        attempts,
        last_error: error,
        next_attempt_at: now + Math.min(RETRY_BASE_MS * 2 ** (attempts - 1), RETRY_MAX_MS),
      };
}

/**
 * A fault of ours before the call (the row cannot be rendered, a query failed): counted as an
 * attempt like a network error, so that a row that can never be sent is set aside as failed after
 * MAX_ATTEMPTS and its chat's next message goes. If even this cannot be written, the claim lapses.
 */
async function recordFault(
  settings: OutboxSettings,
  row: NotificationRow,
  fault: unknown,
): Promise<void> {
  settings.log.error({ err: fault, notification: row.id, kind: row.kind }, 'notification failed');
  try {
    const now = settings.now();
    const error = stored(
      fault instanceof Error ? `${fault.name}: ${fault.message}` : String(fault),
    );
    const attempts = row.attempts + 1;
    await settings.db
      .insertInto('notification_failures')
      .values({ notification_id: row.id, attempt: attempts, error, created_at: now })
      .execute();
    await finish(settings, row, retryOrFail(attempts, error, now));
  } catch (error) {
    settings.log.error({ err: error, notification: row.id }, 'notification: fault not recorded');
  }
}

/** The bot's last message of the row's order in the row's chat, which a thread update edits. */
async function lastMessageOf(
  settings: OutboxSettings,
  row: NotificationRow,
): Promise<number | undefined> {
  if (row.order_id === null) return undefined;
  const last = await sentTo(settings.db, row.recipient)
    .select('message_id')
    .where('order_id', '=', row.order_id)
    .where('kind', 'not in', CHAT_MESSAGE_KINDS)
    .where('message_id', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return last?.message_id ?? undefined;
}

interface RowUpdate {
  readonly status?: NotificationRow['status'];
  readonly attempts?: number;
  readonly last_error?: string | null;
  readonly next_attempt_at?: number;
  readonly message_id?: number;
  readonly sent_at?: number;
}

/**
 * Releases the claim with the row's new state; a row cut off before its call goes back to
 * `pending` as it was.
 */
async function finish(
  settings: OutboxSettings,
  row: NotificationRow,
  update: RowUpdate,
): Promise<void> {
  await settings.db
    .updateTable('notifications')
    .set({ status: 'pending', ...update, claimed_until: null })
    .where('id', '=', row.id)
    .execute();
}

export interface OutboxPass {
  readonly claimed: number;
  readonly sent: number;
}

/** One pass: claims what is due and sends it, the chats side by side, and waits for them all. */
export async function sendDueNotifications(settings: OutboxSettings): Promise<OutboxPass> {
  if (settings.signal?.aborted === true) return { claimed: 0, sent: 0 };
  const claimed = await claim(settings, settings.now());
  const rows = await setAsideUnsendable(settings, claimed);
  const outcomes = await Promise.all(rows.map((row) => deliver(settings, row)));
  return { claimed: claimed.length, sent: outcomes.filter((o) => o?.kind === 'sent').length };
}

export interface RunningOutbox {
  /**
   * Stops claiming, lets the sends already on their way to Telegram finish (those still waiting
   * for their place are let go, for the next start), and resolves when they have.
   */
  stop(): Promise<void>;
}

/**
 * The worker as the server runs it: each chat a queue of its own. It keeps up to CLAIM_BATCH sends
 * going and claims again whenever one ends, so a chat that waits for Telegram's limits holds only
 * its own place; when nothing is due it looks again every `intervalMs`. Stops with
 * `settings.signal` or `stop()`.
 */
export function startOutbox(settings: OutboxSettings, intervalMs: number): RunningOutbox {
  const stopping = new AbortController();
  const signal =
    settings.signal === undefined
      ? stopping.signal
      : AbortSignal.any([settings.signal, stopping.signal]);
  // Each send waiting for its place listens for the stop, the loop's rest too.
  setMaxListeners(CLAIM_BATCH + 2, signal);
  const running = { ...settings, signal };
  const inFlight = new Set<Promise<unknown>>();
  let wake: (() => void) | undefined;
  const rest = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        wake = undefined;
        resolve();
      }
      wake = done;
      signal.addEventListener('abort', done, { once: true });
    });

  const loop = async (): Promise<void> => {
    while (!signal.aborted) {
      let claimed = 0;
      const room = CLAIM_BATCH - inFlight.size;
      if (room > 0) {
        try {
          const claimedRows = await claim(running, settings.now(), room);
          claimed = claimedRows.length;
          const rows = await setAsideUnsendable(running, claimedRows);
          for (const row of rows) {
            const send: Promise<unknown> = deliver(running, row).finally(() => {
              inFlight.delete(send);
              wake?.();
            });
            inFlight.add(send);
          }
          settings.monitor?.runSucceeded(OUTBOX_JOB);
        } catch (error) {
          settings.log.error({ err: error, job: OUTBOX_JOB }, 'job failed');
          settings.monitor?.runFailed(OUTBOX_JOB);
        }
      }
      // A yield to the event loop between claims; a rest when nothing was due or no room is left.
      if (claimed === 0 || inFlight.size >= CLAIM_BATCH) await rest(intervalMs);
      else await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const done = loop();
  return {
    async stop() {
      stopping.abort(new Stopping('the server is closing'));
      await done;
      await Promise.all(inFlight);
    },
  };
}
