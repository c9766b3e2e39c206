/**
 * A graceful stop (SIGTERM, as a deploy sends it) loses nothing the server holds in memory: the
 * customers seen in its last moments, written off the requests' path, are written before the
 * database closes, and the stop logs no failure. Under load and mid-backlog the jobs stop claiming,
 * every request already sent is answered, and the process exits 0 within 10 s. The process is the
 * production bundle (tests/helpers/server-process.ts).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, prepareDatabase } from '../../../src/server/platform/db/database';
import { API_PATHS } from '../../../src/shared/api';
import { backlogLeft, seedBacklog } from '../../helpers/backlog';
import { authHeader, initDataFor } from '../../helpers/identity';
import {
  ServerProcess,
  freePort,
  serverDatabase,
  type ServerDatabase,
} from '../../helpers/server-process';

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

    const { db } = openDatabase(database.config);
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

/** The deadline a deploy gives a stopping process before it kills it. */
const STOP_WITHIN_MS = 10_000;

describe('a graceful stop under load, mid-backlog', () => {
  it(`answers every request already sent, stops the jobs between two batches and exits 0 within ${STOP_WITHIN_MS / 1000} s`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exchange-stop-load-'));
    dirs.push(dir);
    const database = await serverDatabase(dir);
    databases.push(database);
    const open = openDatabase(database.config);
    try {
      await prepareDatabase(open, Date.now());
      const pollers = await seedBacklog(open.db, open.dialect, Date.now(), {
        toFlag: 10_000,
        overdue: 20_000,
      });
      const began = Date.now();
      const server = await ServerProcess.start({
        port: await freePort(),
        env: {
          ...database.env,
          RECEIPTS_DIR: path.join(dir, 'receipts'),
          DEMO_AUTOPILOT: 'off',
          LOG_LEVEL: 'warn',
        },
      });

      // 8 apps polling on keep-alive connections, a request always in flight on each.
      let stopping = false;
      let sent = 0;
      const unanswered = new Set<number>();
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      const clients = pollers.map(async (poller, n) => {
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        const headers = {
          ...authHeader(initDataFor({ id: poller.customerId, first_name: `Stop ${n}` })),
          'accept-language': 'en',
        };
        for (let i = 0; !stopping; i++) {
          const seq = sent++;
          unanswered.add(seq);
          const orderId = poller.orderIds[i % poller.orderIds.length] ?? '';
          await new Promise<void>((resolve) => {
            const req = http.get(
              `${server.url}${API_PATHS.orderStatus(orderId)}`,
              { agent, headers },
              (res) => {
                res.resume();
                res.once('end', () => {
                  unanswered.delete(seq);
                  statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
                  resolve();
                });
              },
            );
            req.once('error', (error) => {
              failures.push(`request ${seq}: ${error.message}`);
              resolve();
            });
          });
        }
        agent.destroy();
      });

      // Mid-backlog: the sweeper has overdue orders left to cancel when the signal comes.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const left = await backlogLeft(open.db, began);
      expect(left.overdue + left.unflagged).toBeGreaterThan(0);
      const inFlight = unanswered.size;
      const signalled = Date.now();
      stopping = true;
      const exit = await server.stop();
      const stoppedMs = Date.now() - signalled;
      await Promise.all(clients);
      console.log(
        `stop under load on ${open.dialect}: ${sent} requests (${inFlight} in flight at SIGTERM), ` +
          `answers ${JSON.stringify(Object.fromEntries(statuses))}, ${failures.length} unanswered, ` +
          `exit ${String(exit.code)} after ${stoppedMs} ms with ${left.overdue} overdue and ` +
          `${left.unflagged} unflagged orders left before the signal`,
      );
      expect(inFlight).toBeGreaterThan(0);
      expect(failures, server.outputTail()).toEqual([]);
      expect(unanswered.size).toBe(0);
      expect(exit.code, server.outputTail()).toBe(0);
      expect(stoppedMs).toBeLessThan(STOP_WITHIN_MS);
      expect(server.output).not.toMatch(/"level":(50|60)/);
    } finally {
      await open.db.destroy();
    }
  }, 60_000);
});
