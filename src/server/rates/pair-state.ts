/**
 * What a pair quotes and how its state moves, as pure functions of its row and the market's base
 * now (the median of market-base.ts):
 * - an operator's fixed base, while in force, is what customers are quoted;
 * - else the market's base, once accepted: a base further than `jumpBp` from any base accepted
 *   in the last JUMP_WINDOW_MS is a jump, held (the pair is not quoted) until an operator
 *   confirms it or the market has stayed by it for `jumpAgreeMs`; a market back near its
 *   accepted bases ends the hold by itself.
 * Quotes read the market live, so a base the watch has not yet looked at is held all the same.
 */
import type { Selectable } from 'kysely';
import type { RatePairsTable } from '../platform/db/schema';
import type { AppConfig } from '../platform/config/config';
import type { Unquoted } from '../../shared/rate-rules';

export type PairRow = Selectable<RatePairsTable>;
export type PairRules = AppConfig['rateRules'];

/** How far back an accepted base counts when a new one is judged a jump. */
export const JUMP_WINDOW_MS = 10 * 60_000;
/** The accepted base goes to the history when it changes, and at least this often. */
export const CHART_EVERY_MS = 60_000;

/** How far `to` is from `from`, in basis points of `from`. */
export function apartBp(from: number, to: number): number {
  return (Math.abs(to - from) * 10_000) / from;
}

/** The operator's fixed base while in force. */
export function fixedBase(row: PairRow | undefined, now: number): number | undefined {
  if (row?.fixed_units == null || row.fixed_until == null || row.fixed_until <= now)
    return undefined;
  return row.fixed_units;
}

/** The base customers are quoted now, or why there is none. */
export function baseInForce(
  row: PairRow | undefined,
  market: number | undefined,
  now: number,
  rules: PairRules,
): { readonly units: number } | { readonly unquoted: Unquoted } {
  const fixed = fixedBase(row, now);
  if (fixed !== undefined) return { units: fixed };
  if (market === undefined) return { unquoted: 'no_market' };
  if (row == null || row.base_units == null) return { unquoted: 'no_market' };
  if (row.held_units != null || apartBp(row.base_units, market) > rules.jumpBp) {
    return { unquoted: 'jump_held' };
  }
  return { units: market };
}

/** What the watch tells of a pair, beside its quoting changing. */
export type PairEvent =
  | { readonly kind: 'jump'; readonly from: number; readonly to: number }
  | { readonly kind: 'jump_agreed'; readonly from: number; readonly to: number }
  | { readonly kind: 'fix_expired'; readonly fixed: number };

export type PairWrite = Partial<
  Omit<PairRow, 'crypto' | 'fiat' | 'revision' | 'quoting' | 'changed_at'>
>;

export interface PairDecision {
  /** The columns to write (none: the row stands). */
  readonly set: PairWrite;
  /** Whether customers can order the pair after the write. */
  readonly quoting: boolean;
  /** The base customers are quoted after it (fixed or the market's), if any. */
  readonly inForce: number | undefined;
  /** The accepted base to chart now, if any. */
  readonly chart: number | undefined;
  readonly events: readonly PairEvent[];
}

const HOLD_CLEARED = { held_units: null, held_from_units: null, held_since: null } as const;

/** The market side of a decision: accept, hold, or wait. */
function judgeMarket(
  row: PairRow | undefined,
  market: number | undefined,
  reference: readonly number[],
  now: number,
  rules: PairRules,
): { set: PairWrite; events: PairEvent[] } {
  const held = row?.held_units ?? null;
  if (market === undefined) return { set: held === null ? {} : HOLD_CLEARED, events: [] };
  const accept = (extra: PairWrite = {}): PairWrite =>
    row?.base_units === market && Object.keys(extra).length === 0
      ? {}
      : { base_units: market, base_at: now, ...extra };
  const jumpedFrom = reference.find((units) => apartBp(units, market) > rules.jumpBp);
  if (held === null) {
    if (jumpedFrom === undefined) return { set: accept(), events: [] };
    const from = row?.base_units ?? jumpedFrom;
    return {
      set: { held_units: market, held_from_units: from, held_since: now },
      events: [{ kind: 'jump', from, to: market }],
    };
  }
  // The market came back near the base it jumped from (and those since): nothing to confirm.
  const from = row?.held_from_units ?? held;
  if (jumpedFrom === undefined && apartBp(from, market) <= rules.jumpBp) {
    return { set: accept(HOLD_CLEARED), events: [] };
  }
  // It moved on again from the figure held: the wait starts over at the new one.
  if (apartBp(held, market) > rules.jumpBp) {
    return { set: { held_units: market, held_since: now }, events: [] };
  }
  if (now - (row?.held_since ?? now) >= rules.jumpAgreeMs) {
    return {
      set: accept({ ...HOLD_CLEARED, window_from: now }),
      events: [{ kind: 'jump_agreed', from, to: market }],
    };
  }
  return { set: held === market ? {} : { held_units: market }, events: [] };
}

/**
 * The pair's next state from its row, the market's base now (undefined: too few sources agree)
 * and the bases it accepted in the last JUMP_WINDOW_MS (since its last accepted jump).
 */
export function decidePair(
  row: PairRow | undefined,
  market: number | undefined,
  reference: readonly number[],
  now: number,
  rules: PairRules,
): PairDecision {
  const events: PairEvent[] = [];
  const set: PairWrite = {};
  if (row?.fixed_units != null && fixedBase(row, now) === undefined) {
    Object.assign(set, { fixed_units: null, fixed_until: null, fixed_by: null });
    events.push({ kind: 'fix_expired', fixed: row.fixed_units });
  }
  const judged = judgeMarket(row, market, reference, now, rules);
  Object.assign(set, judged.set);
  events.push(...judged.events);
  const next = { ...(row ?? emptyRow()), ...set };
  const after = baseInForce(next, market, now, rules);
  const inForce = 'units' in after ? after.units : undefined;
  const accepted = next.held_units === null && market !== undefined ? next.base_units : null;
  const chart =
    accepted !== null &&
    (accepted !== row?.base_units ||
      row.charted_at === null ||
      now - row.charted_at >= CHART_EVERY_MS)
      ? accepted
      : undefined;
  if (chart !== undefined) set.charted_at = now;
  return { set, quoting: inForce !== undefined, inForce, chart, events };
}

/** A pair never looked at. */
function emptyRow(): PairRow {
  return {
    crypto: 'USDT',
    fiat: 'RUB',
    revision: 0,
    quoting: 0,
    changed_at: 0,
    base_units: null,
    base_at: null,
    window_from: null,
    charted_at: null,
    held_units: null,
    held_from_units: null,
    held_since: null,
    fixed_units: null,
    fixed_until: null,
    fixed_by: null,
  };
}
