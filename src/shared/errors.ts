/**
 * Stable error codes of every API error answer `{ error, code }`.
 * The server sends the message in the caller's language; the app maps a code to its own
 * translated text (`LL.apiErrors[code]`), never showing a server string it did not choose.
 */
/**
 * A transaction hash the chain shows is not the transfer it was given for: a sell's deposit
 * (server/chain/deposit-rules.ts; the order keeps waiting for the right one) or an operator's
 * payout (operator/verbs/complete.ts).
 */
export const CHAIN_TRANSFER_REFUSALS = [
  'TX_FAILED',
  'TX_WRONG_TOKEN',
  'TX_WRONG_RECIPIENT',
  'TX_UNDERPAID',
  // A sell's deposit of more than its exact amount, or of another order's exact amount: the
  // exact amount is what ties a transfer to one order (server/chain/deposit-rules.ts).
  'TX_AMOUNT_MISMATCH',
  'TX_BEFORE_ORDER',
  'TX_ALREADY_USED',
  // An operator's payout of a buy (operator/verbs/complete.ts): found, but older
  // than the payment it answers; the other wrong payouts reuse the deposit codes above.
  'TX_BEFORE_PAYMENT',
  // A payout not sent from the exchange's configured payout address (PAYOUT_ADDRESS_EVM or
  // PAYOUT_ADDRESS_TRC20): anyone's transfer to the customer, the customer's own included.
  'TX_WRONG_SENDER',
  // A payout of far more than the order's amount (beyond a small tolerance): most likely the hash
  // of another transfer to the same wallet, or an amount typed wrong.
  'TX_OVERPAID',
  // The chain could not confirm a payout yet: the node does not know the hash (just broadcast) or
  // did not answer. Not "wrong": the operator retries, or completes anyway with a reason.
  'TX_UNCONFIRMED',
] as const;

const ERROR_CODES = [
  'AUTH_MISSING',
  'AUTH_INVALID',
  'AUTH_EXPIRED',
  // An operator's money action (MONEY_ACTIONS) on init data older than OPERATOR_INIT_DATA_MAX_AGE.
  'OPERATOR_REOPEN',
  'FORBIDDEN',
  'NOT_FOUND',
  'ORDER_NOT_FOUND',
  'BAD_REQUEST',
  'INVALID_JSON',
  'VALIDATION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'DEMO_DISABLED',
  'RATE_CHANGED',
  // Too few fresh market sources agree on the pair's price: it is not quoted until they do.
  'RATE_UNAVAILABLE',
  'TOTAL_MISMATCH',
  'AMOUNT_TOO_LOW',
  'AMOUNT_TOO_HIGH',
  'UNSUPPORTED_NETWORK',
  'INVALID_WALLET_ADDRESS',
  'INVALID_TX_HASH',
  'TX_HASH_ALREADY_SUBMITTED',
  ...CHAIN_TRANSFER_REFUSALS,
  // An operator confirms a seller's transaction by hand on a network read from a node (the chain
  // checker's to confirm) without saying why (operator/verbs/confirm-tx.ts).
  'CONFIRM_REASON_REQUIRED',
  // An operator attaches a transfer that is not among the unmatched deposits of the order's
  // network and coin (operator/verbs/attach-deposit.ts).
  'DEPOSIT_NOT_LISTED',
  // Every exact amount a new sell could be given near its amount is held by another sell
  // (orders/deposit-amounts.ts): creating it says so rather than reuse one.
  'DEPOSIT_AMOUNTS_TAKEN',
  'UNKNOWN_CITY',
  'TOO_MANY_ACTIVE_ORDERS',
  'INVALID_STATUS',
  'REQUISITES_NOT_CONFIGURED',
  'FILE_TYPE',
  'FILE_TOO_LARGE',
  'NO_FILE',
  'RATE_LIMITED',
  'RATE_CHANGE_UNCONFIRMED',
  // An operator confirms a jump of a pair's base that no longer waits (taken meanwhile).
  'RATE_JUMP_NOT_HELD',
  // A customer keeps as many saved wallets (or cards) as they may (SAVED_WALLETS_MAX,
  // SAVED_CARDS_MAX): another is saved once one is deleted.
  'SAVED_DETAILS_FULL',
  // An order chat's message with neither text nor a file (chat/chat.ts).
  'MESSAGE_EMPTY',
  // Appeals (shared/appeals.ts): the order has its appeal already; none is taken in its state;
  // a paid order's deadline has not passed yet; the order is under appeal, which only a senior
  // operator's decision ends; the call is a senior operator's; no open appeal to decide; a sell's
  // refund cannot be checked since the chain never showed where its deposit came from.
  'APPEAL_EXISTS',
  'APPEAL_NOT_TAKEN',
  'APPEAL_TOO_EARLY',
  'APPEAL_HELD',
  'SENIOR_ONLY',
  'APPEAL_NOT_OPEN',
  'REFUND_SENDER_UNKNOWN',
  // The server cannot serve now: its database does not answer, or it is stopping (a deploy).
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** The HTTP status each code is answered with. */
export const ERROR_HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  AUTH_MISSING: 401,
  AUTH_INVALID: 401,
  AUTH_EXPIRED: 401,
  OPERATOR_REOPEN: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  VALIDATION_FAILED: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  DEMO_DISABLED: 404,
  RATE_CHANGED: 409,
  RATE_UNAVAILABLE: 503,
  TOTAL_MISMATCH: 400,
  AMOUNT_TOO_LOW: 400,
  AMOUNT_TOO_HIGH: 400,
  UNSUPPORTED_NETWORK: 400,
  INVALID_WALLET_ADDRESS: 400,
  INVALID_TX_HASH: 400,
  TX_HASH_ALREADY_SUBMITTED: 409,
  TX_FAILED: 400,
  TX_WRONG_TOKEN: 400,
  TX_WRONG_RECIPIENT: 400,
  TX_UNDERPAID: 400,
  TX_AMOUNT_MISMATCH: 400,
  TX_BEFORE_ORDER: 400,
  TX_ALREADY_USED: 409,
  TX_BEFORE_PAYMENT: 400,
  TX_WRONG_SENDER: 400,
  TX_OVERPAID: 400,
  TX_UNCONFIRMED: 409,
  CONFIRM_REASON_REQUIRED: 400,
  DEPOSIT_NOT_LISTED: 404,
  DEPOSIT_AMOUNTS_TAKEN: 409,
  UNKNOWN_CITY: 400,
  TOO_MANY_ACTIVE_ORDERS: 409,
  INVALID_STATUS: 409,
  REQUISITES_NOT_CONFIGURED: 404,
  FILE_TYPE: 400,
  FILE_TOO_LARGE: 413,
  NO_FILE: 400,
  RATE_LIMITED: 429,
  RATE_CHANGE_UNCONFIRMED: 409,
  RATE_JUMP_NOT_HELD: 409,
  SAVED_DETAILS_FULL: 409,
  MESSAGE_EMPTY: 400,
  APPEAL_EXISTS: 409,
  APPEAL_NOT_TAKEN: 409,
  APPEAL_TOO_EARLY: 409,
  APPEAL_HELD: 409,
  SENIOR_ONLY: 403,
  APPEAL_NOT_OPEN: 409,
  REFUND_SENDER_UNKNOWN: 409,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};
