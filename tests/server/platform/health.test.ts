/**
 * `GET /api/health` is readiness: 200 only once the
 * database has answered, 503 SERVICE_UNAVAILABLE in the caller's language when it fails or hangs
 * (within HEALTH_DATABASE_TIMEOUT_MS, below the app's own 3 s), and 503 from the moment the
 * server starts to stop, so that a load balancer sends no more requests to it. The database is
 * made to fail for real: closed, or every connection held by a transaction.
 */
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { POSTGRES_POOL_SIZE, openDatabase } from '../../../src/server/platform/db/database';
import { API_PATHS, type ApiErrorBody } from '../../../src/shared/api';
import { HEALTH_DATABASE_TIMEOUT_MS, HEALTH_TIMEOUT_MS } from '../../../src/shared/limits';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const health = (app = t.app, language = 'en') =>
  app.inject({ method: 'GET', url: API_PATHS.health, headers: { 'accept-language': language } });

/** A promise and the function that settles it. */
function gate(): { readonly opened: Promise<void>; readonly open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('GET /api/health is readiness', () => {
  it('answers 200 with the time, never cached, once the database has answered', async () => {
    const res = await health();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, time: new Date(t.clock.now()).toISOString() });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it("answers 503 SERVICE_UNAVAILABLE in the caller's language when the database fails", async () => {
    // The server's own connection, opened (Kysely closes only what it opened) and closed.
    const broken = openDatabase(t.database.config);
    await sql`select 1`.execute(broken.db);
    await broken.db.destroy();
    const app = await buildApp(t.config, { db: broken.db });
    try {
      const en = await health(app, 'en');
      expect(en.statusCode).toBe(503);
      expect(en.json<ApiErrorBody>()).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        error: 'The service is temporarily unavailable. Please try again in a minute.',
      });
      expect(en.headers['cache-control']).toBe('no-store');
      const ru = await health(app, 'ru');
      expect(ru.json<ApiErrorBody>().error).toBe(
        'Сервис временно недоступен. Попробуйте через минуту.',
      );
    } finally {
      await app.close();
    }
  });

  it(`answers 503 within ${HEALTH_DATABASE_TIMEOUT_MS} ms when the database hangs, before the app's ${HEALTH_TIMEOUT_MS} ms, and 200 once it answers`, async () => {
    expect(HEALTH_DATABASE_TIMEOUT_MS).toBeLessThan(HEALTH_TIMEOUT_MS);
    // Every connection the server has is held by a transaction that waits: the ping gets none.
    const held = gate();
    const holding: Promise<void>[] = [];
    const connections = t.database.dialect === 'sqlite' ? 1 : POSTGRES_POOL_SIZE;
    const entered: Promise<void>[] = [];
    for (let i = 0; i < connections; i++) {
      const inside = gate();
      entered.push(inside.opened);
      holding.push(
        t.database.db.transaction().execute(async () => {
          inside.open();
          await held.opened;
        }),
      );
    }
    await Promise.all(entered);
    try {
      const began = performance.now();
      const res = await health();
      const took = performance.now() - began;
      expect(res.statusCode).toBe(503);
      expect(res.json<ApiErrorBody>().code).toBe('SERVICE_UNAVAILABLE');
      expect(took).toBeGreaterThanOrEqual(HEALTH_DATABASE_TIMEOUT_MS - 50);
      expect(took).toBeLessThan(HEALTH_TIMEOUT_MS);
    } finally {
      held.open();
      await Promise.all(holding);
    }
    expect((await health()).statusCode).toBe(200);
  });
});

describe('a stopping server is not ready (SIGTERM: the app closes)', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Connection: close to /api/health and every other call while it stops', async () => {
    const s = await createTestApp();
    // The close waits here, as it waits for the jobs to finish their batch: still listening.
    const jobs = gate();
    s.app.addHook('preClose', async () => {
      await jobs.opened;
    });
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
    const ready = await fetch(`${url}${API_PATHS.health}`);
    expect(ready.status).toBe(200);

    const closing = s.app.close();
    try {
      for (const path of [API_PATHS.health, API_PATHS.appConfig]) {
        const res = await fetch(`${url}${path}`, { headers: { 'accept-language': 'en' } });
        expect(res.status, path).toBe(503);
        expect(res.headers.get('connection'), path).toBe('close');
        expect(await res.json(), path).toEqual({
          code: 'SERVICE_UNAVAILABLE',
          error: 'The service is temporarily unavailable. Please try again in a minute.',
        });
      }
    } finally {
      jobs.open();
      await closing;
      await s.database.destroy();
    }
  });
});
