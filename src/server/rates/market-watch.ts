/**
 * Looks at every pair each tick and moves its state (pair-state.ts): accepts the market's base,
 * holds a jump, takes a jump the sources agreed on, ends an expired fixed rate. Every write is
 * conditional on the row's revision, so of several instances one decides, and what the operators
 * are told goes in the same transaction, once: a pair that stops being quoted, the same pair
 * quoted again, a jump held with its figures, a fixed rate ended. A pair first seen quoting is
 * the usual start and tells nothing.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../platform/db/schema';
import { alertOperatorsOf, type RateFacts } from '../platform/outbox';
import { MARKET_PAIRS, storedPrices, type Market } from './market';
import { marketBase, type PairBase } from './market-base';
import { decidePair, JUMP_WINDOW_MS, type PairDecision, type PairRow } from './pair-state';
import { BASE_SERIES, recordRateChange } from './rate-changes';

/** A pair whose state changed, as told. */
export interface PairChange {
  readonly crypto: string;
  readonly fiat: string;
  readonly quoting: boolean;
  readonly events: readonly string[];
}

const pairKey = (pair: { readonly crypto: string; readonly fiat: string }) =>
  `${pair.crypto}/${pair.fiat}`;

/** Writes the decision if the row is still the one decided on; false when another was first. */
async function write(
  trx: Transaction<Database>,
  base: PairBase,
  row: PairRow | undefined,
  decision: PairDecision,
  now: number,
): Promise<boolean> {
  const { crypto, fiat } = base;
  const quoting = decision.quoting ? 1 : 0;
  const changed = row === undefined || row.quoting !== quoting ? { changed_at: now } : {};
  const values = { ...decision.set, quoting, ...changed };
  if (row === undefined) {
    const inserted = await trx
      .insertInto('rate_pairs')
      .values({ crypto, fiat, changed_at: now, ...values })
      .onConflict((oc) => oc.columns(['crypto', 'fiat']).doNothing())
      .executeTakeFirst();
    return (inserted.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }
  const updated = await trx
    .updateTable('rate_pairs')
    .set({ ...values, revision: row.revision + 1 })
    .where('crypto', '=', crypto)
    .where('fiat', '=', fiat)
    .where('revision', '=', row.revision)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** The alerts of a decision written: its events, and its quoting changing. */
async function tell(
  trx: Transaction<Database>,
  base: PairBase,
  row: PairRow | undefined,
  decision: PairDecision,
  now: number,
): Promise<void> {
  const { crypto, fiat } = base;
  const sources = base.candidates.map((c) => ({
    source: c.source,
    price: c.units / 1e6,
    state: c.state,
  }));
  const facts: RateFacts = { crypto, fiat, sources };
  const event = (kind: string) => `${kind}:${pairKey(base)}:${now}`;
  let jumped = false;
  for (const told of decision.events) {
    if (told.kind === 'fix_expired') {
      await recordRateChange(trx, null, 'fix_expired', pairKey(base), told.fixed, null, now);
      const market = decision.inForce === undefined ? {} : { base: decision.inForce / 1e6 };
      const fixedFacts = { ...facts, ...market, fixed: told.fixed / 1e6 };
      await alertOperatorsOf(trx, 'rate_fix_ended', fixedFacts, event(told.kind), now);
    } else if (told.kind === 'jump') {
      jumped = true;
      const jump = { from: told.from / 1e6, to: told.to / 1e6 };
      await alertOperatorsOf(trx, 'rate_jump', { ...facts, ...jump }, event(told.kind), now);
    } else {
      await recordRateChange(trx, null, 'jump_agreed', pairKey(base), told.from, told.to, now);
    }
  }
  const was = row?.quoting;
  const quoting = decision.quoting ? 1 : 0;
  // A jump held says itself; a pair first seen quoting is the usual start.
  if (was === quoting || jumped || (was === undefined && quoting === 1)) return;
  if (quoting === 0) {
    await alertOperatorsOf(trx, 'rate_unavailable', facts, event('rate_unavailable'), now);
  } else {
    const back =
      decision.inForce === undefined ? facts : { ...facts, base: decision.inForce / 1e6 };
    await alertOperatorsOf(trx, 'rate_back', back, event('rate_back'), now);
  }
}

/** The accepted bases each pair counts for a jump: the last JUMP_WINDOW_MS, since its last jump. */
async function references(
  db: Kysely<Database>,
  rows: ReadonlyMap<string, PairRow>,
  now: number,
): Promise<Map<string, number[]>> {
  const charted = await db
    .selectFrom('rate_history')
    .select(['base', 'quote', 'units', 'read_at'])
    .where('source', '=', BASE_SERIES)
    .where('read_at', '>=', now - JUMP_WINDOW_MS)
    .execute();
  const byPair = new Map<string, number[]>();
  for (const point of charted) {
    const key = `${point.base}/${point.quote}`;
    if (point.read_at < (rows.get(key)?.window_from ?? 0)) continue;
    byPair.set(key, [...(byPair.get(key) ?? []), point.units]);
  }
  return byPair;
}

/** Looks at every pair now; answers those whose quoting changed or that told something. */
export async function watchPairs(
  db: Kysely<Database>,
  market: Market,
  now: number,
): Promise<PairChange[]> {
  const prices = await storedPrices(db, market);
  const rows = new Map(
    (await db.selectFrom('rate_pairs').selectAll().execute()).map((row) => [pairKey(row), row]),
  );
  const reference = await references(db, rows, now);
  const told: PairChange[] = [];
  for (const pair of MARKET_PAIRS) {
    const base = marketBase(prices, market.cadences, pair, now, market.rules);
    const row = rows.get(pairKey(pair));
    const decision = decidePair(
      row,
      base.units,
      reference.get(pairKey(pair)) ?? [],
      now,
      market.rules,
    );
    const quoting = decision.quoting ? 1 : 0;
    if (row !== undefined && row.quoting === quoting && Object.keys(decision.set).length === 0) {
      continue;
    }
    const written = await db.transaction().execute(async (trx) => {
      if (!(await write(trx, base, row, decision, now))) return false;
      if (decision.chart !== undefined) {
        await trx
          .insertInto('rate_history')
          .values({
            source: BASE_SERIES,
            base: pair.crypto,
            quote: pair.fiat,
            units: decision.chart,
            read_at: now,
          })
          .execute();
      }
      await tell(trx, base, row, decision, now);
      return true;
    });
    if (written && (row?.quoting !== quoting || decision.events.length > 0)) {
      told.push({ ...pair, quoting: decision.quoting, events: decision.events.map((e) => e.kind) });
    }
  }
  return told;
}
