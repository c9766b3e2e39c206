/** Bodies of the operators' calls under /api/operator/. */
import * as v from 'valibot';
import { CRYPTO_CURRENCIES } from '../networks';
import { LISTED_CURRENCIES } from '../currencies';
import { RATE_FIX_MAX_HOURS } from '../rate-rules';
import { ORDER_STATUSES, ORDER_TYPES, PAYMENT_METHODS } from '../order-status';
import { INCOMING_PAGE } from '../operator-api';
import {
  bankDetailField,
  bankNameField,
  cardNumberField,
  commentField,
  phoneField,
} from './fields';
import { FREE_TEXT_REJECT_REASON, REJECT_REASONS } from '../reject-reasons';
import { line, lineText, paragraph, SlugSchema } from './text';

/**
 * Every action body may carry the status the operator saw: the action is then taken only while
 * the order is still in it, so an operator acting on a view another operator already changed is
 * refused (409 INVALID_STATUS with the status it has now), never acting twice.
 */
const seen = { expectedStatus: v.optional(v.picklist(ORDER_STATUSES)) };

/** The body of an action that carries nothing else (confirm a payment). */
export const OperatorActionSchema = v.nullish(v.object(seen), {});

/**
 * Why an operator acts where the chain check would have decided (completes despite its refusal,
 * confirms a deposit it has not confirmed), in the operator's words: trimmed, 1 to 500
 * characters, kept in the order's audit trail.
 */
export const auditedReason = v.optional(paragraph(500));

/** The fields of confirming a seller's transaction. */
export const ConfirmTxFields = v.object({
  ...seen,
  /**
   * Required on a network read from a node (CONFIRM_REASON_REQUIRED without it), where the chain
   * checker would confirm the deposit itself: why it is confirmed by hand.
   */
  reason: auditedReason,
});

/** Attaching an unmatched deposit (a transfer to the deposit address) to a waiting sell. */
export const AttachDepositSchema = v.object({
  ...seen,
  txHash: lineText(100),
});

/** Confirming a seller's transaction; no body on a network without a node, as before. */
export const ConfirmTxSchema = v.nullish(ConfirmTxFields, {});

/** P2P card requisites for a P2P buy. */
export const CardRequisitesSchema = v.object({
  ...seen,
  bankName: bankNameField,
  cardNumber: cardNumberField,
  /** As the customer's bank app shows it: any script (a payout card's holder is Latin). */
  cardHolder: line(64),
  phone: v.optional(phoneField),
  comment: v.optional(commentField),
});

/** Bank requisites for a bank-transfer buy (Russian bank details). */
export const BankRequisitesSchema = v.object({
  ...seen,
  recipientName: line(200),
  accountNumber: bankDetailField('accountNumber'),
  bankName: line(200),
  bik: bankDetailField('bik'),
  correspondentAccount: bankDetailField('correspondentAccount'),
  inn: bankDetailField('inn'),
  bankAddress: v.optional(lineText(300)),
  beneficiaryName: v.optional(lineText(200)),
  beneficiaryAccount: v.optional(bankDetailField('accountNumber')),
});

export const OfficeInstructionsSchema = v.object({
  ...seen,
  instructions: paragraph(2000),
  /** One of the offices of the order's city; its first office when absent. */
  officeId: v.optional(SlugSchema),
});

export const CompleteSchema = v.object({
  ...seen,
  /** The transaction that sent the customer's crypto (required for a P2P or bank buy). */
  outgoingTxHash: v.optional(lineText(100)),
  /**
   * Completes even though the chain check refused the hash (or could not read it): why, in the
   * operator's words, kept in the order's audit trail with the problem it overrode.
   */
  overrideReason: auditedReason,
});

/**
 * A rejection: a reason from the catalogue (src/shared/reject-reasons.ts) and free text the
 * customer reads beside it. Free text alone is the catalogue's `other`, which needs the text.
 */
export const RejectSchema = v.pipe(
  v.object({
    ...seen,
    reasonCode: v.optional(v.picklist(REJECT_REASONS), FREE_TEXT_REJECT_REASON),
    reason: v.optional(paragraph(500)),
  }),
  v.forward(
    v.check(
      ({ reasonCode, reason }) => reasonCode !== FREE_TEXT_REJECT_REASON || reason !== undefined,
      'reason is required for the reason code other',
    ),
    ['reason'],
  ),
);

/** Fiat per coin, up to 6 decimals. */
const baseRate = v.pipe(v.number(), v.finite(), v.minValue(0.000001), v.maxValue(1_000_000));
/** Given once the operator confirmed a change of more than 5% (RATE_CHANGE_CONFIRM_BP). */
const confirmLargeChange = v.optional(v.boolean(), false);

export const SetRateSchema = v.object({
  fiat: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
  crypto: v.picklist(CRYPTO_CURRENCIES),
  baseRate,
  confirmLargeChange,
});

/** A pair the market prices. */
const marketPair = { fiat: v.picklist(LISTED_CURRENCIES), crypto: v.picklist(CRYPTO_CURRENCIES) };

/**
 * An operator fixes a pair's base for `hours` (the market's rules again after), or ends the fixed
 * base early with `baseRate: null`.
 */
export const FixRateSchema = v.object({
  ...marketPair,
  baseRate: v.nullable(baseRate),
  hours: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(RATE_FIX_MAX_HOURS)),
    24,
  ),
  confirmLargeChange,
});

/** An operator takes the jump the market's base made, held until now. */
export const ConfirmJumpSchema = v.object(marketPair);

export const SetSpreadSchema = v.object({
  paymentMethod: v.picklist(PAYMENT_METHODS),
  operation: v.picklist(ORDER_TYPES),
  /** Basis points: 150 = 1.5 %. */
  spreadBp: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2_000)),
});

/** A calendar day, `yyyy-mm-dd` (UTC). */
const DaySchema = v.pipe(v.string(), v.isoDate());

/** A page of a list in the query: `limit` rows (1–100, `defaultLimit` unless given) from `offset`. */
function pageQuery(defaultLimit: number) {
  return {
    limit: v.optional(
      v.pipe(v.string(), v.regex(/^\d{1,3}$/), v.transform(Number), v.minValue(1), v.maxValue(100)),
      String(defaultLimit),
    ),
    offset: v.optional(
      v.pipe(v.string(), v.regex(/^\d{1,7}$/), v.transform(Number), v.minValue(0)),
      '0',
    ),
  };
}

/** `GET /api/operator/incoming`: a page of the unmatched deposits, newest first. */
export const IncomingQuerySchema = v.looseObject(pageQuery(INCOMING_PAGE));

export const OperatorListQuerySchema = v.looseObject({
  /** An order number (the start of its id), a Telegram id, a @username or a customer's name. */
  q: v.optional(line(100)),
  /** Created on or after this day, and on or before `to`. */
  from: v.optional(DaySchema),
  to: v.optional(DaySchema),
  status: v.optional(v.picklist([...ORDER_STATUSES, 'active', 'attention'])),
  type: v.optional(v.picklist(ORDER_TYPES)),
  method: v.optional(v.picklist(PAYMENT_METHODS)),
  ...pageQuery(50),
});
