/**
 * A graceful stop (SIGTERM, as a deploy sends it) loses nothing the server holds in memory: the
 * customers seen in its last moments, written off the requests' path (issue 14), are written
 * before the database closes, and the stop logs no failure.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/database';
import { API_PATHS } from '../../src/shared/api';
import { authHeader, initDataFor } from '../helpers/identity';
import {
  ServerProcess,
  freePort,
  serverDatabase,
  type ServerDatabase,
} from '../helpers/server-process';

const dirs: string[] = [];
const databases: ServerDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a graceful stop', () => {
  it('writes the customers seen just before it, then exits 0 without an error', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exchange-stop-'));
    dirs.push(dir);
    const database = await serverDatabase(dir);
    databases.push(database);
    const server = await ServerProcess.start({
      port: await freePort(),
      env: {
        ...database.env,
        RECEIPTS_DIR: path.join(dir, 'receipts'),
        DEMO_AUTOPILOT: 'off',
        LOG_LEVEL: 'info',
      },
    });
    const customer = { id: 300_000_001, first_name: 'Лев', username: 'lev' };
    const res = await fetch(`${server.url}${API_PATHS.activeOrders}`, {
      headers: { ...authHeader(initDataFor(customer)), 'accept-language': 'ru' },
    });
    expect(res.status).toBe(200);
    // At once: well within the 100 ms before the authenticator's next flush.
    const exit = await server.stop();
    expect(exit.code, server.outputTail()).toBe(0);
    expect(server.output).not.toMatch(/"level":(50|60)/);

    const config = database.env['DATABASE_URL'];
    const { db } = openDatabase(
      config === undefined
        ? { kind: 'sqlite', path: database.env['SQLITE_PATH'] ?? '' }
        : { kind: 'postgres', url: config },
    );
    try {
      const row = await db
        .selectFrom('users')
        .select(['first_name', 'username', 'language'])
        .where('telegram_id', '=', customer.id)
        .executeTakeFirst();
      expect(row).toEqual({ first_name: 'Лев', username: 'lev', language: 'ru' });
    } finally {
      await db.destroy();
    }
  });
});
