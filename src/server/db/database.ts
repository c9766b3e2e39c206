/**
 * Opens the database the configuration names (SQLite file in WAL mode, or PostgreSQL) and brings
 * its schema up to date. One Kysely query code serves both.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config';
import { seedReferenceData } from '../reference/seed';
import { migrationProvider, type Dialect } from './migrations';
import type { Database } from './schema';

export interface OpenDatabase {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** The PostgreSQL schema the tables live in, when not the default one. */
  readonly schema?: string;
}

export function openDatabase(config: DatabaseConfig): OpenDatabase {
  if (config.kind === 'sqlite') {
    if (config.path !== ':memory:') fs.mkdirSync(path.dirname(config.path), { recursive: true });
    const database = new SQLite(config.path);
    database.pragma('journal_mode = WAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    // SQLite's own lower() knows ASCII only; operators search Cyrillic names too, as PostgreSQL's
    // lower() (a UTF-8 database) lets them.
    database.function('lower', { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? value.toLowerCase() : value,
    );
    return {
      db: new Kysely<Database>({ dialect: new SqliteDialect({ database }) }),
      dialect: 'sqlite',
    };
  }
  // PostgreSQL returns int8 as a string; our bigints (Telegram ids, ms, minor units) fit a double.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    ...(config.schema === undefined ? {} : { options: `-c search_path=${config.schema}` }),
  });
  return {
    db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
    dialect: 'postgres',
    ...(config.schema === undefined ? {} : { schema: config.schema }),
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

/** A cheap round trip, for the health check. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
