/**
 * Appeals: a customer who paid and heard nothing in time,
 * whose deposit the chain left for an operator, or who disagrees with a rejection, asks a senior
 * operator to decide. An appeal is its own record beside the order's status (no status of its
 * own): while it is open, only its decision ends the order. The rules here are read by
 * the server (which enforces them) and the app (which offers the appeal only where it is taken).
 */
import type { ErrorCode } from './errors';
import { PAID_STATUSES, type OrderAction, type OrderStatus, type OrderType } from './order-status';

/** Why a customer appeals, from a catalogue they read in their language (`appealReasons`). */
export const APPEAL_REASONS = [
  'payment_not_confirmed',
  'wrong_amount',
  'crypto_not_received',
  'rejected_wrongly',
  'other',
] as const;
export type AppealReason = (typeof APPEAL_REASONS)[number];

/**
 * What a senior operator decides: complete the order (its normal completion), refund what the
 * customer paid (the order ends REJECTED), or uphold the rejection (it stays or ends REJECTED).
 */
export const APPEAL_DECISIONS = ['complete', 'refund', 'uphold'] as const;
export type AppealDecision = (typeof APPEAL_DECISIONS)[number];

/** Where an appeal stands: open until a senior operator decides it, then decided for good. */
export const APPEAL_STATES = ['open', 'decided'] as const;
export type AppealState = (typeof APPEAL_STATES)[number];

/**
 * The actions an open appeal holds: the order's end (a completion, a rejection, a cancel or its
 * deadline) is the appeal's decision, taken by a senior operator alone.
 */
export const HELD_BY_APPEAL: readonly OrderAction[] = ['complete', 'reject', 'cancel', 'expire'];

/**
 * The chain check states of a sell's deposit that leave it to an operator (the checker flagged
 * it, or never found it within its lookup window): the seller may appeal.
 */
export const DEPOSIT_LEFT_FOR_OPERATOR = ['flagged', 'not_found'] as const;

/** An order as the appeal rule reads it: from the status answer, or from its row. */
export interface AppealableOrder {
  readonly status: OrderStatus;
  readonly type: OrderType;
  /** The deadline of the order's wait, epoch ms: past it, a paid order waited too long. */
  readonly expiresAt: number | null;
  /** Where the chain check of a sell's deposit stands, as the customer reads it; null without one. */
  readonly chainCheckState: string | null;
  /** The order's appeal, if one was opened. */
  readonly appeal: AppealState | null;
}

/**
 * Why the customer may not appeal now, or null when they may: an order has one appeal, and it is
 * taken when (a) they paid or sent crypto and the order's deadline passed without an operator's
 * answer, (b) the chain left their deposit for an operator, or (c) the order was rejected.
 * Before the deadline of a paid order the answer is APPEAL_TOO_EARLY (the app says when).
 */
export function appealRefusal(order: AppealableOrder, now: number): ErrorCode | null {
  if (order.appeal !== null) return 'APPEAL_EXISTS';
  if (order.status === 'REJECTED') return null;
  const depositLeft =
    order.type === 'SELL' &&
    (DEPOSIT_LEFT_FOR_OPERATOR as readonly string[]).includes(order.chainCheckState ?? '') &&
    (order.status === 'WAITING_CRYPTO' || order.status === 'TX_PENDING');
  if (depositLeft) return null;
  if (!PAID_STATUSES.includes(order.status)) return 'APPEAL_NOT_TAKEN';
  return order.expiresAt !== null && order.expiresAt <= now ? null : 'APPEAL_TOO_EARLY';
}

/**
 * The decisions a senior may take on an order in `status`: completing needs an order that is
 * not over (a rejected one cannot be completed); refunding and upholding end it REJECTED.
 */
export function appealDecisions(status: OrderStatus): readonly AppealDecision[] {
  if (status === 'REJECTED') return ['refund', 'uphold'];
  if (status === 'COMPLETED' || status === 'CANCELLED') return [];
  return APPEAL_DECISIONS;
}
