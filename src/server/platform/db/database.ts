/**
 * Opens the database the configuration names (SQLite file in WAL mode, or PostgreSQL) and brings
 * its schema up to date. One Kysely query code serves both.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { createHash } from 'node:crypto';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type PostgresPool,
  type PostgresPoolClient,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import type pg from 'pg';
import type { DatabaseConfig } from '../config/config';
import { pgPackage } from '../packages';
import { seedReferenceData } from './seed/reference';
import { migrationProvider, type Dialect } from './migrations';
import type { Database } from './schema';

export interface OpenDatabase {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** The PostgreSQL schema the tables live in, when not the default one. */
  readonly schema?: string;
}

/**
 * SQLite's page cache per connection, in KiB: better-sqlite3 builds SQLite with 16 MB, which a
 * server reading 100 000 orders fills and keeps for good, a tenth of its memory. Pages beyond it
 * come from the operating system's file cache, which is shared and reclaimable.
 */
const SQLITE_CACHE_KIB = 4_000;

/** The connections a server instance opens to PostgreSQL at most. */
export const POSTGRES_POOL_SIZE = 10;

export function openDatabase(config: DatabaseConfig): OpenDatabase {
  if (config.kind === 'sqlite') {
    if (config.path !== ':memory:') fs.mkdirSync(path.dirname(config.path), { recursive: true });
    const database = new SQLite(config.path);
    database.pragma('journal_mode = WAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    database.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    // SQLite's own lower() knows ASCII only; operators search Cyrillic names too, as PostgreSQL's
    // lower() (a UTF-8 database) lets them.
    database.function('lower', { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? value.toLowerCase() : value,
    );
    const marked = markingChanges(database);
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: reusing(marked.database) }),
    });
    changeMarks.set(db, marked.mark);
    return { db, dialect: 'sqlite' };
  }
  const { types, Pool } = pgPackage();
  // PostgreSQL returns int8 as a string; our bigints (Telegram ids, ms, minor units) fit a double.
  types.setTypeParser(types.builtins.INT8, (value: string) => Number(value));
  const pool = namingStatements(
    new Pool({
      connectionString: config.url,
      max: POSTGRES_POOL_SIZE,
      ...(config.schema === undefined ? {} : { options: `-c search_path=${config.schema}` }),
    }),
  );
  return {
    db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
    dialect: 'postgres',
    ...(config.schema === undefined ? {} : { schema: config.schema }),
  };
}

/** How many compiled statements a connection keeps: far above the distinct queries there are. */
const STATEMENTS_KEPT = 1_000;

/**
 * The SQLite database as Kysely sees it, with each statement compiled once and reused: compiling
 * costs about 2.5 times running. Kysely never streams here, so a statement is never
 * busy when it is asked for again.
 */
function reusing(database: SqliteDatabase): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(source: string) {
      let statement = statements.get(source);
      if (statement === undefined) {
        statement = database.prepare(source);
        if (statements.size >= STATEMENTS_KEPT) statements.clear();
        statements.set(source, statement);
      }
      return statement;
    },
  };
}

/**
 * Something that changes whenever the database may have changed since it was last taken: a count
 * of this connection's writes with SQLite's `data_version` (which moves at every commit of any
 * other connection, another process's included); undefined while a transaction is open, when
 * nothing can be said.
 */
export type ChangeMark = () => string | undefined;

const changeMarks = new WeakMap<Kysely<Database>, ChangeMark>();

/** The change mark of a SQLite database opened by openDatabase; none for PostgreSQL. */
export function changeMarkOf(db: Kysely<Database>): ChangeMark | undefined {
  return changeMarks.get(db);
}

/** The database as Kysely sees it, counting the statements that write. */
function markingChanges(database: SQLite.Database): {
  readonly database: SqliteDatabase;
  readonly mark: ChangeMark;
} {
  let writes = 0;
  const dataVersion = database.prepare('PRAGMA data_version').pluck();
  const mark: ChangeMark = () =>
    database.inTransaction ? undefined : `${writes}/${String(dataVersion.get())}`;
  return {
    mark,
    database: {
      close: () => database.close(),
      prepare(source: string): SqliteStatement {
        const statement = database.prepare(source);
        if (statement.readonly) return statement;
        // Counted once run (a mark taken before shows the write as a change); a statement
        // iterated is counted as it starts, which a mark taken meanwhile also shows as one.
        return {
          reader: statement.reader,
          all(parameters) {
            try {
              return statement.all(parameters);
            } finally {
              writes += 1;
            }
          },
          run(parameters) {
            try {
              return statement.run(parameters);
            } finally {
              writes += 1;
            }
          },
          iterate(parameters) {
            writes += 1;
            return statement.iterate(parameters);
          },
        };
      },
    },
  };
}

/**
 * A result of every column (`select *`, `"orders".*`, `returning *`): its shape is the table's,
 * which a migration may change under a running instance. A `*` right after `(` is `count(*)`.
 */
const EVERY_COLUMN = /(?<!\()\*/;

/**
 * A PostgreSQL pool whose queries with parameters are named prepared statements, so each
 * connection plans a query once rather than on every call (a name per query text). Statements
 * without parameters (migrations, several commands at once) are sent as they are, and so are
 * those whose result is every column of a table: PostgreSQL refuses to run a prepared statement
 * whose result a migration changed ("cached plan must not change result type"), so on the
 * instances still serving during a rolling deploy that adds a column they would fail. The hot
 * queries name their columns and stay prepared.
 */
function namingStatements(pool: pg.Pool): PostgresPool {
  // null: a statement sent unnamed, planned at every call.
  const names = new Map<string, string | null>();
  const nameOf = (text: string): string | null => {
    let name = names.get(text);
    if (name === undefined) {
      name = EVERY_COLUMN.test(text)
        ? null
        : `q${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      if (names.size >= STATEMENTS_KEPT) names.clear();
      names.set(text, name);
    }
    return name;
  };
  return {
    end: () => pool.end(),
    async connect() {
      const client = await pool.connect();
      return {
        query(text: unknown, values?: readonly unknown[]) {
          if (typeof text === 'string' && values !== undefined && values.length > 0) {
            const name = nameOf(text);
            if (name !== null) return client.query({ name, text, values: [...values] });
          }
          // A cursor (Kysely's stream), a statement without parameters or of every column.
          return client.query(text as string, values as unknown[] | undefined);
        },
        release: () => client.release(),
        // Kysely's type overloads `query` for a cursor too, which is passed on as it is above.
      } as unknown as PostgresPoolClient;
    },
  };
}

/** Runs every pending migration; throws with the failing migration's error. */
async function migrateToLatest(open: OpenDatabase): Promise<void> {
  const migrator = new Migrator({
    db: open.db,
    provider: migrationProvider(open.dialect),
    // Kysely looks for its bookkeeping tables across all schemas unless told which one is ours.
    ...(open.schema === undefined ? {} : { migrationTableSchema: open.schema }),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error !== undefined) {
    const cause = error instanceof Error ? error : new Error(JSON.stringify(error));
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause.message}`, { cause });
  }
}

/** Migrations, then the reference data (rates, cities, offices): what start-up and tests run. */
export async function prepareDatabase(open: OpenDatabase, now: number): Promise<void> {
  await migrateToLatest(open);
  await seedReferenceData(open.db, now);
}

/**
 * A cheap round trip, for the health check; rejects when the database fails it or has not
 * answered within `timeoutMs` (a hung database, a pool with no connection to give).
 */
export async function pingDatabase(db: Kysely<Database>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the database did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    // A ping still waiting when the timeout answers ends on its own: the race observes it.
    await Promise.race([sql`select 1`.execute(db), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
