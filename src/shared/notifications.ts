/**
 * The bot's messages, as the server's outbox and the operators' console both name
 * them: what a customer is told about their order, what the operators' chat is alerted to, and
 * where each message stands.
 */

/** What a customer is told about their order, in their language. */
export const CUSTOMER_NOTICES = [
  // A sell's exact amount and the deposit address, at its creation: in the chat to copy from.
  'deposit_requested',
  'requisites_ready',
  'office_ready',
  'payment_confirmed',
  'tx_confirmed',
  'completed',
  'rejected',
  'cancelled',
  'payment_reminder',
  // An operator wrote in the order's chat: the message itself, with the order's verification code.
  'operator_message',
  // The customer's appeal is received: its reason and what happens next.
  'appeal_received',
  // A senior operator decided the order's appeal: the decision's wording and their outcome text.
  'appeal_decided',
] as const;
export type CustomerNotice = (typeof CUSTOMER_NOTICES)[number];

/**
 * What the operators' chat is alerted to about a deposit address rather than an order: a
 * transfer no sell could take (above CHAIN_DUST_BELOW), and a scan fallen far behind its chain.
 */
export const ADDRESS_ALERTS = ['unmatched_deposit', 'scan_behind'] as const;
export type AddressAlert = (typeof ADDRESS_ALERTS)[number];

/** Whether an alert is about a deposit address (its facts are not an order's). */
export function isAddressAlert(kind: NotificationKind): kind is AddressAlert {
  return (ADDRESS_ALERTS as readonly string[]).includes(kind);
}

/**
 * What the operators' chat is alerted to about the market rates: a pair that stopped being quoted
 * (too few fresh sources agree), the same pair quoted again, a jump of its base held for an
 * operator to confirm, and an operator's fixed rate that ended.
 */
export const RATE_ALERTS = [
  'rate_unavailable',
  'rate_back',
  'rate_jump',
  'rate_fix_ended',
] as const;
export type RateAlert = (typeof RATE_ALERTS)[number];

/** Whether an alert is about a pair's rate (its facts are not an order's). */
export function isRateAlert(kind: NotificationKind): kind is RateAlert {
  return (RATE_ALERTS as readonly string[]).includes(kind);
}

/** What the operators' chat (`OPERATOR_CHAT_ID`) is alerted to. */
export const OPERATOR_ALERTS = [
  'new_order',
  'receipt_uploaded',
  'tx_submitted',
  'flag_paid_late',
  'flag_reused_receipt',
  'flag_waiting',
  'flag_chain_deposit',
  // The customer wrote in the order's chat: the message, with a button to the order in the console.
  'customer_message',
  // The customer opened an appeal: its reason and text, for a senior operator to decide.
  'appeal_opened',
  ...ADDRESS_ALERTS,
  ...RATE_ALERTS,
] as const;
export type OperatorAlert = (typeof OPERATOR_ALERTS)[number];
/** An alert about one order. */
export type OrderAlert = Exclude<OperatorAlert, AddressAlert | RateAlert>;

/**
 * What the chain checker flags a seller's deposit for: a transaction found after the
 * submission that is not the deposit (it failed, another token, another address, too little, too
 * early, another order's transfer), a transfer gone from the chain before its confirmations (a
 * reorganised block), a hash never found within the lookup window, and an overpayment to settle
 * (the order was confirmed).
 */
export const CHAIN_FLAGS = [
  'failed',
  'wrong_token',
  'wrong_recipient',
  'underpaid',
  'before_order',
  'already_used',
  'reorged',
  'not_found',
  // A hash its node could not be read for through a whole lookup window (down, or refusing with
  // 429s): never judged, still looked for, but someone should know.
  'unreadable',
  // Alerts written before deposits were held to their exact amount (kept so they still read).
  'overpaid',
  // An operator's payout of a buy, followed after its completion: found wrong (after an override,
  // or re-mined differently), never found within the lookup window, or gone in a reorganisation.
  'payout_wrong',
  'payout_not_found',
  'payout_reorged',
  'payout_unreadable',
  // A transfer of another amount than the order's exact one (more, or less than an operator can
  // settle), found after the submission.
  'wrong_amount',
  // A hash whose transfer is the exact amount of another customer's open sell: the sign of a
  // seller pasting a transfer that is not theirs (the alert names both orders).
  'foreign_amount',
  // The exact amount of a sell that had ended (cancelled by its deadline, say) arrived within
  // the hold: the seller was late; the money is theirs to settle.
  'late_deposit',
  // The exact amount of an open sell arrived under another hash than the one its seller gave.
  'other_hash',
  // The same hash given for several orders on a manual network (operators confirm by hand).
  'same_hash',
] as const;
export type ChainFlag = (typeof CHAIN_FLAGS)[number];

export type NotificationKind = CustomerNotice | OperatorAlert;

/**
 * A message written in an order's chat, passed on by the bot: its own message, never part of the
 * order's thread of status messages (a confirmation edits the last of those, not a chat message).
 */
export const CHAT_MESSAGE_KINDS = [
  'operator_message',
  'customer_message',
] as const satisfies readonly NotificationKind[];

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
