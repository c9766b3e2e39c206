/**
 * How operators change rates: the second confirmation a large change of a base rate
 * needs, and spreads typed as percentages but kept in basis points. Only the server and the
 * console use these, so they stay out of the customer's first chunk.
 */

/**
 * A base rate changed by more than this (basis points of the current rate) needs a second
 * confirmation from the operator: a typo in a rate costs money on every order until noticed.
 */
export const RATE_CHANGE_CONFIRM_BP = 500;

/** The longest an operator may fix a pair's base for, in hours; after it the market rules again. */
export const RATE_FIX_MAX_HOURS = 72;

/**
 * What the audit of rates records: a typed base, a spread, a pair's base fixed or unfixed by an
 * operator, a fixed base that expired, a held jump an operator confirmed, one the sources agreed on.
 */
export const RATE_CHANGE_KINDS = [
  'base',
  'spread',
  'fixed',
  'unfixed',
  'fix_expired',
  'jump_confirmed',
  'jump_agreed',
] as const;
export type RateChangeKind = (typeof RATE_CHANGE_KINDS)[number];

/** Why a pair the market prices is not quoted: too few fresh sources agree, or a jump waits. */
export const UNQUOTED_REASONS = ['no_market', 'jump_held'] as const;
export type Unquoted = (typeof UNQUOTED_REASONS)[number];

/** How a source's price stands in a pair's base. */
export const CANDIDATE_STATES = ['fresh', 'stale', 'outlier'] as const;
export type CandidateState = (typeof CANDIDATE_STATES)[number];

/** A change from `current` to `next` large enough to need the second confirmation. */
export function rateChangeNeedsConfirmation(current: number, next: number): boolean {
  return current > 0 && Math.abs(next - current) * 10_000 > current * RATE_CHANGE_CONFIRM_BP;
}

/** A spread typed as a percentage ("2.5", "2,5") in basis points (250); undefined if not one. */
export function basisPointsFromPercent(text: string): number | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(trimmed)) return undefined;
  return Math.round(Number(trimmed) * 100);
}

/** Basis points as the percentage operators read: 250 → "2.5". */
export function percentFromBasisPoints(basisPoints: number): string {
  return String(basisPoints / 100);
}
