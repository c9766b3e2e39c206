/** Where the server keeps its data: the database and the receipts' files. */
import path from 'node:path';
import * as v from 'valibot';
import { documented } from './documented';
import { text, type ParsedVariables } from './values';

export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string };

export interface StorageConfig {
  readonly database: DatabaseConfig;
  readonly receiptsDir: string;
}

export const DATABASE_VARIABLES = {
  DATABASE_URL: documented(
    v.optional(
      v.pipe(
        text,
        v.regex(
          /^postgres(ql)?:\/\//,
          'DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:5432/db)',
        ),
      ),
    ),
    'a `postgres://` URL: PostgreSQL instead of SQLite (see [deployment](deployment.md))',
    { group: 'storage', unset: 'SQLite' },
  ),
  SQLITE_PATH: documented(
    v.optional(text, 'data/exchange.db'),
    'the SQLite file (WAL mode) when `DATABASE_URL` is unset, relative to the working directory',
    { group: 'storage' },
  ),
  RECEIPTS_DIR: documented(
    v.optional(text, 'data/receipts'),
    "where customers' payment receipts are kept: the evidence of payments (several instances need storage they all mount)",
    { group: 'storage' },
  ),
};

export function storageConfigOf(
  variables: ParsedVariables<typeof DATABASE_VARIABLES>,
  cwd: string,
): StorageConfig {
  return {
    database:
      variables.DATABASE_URL === undefined
        ? { kind: 'sqlite', path: path.resolve(cwd, variables.SQLITE_PATH) }
        : { kind: 'postgres', url: variables.DATABASE_URL },
    receiptsDir: path.resolve(cwd, variables.RECEIPTS_DIR),
  };
}
