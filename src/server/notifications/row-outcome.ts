/** What became of a send (docs/bot.md, "Delivery"); every failure is kept, token redacted. */
import type { NotificationRow } from '../platform/db/schema';
import { redactToken } from '../platform/logging/redact-token';
import type { OutboxSettings } from './outbox-settings';
import type { SendOutcome } from './telegram-sender';

/** Retries of a 5xx, a network error or a fault of ours, the delay doubling up to RETRY_MAX_MS. */
export const MAX_ATTEMPTS = 12;
const RETRY_BASE_MS = 2_000;
const RETRY_MAX_MS = 10 * 60_000;
const ERROR_LENGTH = 500;

function stored(error: string): string {
  return redactToken(error).slice(0, ERROR_LENGTH);
}

/** Its worker stopped during the call: Telegram may have it already. */
export async function recordCutOff(
  settings: OutboxSettings,
  claimed: NotificationRow,
): Promise<void> {
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

export async function recordFailure(
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

/** Counted as an attempt: a row never sendable fails after MAX_ATTEMPTS, and its chat goes on. */
export async function recordFault(
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

interface RowUpdate {
  readonly status?: NotificationRow['status'];
  readonly attempts?: number;
  readonly last_error?: string | null;
  readonly next_attempt_at?: number;
  readonly message_id?: number;
  readonly sent_at?: number;
}

/** A row cut off before its call goes back to `pending` as it was. */
export async function finish(
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
