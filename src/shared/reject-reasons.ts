/**
 * The rejection catalogue: an operator rejects an order with one of
 * these reasons, plus free text when needed; the customer reads the reason in their language (the
 * texts are the dictionary's `rejectReasons`, ru and en). `other` carries only the free text.
 */
export const REJECT_REASONS = [
  'payment_not_received',
  'amount_mismatch',
  'third_party_payment',
  'receipt_invalid',
  'tx_not_found',
  'wrong_coin_or_network',
  'limits_or_checks',
  'other',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/** The reason of a rejection given with free text only. */
export const FREE_TEXT_REJECT_REASON: RejectReason = 'other';
