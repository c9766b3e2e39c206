/**
 * What a status poll needs beyond the caller: the order's version, read with the
 * versions of every order polled in the same turn of the event loop in one query, and the answer
 * last built for each order, kept while its version is the order's. An order's answer but the
 * server's time is decided by its version (migrations 0009 and 0011: the database moves it on to
 * a random number at every change of the order, its receipts or its office, however made), so a
 * poll of an unchanged order reads one number and answers from memory, always as current as the
 * database. On SQLite (one instance) not even the number is read while no order changed: the
 * versions read are kept until order_changes (migration 0017) names their orders.
 *
 * The answer's ETag is a digest of the answer itself, not the version: the
 * same answer has the same ETag on every instance and after every restart, and two answers never
 * share one, whatever happened to the versions (a backup restored, a replica promoted) or to the
 * configuration the answer reads (the bot's name, an office changed at start-up).
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../platform/db/migrations';
import type { Database } from '../../platform/db/schema';
import { batchedLookup } from '../../platform/db/batched';
import { changeMarkOf, type ChangeMark } from '../../platform/db/database';
import { compiledOnce } from '../../platform/db/compiled-once';
import { remember } from '../../platform/bounded-map';

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

/** SQLite: the orders changed after a point (migration 0017), and the last change of all. */
const changesAfter = compiledOnce((db, seq: number) =>
  db.selectFrom('order_changes').select(['seq', 'order_id']).where('seq', '>', seq).orderBy('seq'),
);
const lastChange = compiledOnce((db) =>
  db.selectFrom('order_changes').select((eb) => eb.fn.max('seq').as('seq')),
);

/** Reads the versions of orders, from the database or kept. */
type VersionsReader = (ids: readonly string[]) => Promise<ReadonlyMap<string, OrderVersion>>;

/** PostgreSQL, which several instances may share: every order's version read at every poll. */
function readingEvery(db: Kysely<Database>): VersionsReader {
  return async (ids) => {
    const rows = await versionsOf.postgres(db, JSON.stringify(ids));
    return new Map(rows.map((row) => [row.id, row]));
  };
}

/**
 * SQLite: the versions read are kept while their orders do not change. While the database's
 * change mark (platform/db/database.ts) has not moved since the changes were last read, nothing changed
 * and nothing is read; else order_changes gives the orders changed since the last change applied
 * (one indexed look) and their versions are forgotten. Only the versions not held are read. When
 * changes were dropped before they were applied (more than ORDER_CHANGES_KEPT since), every
 * version is forgotten. Each read still looks after the poll asked, so it is as current as
 * reading every version; it just reads less.
 */
function keepingUnchanged(
  db: Kysely<Database>,
  changeMark: ChangeMark | undefined,
): VersionsReader {
  const kept = new Map<string, OrderVersion>();
  /** The last change applied; -1 before the first read. */
  let applied = -1;
  /** The change mark taken before the changes were last read. */
  let checked: string | undefined;
  return async (ids) => {
    const mark = changeMark?.();
    if (mark === undefined || mark !== checked) {
      if (applied === -1) {
        const [last] = await lastChange(db);
        // Another read may have applied changes while this one waited.
        applied = Math.max(applied, last?.seq ?? 0);
      }
      const changes = await changesAfter(db, applied);
      // Reads overlap: another may have applied some of these changes while this one waited.
      const fresh = changes.filter((change) => change.seq > applied);
      const first = fresh[0]?.seq;
      if (first !== undefined) {
        if (first !== applied + 1) kept.clear();
        else for (const change of fresh) kept.delete(change.order_id);
        applied = fresh.at(-1)?.seq ?? first;
      }
      checked = mark;
    }
    const found = new Map<string, OrderVersion>();
    const missing: string[] = [];
    for (const id of ids) {
      const version = kept.get(id);
      if (version === undefined) missing.push(id);
      else found.set(id, version);
    }
    if (missing.length === 0) return found;
    const asOf = applied;
    const rows = await versionsOf.sqlite(db, JSON.stringify(missing));
    for (const row of rows) {
      found.set(row.id, row);
      // Kept only if no change was applied meanwhile: one may be older than these rows.
      if (applied === asOf) remember(kept, row.id, row, STATUS_ANSWERS_KEPT);
    }
    return found;
  };
}

export class StatusAnswers {
  /** The order's owner and version, read with the others asked for in the same turn. */
  readonly versionOf: (orderId: string) => Promise<OrderVersion | undefined>;
  readonly #built = new Map<string, BuiltAnswer>();

  /** `changeMark`: the database's (platform/db/database.ts), unless given (tests watch the statements). */
  constructor(db: Kysely<Database>, dialect: Dialect, changeMark = changeMarkOf(db)) {
    this.versionOf = batchedLookup(
      dialect === 'sqlite' ? keepingUnchanged(db, changeMark) : readingEvery(db),
    );
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
