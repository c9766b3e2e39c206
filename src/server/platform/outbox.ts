/**
 * The transactional outbox: a message to Telegram is a row of `notifications` written in the same
 * transaction as the change that causes it, and sent later by the notifications module's worker.
 * Each row is unique per (event, recipient) by its `dedupe_key`, so an event recorded twice (two
 * sweepers, a retried request) is one message, and a crash before the commit loses the change and
 * its message together. Any module may write to it without depending on the bot.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Language } from '../../shared/api';
import type { AddressAlert, NotificationKind, RateAlert } from '../../shared/notifications';
import type { CryptoCurrency, NetworkId } from '../../shared/networks';
import type { Database } from './db/schema';

/** The recipient key of the operators' chat (OPERATOR_CHAT_ID, read when a row is sent). */
export const OPERATORS_RECIPIENT = 'operators';

/** The recipient key of a customer's private chat with the bot (its id is the user's id). */
export function customerRecipient(telegramId: number): string {
  return `customer:${telegramId}`;
}

/** The customer's Telegram id of a recipient key, or undefined for the operators' chat. */
export function customerOfRecipient(recipient: string): number | undefined {
  return recipient.startsWith('customer:')
    ? Number(recipient.slice('customer:'.length))
    : undefined;
}

export interface Notification {
  readonly kind: NotificationKind;
  readonly recipient: string;
  /** What makes this event this event: with the recipient, the row's unique key. */
  readonly event: string;
  readonly orderId: string | null;
  /** The customer's language; null for the operators' chat, whose language is read when sent. */
  readonly language: Language | null;
  /** What the message states, kept with it as JSON (an order's facts, an address's). */
  readonly facts: object;
}

/** Writes one notification; one already written for the same event and recipient is kept as is. */
export async function enqueue(
  trx: Transaction<Database>,
  notification: Notification,
  now: number,
): Promise<void> {
  await enqueueAll(trx, [notification], now);
}

/** Writes several notifications in one statement, as `enqueue` writes each. */
export async function enqueueAll(
  trx: Transaction<Database>,
  notifications: readonly Notification[],
  now: number,
): Promise<void> {
  if (notifications.length === 0) return;
  await trx
    .insertInto('notifications')
    .values(
      notifications.map((notification) => ({
        dedupe_key: `${notification.event}:${notification.recipient}`,
        recipient: notification.recipient,
        order_id: notification.orderId,
        kind: notification.kind,
        language: notification.language,
        payload: JSON.stringify(notification.facts),
        status: 'pending' as const,
        next_attempt_at: now,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .execute();
}

/** What an alert about a deposit address states (ADDRESS_ALERTS): no order, the chain's facts. */
export interface AddressFacts {
  readonly network: NetworkId;
  /** unmatched_deposit: the transfer, its amount an exact decimal of whole coins. */
  readonly coin?: CryptoCurrency;
  readonly amount?: string;
  readonly sender?: string;
  readonly txHash?: string;
  /** scan_behind: the final blocks the scan has still to read. */
  readonly lagBlocks?: number;
  /** As on an order's alert: set on a flood's summary. */
  readonly summaryCount?: number;
}

/** What an alert about a pair's rate states (RATE_ALERTS): the pair and how each source stood. */
export interface RateFacts {
  readonly crypto: CryptoCurrency;
  readonly fiat: string;
  /** rate_back, rate_fix_ended: the market's base in force, in the currency per coin. */
  readonly base?: number;
  /** rate_jump: the base accepted and the market's base it jumped to. */
  readonly from?: number;
  readonly to?: number;
  /** rate_fix_ended: the operator's fixed base that ended. */
  readonly fixed?: number;
  readonly sources: readonly {
    readonly source: string;
    readonly price: number;
    readonly state: 'fresh' | 'stale' | 'outlier';
  }[];
  /** As on an order's alert: set on a flood's summary. */
  readonly summaryCount?: number;
}

/** What an alert about no order states: a deposit address's facts, or a pair's. */
type FactsOf<K extends AddressAlert | RateAlert> = K extends AddressAlert
  ? AddressFacts
  : RateFacts;

/**
 * Alerts the operators' chat about something that is no order (an unmatched transfer, a scan
 * fallen behind, a pair's rate), once per `event`, in the caller's transaction.
 */
export async function alertOperatorsOf<K extends AddressAlert | RateAlert>(
  trx: Transaction<Database>,
  kind: K,
  facts: FactsOf<K>,
  event: string,
  now: number,
): Promise<void> {
  await enqueue(
    trx,
    { kind, recipient: OPERATORS_RECIPIENT, event, orderId: null, language: null, facts },
    now,
  );
}

/**
 * The outbox's rows that reached `recipient`'s chat (with the id Telegram gave their message),
 * newest first: where a thread's edit and a reply to the bot find the message they are about.
 */
export function sentTo(db: Kysely<Database>, recipient: string) {
  return db
    .selectFrom('notifications')
    .where('notifications.recipient', '=', recipient)
    .where('notifications.status', '=', 'sent')
    .orderBy('notifications.id', 'desc');
}
