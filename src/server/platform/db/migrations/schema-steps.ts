/**
 * What several migrations do alike, written once: the column types that differ between SQLite
 * and PostgreSQL, the common column definitions, an index, columns added or dropped and
 * statements run in turn. A migration that has shipped must keep doing exactly what it did, so
 * a change here may only ever compile to the same statements.
 */
import {
  sql,
  type ColumnBuilderCallback,
  type ColumnDataType,
  type CreateTableBuilder,
  type Kysely,
} from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** A migration told the dialect it runs on: the index hands it to Kysely's Migrator so. */
export interface DialectMigration {
  readonly up: (db: Kysely<unknown>, dialect: Dialect) => Promise<void>;
  readonly down?: (db: Kysely<unknown>, dialect: Dialect) => Promise<void>;
}

/** Telegram ids, times in ms and minor units exceed 2^31; SQLite's INTEGER is 64-bit already. */
export function bigInteger(dialect: Dialect): ColumnDataType {
  return dialect === 'postgres' ? 'bigint' : 'integer';
}

/** A table's `id`, numbered by the database as rows are added. */
export function serialId(dialect: Dialect) {
  return <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
    dialect === 'postgres'
      ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/**
 * A table of records kept with an order (its chat's messages, its appeal): numbered, each naming
 * its order; `orderId` says more of that column (one record per order: unique).
 */
export function orderRecordsTable(
  db: Kysely<unknown>,
  dialect: Dialect,
  table: string,
  orderId: ColumnBuilderCallback = (c) => c,
) {
  return db.schema
    .createTable(table)
    .$call(serialId(dialect))
    .addColumn('order_id', 'text', (c) => orderId(c.notNull()).references('orders.id'));
}

/** A column that always holds a value. */
export const required: ColumnBuilderCallback = (c) => c.notNull();

/** A count or a flag, 0 until written. */
export const zero: ColumnBuilderCallback = (c) => c.notNull().defaultTo(0);

/** An index over columns in this order: the order of the lookups and sorts it serves. */
export async function createIndex(
  db: Kysely<unknown>,
  name: string,
  table: string,
  columns: readonly string[],
): Promise<void> {
  await db.schema
    .createIndex(name)
    .on(table)
    .columns([...columns])
    .execute();
}

/** A column added to a table: its name, type and, for a column that is not nullable, how. */
export type AddedColumn = readonly [
  table: string,
  column: string,
  type: ColumnDataType,
  define?: ColumnBuilderCallback,
];

/** Adds columns to tables, in turn. */
export async function addColumns(
  db: Kysely<unknown>,
  columns: readonly AddedColumn[],
): Promise<void> {
  for (const [table, column, type, define] of columns) {
    await db.schema.alterTable(table).addColumn(column, type, define).execute();
  }
}

/** Drops columns of tables, in turn: `[table, column]`. */
export async function dropColumns(
  db: Kysely<unknown>,
  columns: readonly (readonly [table: string, column: string])[],
): Promise<void> {
  for (const [table, column] of columns) {
    await db.schema.alterTable(table).dropColumn(column).execute();
  }
}

/** Drops tables, in turn. */
export async function dropTables(db: Kysely<unknown>, tables: readonly string[]): Promise<void> {
  for (const table of tables) await db.schema.dropTable(table).execute();
}

/** Runs statements in turn, each a call of its own (SQLite prepares one statement at a time). */
export async function runInTurn(db: Kysely<unknown>, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/**
 * A trigger's condition that any of `columns` changed. SQLite's `IS NOT` is PostgreSQL's
 * `IS DISTINCT FROM`: both take null for a value, so a column set to or from null changed.
 */
export function anyChanged(dialect: Dialect, columns: readonly string[]): string {
  const differs = dialect === 'postgres' ? 'IS DISTINCT FROM' : 'IS NOT';
  return columns.map((column) => `OLD.${column} ${differs} NEW.${column}`).join(' OR ');
}
