import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Language } from '../../../../shared/api';
import type { NotificationKind, NotificationStatus } from '../../../../shared/notifications';

/**
 * The transactional outbox: a message to Telegram, written in the same transaction as the change
 * that causes it, unique per (event, recipient) by `dedupe_key`, sent later by the outbox worker.
 */
export interface NotificationsTable {
  id: Generated<number>;
  dedupe_key: string;
  /** `customer:<telegram id>` or `operators` (the chat of OPERATOR_CHAT_ID, read when sent). */
  recipient: string;
  order_id: string | null;
  kind: NotificationKind;
  /** The customer's language; null for the operators' chat (OPERATOR_CHAT_LANGUAGE, when sent). */
  language: Language | null;
  /** JSON: the facts of the event, as they were when it happened. */
  payload: string;
  status: ColumnType<NotificationStatus, NotificationStatus, NotificationStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: number;
  /** While a worker holds the row: no other claims it before this time. */
  claimed_until: ColumnType<number | null, number | null | undefined, number | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  /** The Telegram message it became: a later update of the order's thread edits it. */
  message_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: number;
  sent_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Every failed attempt to send a notification, kept. */
export interface NotificationFailuresTable {
  id: Generated<number>;
  notification_id: number;
  attempt: number;
  error: string;
  created_at: number;
}

export type NotificationRow = Selectable<NotificationsTable>;
