/**
 * Every business number, in one place. Amounts are in whole units of the
 * currency named; times are in milliseconds unless the name says otherwise.
 */

/** P2P buy and sell: the rouble total must lie within these bounds. */
export const P2P_RUB_MIN = 3_000;
export const P2P_RUB_MAX = 500_000;

/** Bank-account buy: rouble bounds. The minimum is checked on continue, the maximum while typing. */
export const BANK_RUB_MIN = 500_000;
export const BANK_RUB_MAX = 1_000_000;

/** Office buy bounds per fiat currency; `OFFICE_DEFAULT_LIMITS` for any currency not listed. */
export const OFFICE_LIMITS = {
  RUB: { min: 500_000, max: 10_000_000 },
  USD: { min: 5_000, max: 100_000 },
  EUR: { min: 5_000, max: 100_000 },
  AED: { min: 20_000, max: 400_000 },
  KZT: { min: 2_000_000, max: 100_000_000 },
} as const;
export const OFFICE_DEFAULT_LIMITS = { min: 5_000, max: 100_000 } as const;

export interface AmountBounds {
  readonly min: number;
  readonly max: number;
}

/** The office bounds of a fiat currency code. */
export function officeLimits(currency: string): AmountBounds {
  return currency in OFFICE_LIMITS
    ? OFFICE_LIMITS[currency as keyof typeof OFFICE_LIMITS]
    : OFFICE_DEFAULT_LIMITS;
}

/**
 * The fiat-total bounds of a method: P2P buy and sell 3 000 – 500 000 RUB,
 * bank buy 500 000 – 1 000 000 RUB, office per currency.
 */
export function fiatBounds(
  method: 'P2P' | 'BANK_ACCOUNT' | 'OFFICE',
  currency: string,
): AmountBounds {
  if (method === 'P2P') return { min: P2P_RUB_MIN, max: P2P_RUB_MAX };
  if (method === 'BANK_ACCOUNT') return { min: BANK_RUB_MIN, max: BANK_RUB_MAX };
  return officeLimits(currency);
}

/** The amount the first rate lookup uses, before the customer typed anything. */
export const INITIAL_RATE_LOOKUP_AMOUNT = 1000;
/**
 * How soon a form asks again for a rate the server could not quote (RATE_UNAVAILABLE: too few
 * market sources agree): the customer sees why there is no rate and it comes back by itself.
 */
export const RATE_UNAVAILABLE_RETRY_MS = 15_000;
/** Rate refetch debounce after typing. */
export const P2P_RATE_DEBOUNCE_MS = 800;
export const BANK_RATE_DEBOUNCE_MS = 500;

/** P2P payment timer from `requisitesReadyAt` when `expiresAt` is absent, and its warning threshold. */
export const P2P_PAYMENT_WINDOW_MS = 30 * 60 * 1000;
export const P2P_PAYMENT_WARNING_MS = 5 * 60 * 1000;
/** Bank transfer timer (shown as h:mm:ss) and its warning threshold. */
export const BANK_PAYMENT_WINDOW_MS = 2 * 60 * 60 * 1000;
export const BANK_PAYMENT_WARNING_MS = 10 * 60 * 1000;
/**
 * The payment window of each method whose customer pays by transfer, counted from
 * `requisitesReadyAt`, and when the countdown turns to a warning. The server
 * stores the deadline it gives on the order; the app falls back to these when it is absent.
 */
export const PAYMENT_WINDOWS = {
  P2P: { windowMs: P2P_PAYMENT_WINDOW_MS, warningMs: P2P_PAYMENT_WARNING_MS },
  BANK_ACCOUNT: { windowMs: BANK_PAYMENT_WINDOW_MS, warningMs: BANK_PAYMENT_WARNING_MS },
} as const;
export type TransferMethod = keyof typeof PAYMENT_WINDOWS;

/**
 * Waiting for an operator (requisites, office instructions): they usually come within 10 minutes,
 * after which the order is flagged for operators; with no answer within the
 * configured time (REQUISITES_TIMEOUT, an hour by default) the server cancels it.
 */
export const OPERATOR_USUAL_ANSWER_MS = 10 * 60 * 1000;
export const DEFAULT_REQUISITES_TIMEOUT_MS = 60 * 60 * 1000;

/** A sell: the time the customer has to send the crypto (WAITING_CRYPTO), at the rate agreed. */
export const CRYPTO_SEND_WINDOW_MS = 30 * 60 * 1000;
/** The send-crypto countdown turns to a warning under 5 minutes, as the P2P payment's does. */
export const CRYPTO_SEND_WARNING_MS = 5 * 60 * 1000;

/**
 * The bot reminds a customer who has not said they paid (or sent the crypto of a sell) this long
 * before the deadline.
 */
export const PAYMENT_REMINDER_BEFORE_MS = 5 * 60 * 1000;

/** Office: the rate is fixed, and the cash reserved, for 3 hours; warning under 10 minutes. */
export const OFFICE_RATE_FIXED_MS = 3 * 60 * 60 * 1000;
export const OFFICE_RESERVATION_WARNING_MS = 10 * 60 * 1000;

/**
 * The landing's health check runs again this long after the previous one.
 * The order screens' intervals are in order-screens.ts, beside what each screen does.
 */
export const HEALTH_CHECK_INTERVAL_MS = 10_000;
/** The landing's health check gives up (Offline) after this long. */
export const HEALTH_TIMEOUT_MS = 3_000;
/**
 * The server's health check gives up on its database after this long and answers 503: a hung
 * database must not hang a load balancer's probe. Below HEALTH_TIMEOUT_MS, so that the app gets
 * the answer rather than giving up first.
 */
export const HEALTH_DATABASE_TIMEOUT_MS = 2_000;

/** Card number: at most 16 digits, shown in groups of 4. */
export const CARD_NUMBER_MAX_DIGITS = 16;
export const CARD_NUMBER_GROUP = 4;
/**
 * Saved details (a customer's wallets and cards, kept for their next orders): at most this many
 * of each, each with a label of at most SAVED_LABEL_MAX characters.
 */
export const SAVED_WALLETS_MAX = 20;
export const SAVED_CARDS_MAX = 10;
export const SAVED_LABEL_MAX = 32;
/** Receipt upload: at most 10 MB (10 * 1024 * 1024 bytes). */
export const RECEIPT_MAX_BYTES = 10 * 1024 * 1024;
/**
 * An order chat's message: at most this many characters of text (trimmed). Room is left under
 * Telegram's 4 096 for the bot's message that carries it with the order's verification code.
 */
export const CHAT_TEXT_MAX_CHARS = 3_000;
/** History page size, and the most the server gives in one page. */
export const HISTORY_PAGE_SIZE = 20;
export const HISTORY_PAGE_MAX = 100;
/** How long 'Copied' feedback stays after tap-to-copy. */
export const COPY_FEEDBACK_MS = 2_000;

/** Display precision: crypto 4 decimals, rate 2 decimals, roubles whole. */
export const CRYPTO_DECIMALS = 4;
export const RATE_DECIMALS = 2;
export const RUB_DECIMALS = 0;

/** The crypto amount of a sell order created without one. */
export const DEFAULT_SELL_AMOUNT = 100;

/** A customer may hold at most this many active orders (the server's default; configurable). */
export const DEFAULT_MAX_ACTIVE_ORDERS = 5;
