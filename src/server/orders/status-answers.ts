/**
 * What a status poll needs beyond the caller (issue 14): the order's version, read with the
 * versions of every order polled in the same turn of the event loop in one query, and the answer
 * last built for each order, kept while its version is the order's. An order's answer but the
 * server's time is decided by its version (migration 0009: the database moves it on at every
 * change of the order or its receipts, however made) and the bot it links to, so a poll of an
 * unchanged order reads one number and answers from memory, always as current as the database.
 */
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

/** The status answer's version (`ETag`): the order's version and the bot it links to. */
export function statusEtag(version: number, botUsername: string | undefined): string {
  return botUsername === undefined ? `"${version}"` : `"${version}.${botUsername}"`;
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

interface Built {
  readonly etag: string;
  /** The answer's JSON without `serverTime` (order-view.ts: `withServerTime`). */
  readonly timelessJson: string;
}

export class StatusAnswers {
  /** The order's owner and version, read with the others asked for in the same turn. */
  readonly versionOf: (orderId: string) => Promise<OrderVersion | undefined>;
  readonly #built = new Map<string, Built>();

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.versionOf = batchedLookup(async (ids: readonly string[]) => {
      const rows = await versionsOf[dialect](db, JSON.stringify(ids));
      return new Map(rows.map((row) => [row.id, row]));
    });
  }

  /** The answer built of the order at version `etag`, if it was kept. */
  get(orderId: string, etag: string): string | undefined {
    const built = this.#built.get(orderId);
    return built?.etag === etag ? built.timelessJson : undefined;
  }

  keep(orderId: string, etag: string, timelessJson: string): void {
    remember(this.#built, orderId, { etag, timelessJson }, STATUS_ANSWERS_KEPT);
  }

  get size(): number {
    return this.#built.size;
  }
}
