/**
 * The migrations a database has run are recorded by name (Kysely's kysely_migration table): a
 * released one renamed, moved or preceded by a new one would be run again, or refused, on every
 * database already migrated. Each is a file of platform/db/migrations/ named as it is recorded,
 * and the index lists every one of them. Migrating a fresh database end to end builds one
 * schema, held as a dump per dialect (migrations-schema.<dialect>.txt beside this file): the
 * tables with each column's type, nullability and default, constraints, indexes, triggers and
 * functions; undoing every migration and running them again builds it too. A new migration
 * changes the dump on purpose: run this file with `-u` on both dialects, and read the difference.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Migrator, NO_MIGRATIONS, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrationProvider } from '../../../src/server/platform/db/migrations';
import {
  createTestDatabase,
  testDatabaseKind,
  type TestDatabase,
} from '../../helpers/test-database';

const FOLDER = path.resolve(import.meta.dirname, '../../../src/server/platform/db/migrations');

/** The files of the migrations' folder that are no migration: the list and what they share. */
const NOT_MIGRATIONS = ['index.ts', 'schema-steps.ts'];

/** Every migration released, as its name is recorded in the databases it ran on. */
const RELEASED = [
  '0001_users_orders_events',
  '0002_rates_receipts_offices',
  '0003_unique_tx_hash_call_counts',
  '0004_cancel_reason',
  '0005_reject_reason_code',
  '0006_notifications',
  '0007_taken_by',
  '0008_history_index',
  '0009_order_version',
  '0010_unalerted_orders',
  '0011_versions_never_repeat',
  '0012_notification_kinds',
  '0013_notification_queues',
  '0014_address_call_counts',
  '0015_chain_checks',
  '0016_chain_scans',
  '0017_order_changes',
  '0018_deposit_amounts',
  '0019_order_chat',
  '0020_saved_details',
  '0021_appeals',
];

/** Strings in the order of their code units, whatever the database's collation. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Whitespace as one space, none inside parentheses: how a statement was laid out is no schema. */
const normalized = (text: string): string =>
  text.replace(/\s+/g, ' ').replaceAll('( ', '(').replaceAll(' )', ')').trim();

/** The parts of a `create table` statement (columns and constraints), split at top-level commas. */
function definitionParts(statement: string): string[] {
  const body = statement.slice(statement.indexOf('(') + 1, statement.lastIndexOf(')'));
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '(') depth += 1;
    else if (body[i] === ')') depth -= 1;
    else if (body[i] === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts.map(normalized);
}

interface SqliteObject {
  readonly type: string;
  readonly name: string;
  readonly tbl_name: string;
  readonly sql: string | null;
}

/**
 * SQLite keeps each object's definition as the text that made it (ALTER TABLE ADD COLUMN appends
 * to its table's): every table with its columns and constraints, then its indexes and triggers.
 */
async function sqliteSchema(db: Kysely<unknown>): Promise<string[]> {
  const { rows } =
    await sql<SqliteObject>`select type, name, tbl_name, sql from sqlite_master`.execute(db);
  const rank = (object: SqliteObject) => ['table', 'index', 'trigger'].indexOf(object.type);
  return rows
    .sort((a, b) => compare(a.tbl_name, b.tbl_name) || rank(a) - rank(b) || compare(a.name, b.name))
    .flatMap((object) => {
      if (object.type === 'table') {
        return [`table ${object.name}`, ...definitionParts(object.sql ?? '').map((p) => `  ${p}`)];
      }
      // An index SQLite made for a primary key or unique column has no text: its table's says it.
      return object.sql === null
        ? []
        : [`  ${object.type} ${object.name}: ${normalized(object.sql)}`];
    });
}

interface Named {
  readonly table: string;
  readonly name: string;
  readonly definition: string;
}

/** PostgreSQL's catalogue of the schema the tables live in, each object as it would recreate it. */
async function postgresSchema(db: Kysely<unknown>, schema: string): Promise<string[]> {
  const inSchema = sql`(select oid from pg_namespace where nspname = current_schema())`;
  const tables = sql`(select oid, relname from pg_class
    where relnamespace = ${inSchema} and relkind = 'r')`;
  const columns = await sql<Named>`
    select t.relname as table, a.attname as name,
      format_type(a.atttypid, a.atttypmod)
        || case when a.attnotnull then ' not null' else '' end
        || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') as definition
    from ${tables} t join pg_attribute a on a.attrelid = t.oid
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where a.attnum > 0 and not a.attisdropped
    order by a.attnum`.execute(db);
  const others = await sql<Named>`
    select t.relname as table, 'constraint ' || c.conname as name,
      pg_get_constraintdef(c.oid) as definition
    from ${tables} t join pg_constraint c on c.conrelid = t.oid
    union all
    select t.relname, 'index ' || i.relname, pg_get_indexdef(i.oid)
    from ${tables} t join pg_index x on x.indrelid = t.oid join pg_class i on i.oid = x.indexrelid
    union all
    select t.relname, 'trigger ' || g.tgname, pg_get_triggerdef(g.oid)
    from ${tables} t join pg_trigger g on g.tgrelid = t.oid where not g.tgisinternal
    union all
    select '~functions', 'function ' || p.proname, pg_get_functiondef(p.oid)
    from pg_proc p where p.pronamespace = ${inSchema}
    union all
    select '~sequences', 'sequence ' || s.relname, format_type(q.seqtypid, null)
    from pg_class s join pg_sequence q on q.seqrelid = s.oid
    where s.relnamespace = ${inSchema}`.execute(db);
  // Columns in their table's order, which `select *` answers in; the rest by name.
  const sorted = [...columns.rows, ...others.rows.sort((a, b) => compare(a.name, b.name))].sort(
    (a, b) => compare(a.table, b.table),
  );
  const lines: string[] = [];
  let table = '';
  for (const row of sorted) {
    if (row.table !== table) {
      lines.push(row.table.startsWith('~') ? row.table.slice(1) : `table ${row.table}`);
    }
    table = row.table;
    // The test's own schema is no part of what the migrations built.
    const definition = normalized(row.definition.replaceAll(`${schema}.`, ''));
    lines.push(`  ${row.name}: ${definition}`);
  }
  return lines;
}

describe('the migrations folder', () => {
  const names = MIGRATIONS.map(([name]) => name);

  it('holds the released migrations under their names and in their order, new ones after them', () => {
    expect(names.slice(0, RELEASED.length)).toEqual(RELEASED);
    // Kysely runs migrations in the order of their names, whatever order they are listed in.
    expect([...names].sort()).toEqual(names);
  });

  it('holds exactly the files the index lists, each named as its migration is recorded', async () => {
    const files = fs.readdirSync(FOLDER).sort();
    expect(files).toEqual([...names.map((name) => `${name}.ts`), ...NOT_MIGRATIONS].sort());
    for (const [name, migration] of MIGRATIONS) {
      const module = (await import(path.join(FOLDER, `${name}.ts`))) as Record<string, unknown>;
      expect(Object.values(module), name).toContain(migration);
    }
  });
});

describe(`migrations on ${testDatabaseKind()}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.destroy();
  });

  /** The schema as the dump writes it. */
  const schemaNow = async (): Promise<string> => {
    const db = database.db as unknown as Kysely<unknown>;
    const lines =
      database.dialect === 'sqlite'
        ? await sqliteSchema(db)
        : await postgresSchema(db, database.schema ?? 'public');
    return `${lines.join('\n')}\n`;
  };
  const dump = path.join(import.meta.dirname, `migrations-schema.${testDatabaseKind()}.txt`);

  it('records every migration under the name it is listed by', async () => {
    const names = Object.keys(await migrationProvider(database.dialect).getMigrations());
    expect(names).toEqual(MIGRATIONS.map(([name]) => name));
    const recorded = await sql<{ name: string }>`select name from kysely_migration`.execute(
      database.db,
    );
    expect(recorded.rows.map((row) => row.name).sort()).toEqual(names);
  });

  it('builds the schema of the dump from a fresh database', async () => {
    // Without this, a missing dump would be written by the test and pass it.
    expect(fs.existsSync(dump)).toBe(true);
    await expect(await schemaNow()).toMatchFileSnapshot(dump);
  });

  it('builds the same schema again after every migration is undone, the last first', async () => {
    const migrator = new Migrator({
      db: database.db,
      provider: migrationProvider(database.dialect),
      ...(database.schema === undefined ? {} : { migrationTableSchema: database.schema }),
    });
    const undone = await migrator.migrateTo(NO_MIGRATIONS);
    expect(undone.error).toBeUndefined();
    expect(undone.results?.map((r) => `${r.migrationName} ${r.direction} ${r.status}`)).toEqual(
      [...MIGRATIONS].reverse().map(([name]) => `${name} Down Success`),
    );
    const redone = await migrator.migrateToLatest();
    expect(redone.error).toBeUndefined();
    expect(redone.results?.length).toBe(MIGRATIONS.length);
    expect(await schemaNow()).toBe(fs.readFileSync(dump, 'utf8'));
  });
});
