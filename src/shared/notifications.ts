/**
 * The bot's messages (issue 12), as the server's outbox and the operators' console both name
 * them: what a customer is told about their order, what the operators' chat is alerted to, and
 * where each message stands.
 */

/** What a customer is told about their order, in their language. */
export const CUSTOMER_NOTICES = [
  'requisites_ready',
  'office_ready',
  'payment_confirmed',
  'tx_confirmed',
  'completed',
  'rejected',
  'cancelled',
  'payment_reminder',
] as const;
export type CustomerNotice = (typeof CUSTOMER_NOTICES)[number];

/** What the operators' chat (`OPERATOR_CHAT_ID`) is alerted to. */
export const OPERATOR_ALERTS = [
  'new_order',
  'receipt_uploaded',
  'tx_submitted',
  'flag_paid_late',
  'flag_reused_receipt',
  'flag_waiting',
] as const;
export type OperatorAlert = (typeof OPERATOR_ALERTS)[number];

export type NotificationKind = CustomerNotice | OperatorAlert;

export function isCustomerNotice(kind: NotificationKind): kind is CustomerNotice {
  return (CUSTOMER_NOTICES as readonly string[]).includes(kind);
}

/**
 * Where a message stands: `pending` until sent (or retried after a failure), `sending` while its
 * call to Telegram is under way (left so by a server stopped mid-call: it may have arrived, and
 * is sent again), `sent`, `failed` for good (after every retry, or refused by Telegram),
 * `unreachable` (the customer blocked the bot), `skipped` (nothing to send it with: demo mode, or
 * no operators' chat configured), `summarised` (an operator alert told in a flood's summary).
 */
export const NOTIFICATION_STATUSES = [
  'pending',
  'sending',
  'sent',
  'summarised',
  'failed',
  'unreachable',
  'skipped',
] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];
