/**
 * What a status poll needs beyond the caller: the order's version, read for every order polled in
 * the same turn in one query, and the answer last built at that version. The database moves the
 * version at every change of the order, its receipts or its office, so an unchanged order answers
 * from memory, as current as the database. The ETag digests the answer, not the version, so it
 * holds across instances, restarts and restored backups.
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../platform/db/migrations';
import type { Database } from '../../platform/db/schema';
import { batchedLookup } from '../../platform/db/batched';
import { changeMarkOf, type ChangeMark } from '../../platform/db/database';
import { compiledOnce } from '../../platform/db/compiled-once';
import { remember } from '../../platform/bounded-map';

/** Above the orders polled at once at 10 000 open orders, about 15 MB full; oldest go first. */
export const STATUS_ANSWERS_KEPT = 20_000;

export function statusEtag(timelessJson: string): string {
  return `"${createHash('sha256').update(timelessJson).digest('base64url').slice(0, 27)}"`;
}

export interface OrderVersion {
  readonly user_id: number;
  readonly version: number;
}

/** One statement for any count of ids. */
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
  readonly version: number;
  readonly etag: string;
  /** Without `serverTime` (order-view.ts: `withServerTime`). */
  readonly timelessJson: string;
}

const changesAfter = compiledOnce((db, seq: number) =>
  db.selectFrom('order_changes').select(['seq', 'order_id']).where('seq', '>', seq).orderBy('seq'),
);
const lastChange = compiledOnce((db) =>
  db.selectFrom('order_changes').select((eb) => eb.fn.max('seq').as('seq')),
);

type VersionsReader = (ids: readonly string[]) => Promise<ReadonlyMap<string, OrderVersion>>;

/** PostgreSQL, which several instances may share: every order's version read at every poll. */
function readingEvery(db: Kysely<Database>): VersionsReader {
  return async (ids) => {
    const rows = await versionsOf.postgres(db, JSON.stringify(ids));
    return new Map(rows.map((row) => [row.id, row]));
  };
}

/**
 * SQLite (one instance): versions are kept until order_changes names their orders, and nothing is
 * read while the change mark has not moved. Each read still follows the poll, so it is as current
 * as reading every version. Changes dropped before being applied forget every version.
 */
function keepingUnchanged(
  db: Kysely<Database>,
  changeMark: ChangeMark | undefined,
): VersionsReader {
  const kept = new Map<string, OrderVersion>();
  let applied = -1;
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
  /** Read with the others asked for in the same turn. */
  readonly versionOf: (orderId: string) => Promise<OrderVersion | undefined>;
  readonly #built = new Map<string, BuiltAnswer>();

  /** Tests pass their own `changeMark` to watch the statements. */
  constructor(db: Kysely<Database>, dialect: Dialect, changeMark = changeMarkOf(db)) {
    this.versionOf = batchedLookup(
      dialect === 'sqlite' ? keepingUnchanged(db, changeMark) : readingEvery(db),
    );
  }

  get(orderId: string, version: number): BuiltAnswer | undefined {
    const built = this.#built.get(orderId);
    return built?.version === version ? built : undefined;
  }

  keep(orderId: string, version: number, timelessJson: string): BuiltAnswer {
    const built = { version, etag: statusEtag(timelessJson), timelessJson };
    remember(this.#built, orderId, built, STATUS_ANSWERS_KEPT);
    return built;
  }

  get size(): number {
    return this.#built.size;
  }
}
