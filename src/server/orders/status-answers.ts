/**
 * What a status poll needs beyond the caller (issue 14): the order's version, read with the
 * versions of every order polled in the same turn of the event loop in one query, and the answer
 * last built for each order, kept while its version is the order's. An order's answer but the
 * server's time is decided by its version (migrations 0009 and 0011: the database moves it on to
 * a random number at every change of the order, its receipts or its office, however made), so a
 * poll of an unchanged order reads one number and answers from memory, always as current as the
 * database.
 *
 * The answer's ETag is a digest of the answer itself, not the version (issue 21, item 12): the
 * same answer has the same ETag on every instance and after every restart, and two answers never
 * share one, whatever happened to the versions (a backup restored, a replica promoted) or to the
 * configuration the answer reads (the bot's name, an office changed at start-up).
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/migrations';
import type { Database } from '../db/schema';
import { batchedLookup } from '../db/batched';
import { compiledOnce } from '../db/compiled-once';
import { remember } from '../bounded-map';

/**
 * Answers kept: above the orders polled at once at the goal's scale (10 000 customers with an
 * order open), about 15 MB when full. The oldest built is let go first.
 */
export const STATUS_ANSWERS_KEPT = 20_000;

/** The status answer's `ETag`: a digest of its JSON without the server's time. */
export function statusEtag(timelessJson: string): string {
  return `"${createHash('sha256').update(timelessJson).digest('base64url').slice(0, 27)}"`;
}

/** Whose order it is and its version. */
export interface OrderVersion {
  readonly user_id: number;
  readonly version: number;
}

/** The orders of a JSON array of ids, with their owner and version: one statement for any count. */
const versionsOf = {
  sqlite: compiledOnce((db, idsJson: string) =>
    db
      .selectFrom('orders')
      .select(['id', 'user_id', 'version'])
      .where('id', 'in', sql<string>`(select value from json_each(${idsJson}))`),
  ),
  postgres: compiledOnce((db, idsJson: string) =>
    db
      .selectFrom('orders')
      .select(['id', 'user_id', 'version'])
      .where('id', 'in', sql<string>`(select json_array_elements_text(${idsJson}::json))`),
  ),
} satisfies Record<Dialect, unknown>;

export interface BuiltAnswer {
  /** The order's version the answer was built from. */
  readonly version: number;
  readonly etag: string;
  /** The answer's JSON without `serverTime` (order-view.ts: `withServerTime`). */
  readonly timelessJson: string;
}

export class StatusAnswers {
  /** The order's owner and version, read with the others asked for in the same turn. */
  readonly versionOf: (orderId: string) => Promise<OrderVersion | undefined>;
  readonly #built = new Map<string, BuiltAnswer>();

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.versionOf = batchedLookup(async (ids: readonly string[]) => {
      const rows = await versionsOf[dialect](db, JSON.stringify(ids));
      return new Map(rows.map((row) => [row.id, row]));
    });
  }

  /** The answer built of the order at `version`, if it was kept. */
  get(orderId: string, version: number): BuiltAnswer | undefined {
    const built = this.#built.get(orderId);
    return built?.version === version ? built : undefined;
  }

  /** Keeps the answer built of the order at `version`, and gives it with its ETag. */
  keep(orderId: string, version: number, timelessJson: string): BuiltAnswer {
    const built = { version, etag: statusEtag(timelessJson), timelessJson };
    remember(this.#built, orderId, built, STATUS_ANSWERS_KEPT);
    return built;
  }

  get size(): number {
    return this.#built.size;
  }
}
