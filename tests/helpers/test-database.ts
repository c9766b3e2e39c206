/**
 * A fresh, migrated database for one test file: a temporary SQLite file, or, when the server
 * suite runs on PostgreSQL (TEST_DB=postgres), a private schema on TEST_DATABASE_URL that is
 * dropped afterwards.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/server/platform/config/config';
import {
  openDatabase,
  prepareDatabase,
  type OpenDatabase,
} from '../../src/server/platform/db/database';

export interface TestDatabase extends OpenDatabase {
  readonly config: DatabaseConfig;
  /** Closes the connection and removes every trace of the database. */
  readonly destroy: () => Promise<void>;
}

export function testDatabaseKind(): 'sqlite' | 'postgres' {
  return process.env['TEST_DB'] === 'postgres' ? 'postgres' : 'sqlite';
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseKind() === 'postgres') {
    const url = process.env['TEST_DATABASE_URL'];
    if (url === undefined) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const schema = `test_${randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const config: DatabaseConfig = { kind: 'postgres', url, schema };
    const open = openDatabase(config);
    await prepareDatabase(open, Date.now());
    return {
      ...open,
      config,
      destroy: async () => {
        await open.db.destroy();
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`drop schema ${schema} cascade`);
        await client.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exchange-test-'));
  const config: DatabaseConfig = { kind: 'sqlite', path: path.join(dir, 'test.db') };
  const open = openDatabase(config);
  await prepareDatabase(open, Date.now());
  return {
    ...open,
    config,
    destroy: async () => {
      await open.db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
