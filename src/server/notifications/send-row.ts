import type { NotificationKind } from '../../shared/notifications';
import { CHAT_MESSAGE_KINDS } from '../../shared/notifications';
import type { NotificationRow } from '../platform/db/schema';
import { customerOfRecipient, OPERATORS_RECIPIENT, sentTo } from '../platform/outbox';
import { OUTBOX_JOB, Stopping, type OutboxSettings } from './outbox-settings';
import { renderStored } from './render';
import { finish, recordCutOff, recordFailure, recordFault } from './row-outcome';
import { summariseFlood } from './summaries';
import type { MessageSender, SendOutcome } from './telegram-sender';

/** Notices that only move on a state the customer knows edit the order's last message. */
const THREAD_UPDATES: ReadonlySet<NotificationKind> = new Set([
  'payment_confirmed',
  'tx_confirmed',
]);

/** Longer than a call can take (CALL_TIMEOUT_SECONDS). */
const SEND_LEASE_MS = 30_000;

export async function deliver(
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

/** Not written to until their next /start. */
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

/** Held for the summary (null), or sent as the row the flood makes of it. */
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

/** Null when the claim lapsed before the send. */
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
    // Marked before the call, so a restart can tell it may have left; only while still our claim.
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
