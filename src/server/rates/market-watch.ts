/**
 * Tells the operators when a pair stops being quoted (too few fresh sources agree: customers can
 * order it no more) and when it is quoted again, with each source's price and state. Once per
 * change, whichever instance sees it first: the change is a conditional write of the pair's
 * state, and the alert goes in the same transaction. A pair first seen quoting is the usual
 * start and tells nothing.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/schema';
import { alertOperatorsOf } from '../platform/outbox';
import { MARKET_PAIRS, storedPrices, type Market } from './market';
import { marketBase, type PairBase } from './market-base';

/** A pair whose state changed, as told. */
export interface PairChange {
  readonly crypto: string;
  readonly fiat: string;
  readonly quoting: boolean;
}

async function tell(
  db: Kysely<Database>,
  base: PairBase,
  was: number | undefined,
  now: number,
): Promise<boolean> {
  const quoting = base.units === undefined ? 0 : 1;
  const { crypto, fiat } = base;
  return db.transaction().execute(async (trx) => {
    const written =
      was === undefined
        ? (
            await trx
              .insertInto('rate_pairs')
              .values({ crypto, fiat, quoting, changed_at: now })
              .onConflict((oc) => oc.columns(['crypto', 'fiat']).doNothing())
              .executeTakeFirst()
          ).numInsertedOrUpdatedRows
        : (
            await trx
              .updateTable('rate_pairs')
              .set({ quoting, changed_at: now })
              .where('crypto', '=', crypto)
              .where('fiat', '=', fiat)
              .where('quoting', '=', was)
              .executeTakeFirst()
          ).numUpdatedRows;
    if (written === undefined || written === 0n || (was === undefined && quoting === 1)) {
      return false;
    }
    const kind = quoting === 1 ? 'rate_back' : 'rate_unavailable';
    const sources = base.candidates.map((c) => ({
      source: c.source,
      price: c.units / 1e6,
      state: c.state,
    }));
    const facts = {
      crypto,
      fiat,
      sources,
      ...(base.units === undefined ? {} : { base: base.units / 1e6 }),
    };
    await alertOperatorsOf(trx, kind, facts, `${kind}:${crypto}/${fiat}:${now}`, now);
    return true;
  });
}

/** Looks at every pair now; answers those whose change it told. */
export async function watchPairs(
  db: Kysely<Database>,
  market: Market,
  now: number,
): Promise<PairChange[]> {
  const prices = await storedPrices(db, market);
  const known = new Map(
    (await db.selectFrom('rate_pairs').selectAll().execute()).map((row) => [
      `${row.crypto}/${row.fiat}`,
      row.quoting,
    ]),
  );
  const told: PairChange[] = [];
  for (const pair of MARKET_PAIRS) {
    const base = marketBase(prices, market.cadences, pair, now, market.rules);
    const was = known.get(`${pair.crypto}/${pair.fiat}`);
    if (was === (base.units === undefined ? 0 : 1)) continue;
    if (await tell(db, base, was, now)) {
      told.push({ ...pair, quoting: base.units !== undefined });
    }
  }
  return told;
}
