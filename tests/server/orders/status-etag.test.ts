/**
 * The status poll's version: `GET /api/orders/{id}/status` carries an `ETag`, and an
 * app that sends it back as `If-None-Match` gets 304 with no body for as long as nothing but the
 * server's time would change; any change of the order (an operator's answer, a receipt, the
 * customer's own action) gives a new version and the whole answer.
 */
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, initDataFor } from '../../helpers/identity';
import {
  CARD_REQUISITES,
  OPERATOR,
  OPERATOR_PATHS,
  OFFICE_INSTRUCTIONS,
  createLifecycleApp,
  createOrderViaHttp,
  pngFile,
  receiptBody,
  rowOf,
  send,
} from '../../helpers/lifecycle';
import { insertOrder } from '../../helpers/orders';
import type { TestApp } from '../../helpers/test-app';
import { createTestDatabase } from '../../helpers/test-database';
import { buildApp } from '../../../src/server/app';
import type { NewOrderRow } from '../../../src/server/platform/db/schema';
import type { OrderStatus } from '../../../src/shared/order-status';

let t: TestApp;
beforeAll(async () => {
  t = await createLifecycleApp();
});
afterAll(async () => {
  await t.close();
});

/** Alice's P2P buy in `status`, made now. */
const aliceP2pBuy = (status: OrderStatus, extra: Partial<NewOrderRow> = {}) =>
  insertOrder(t.database.db, ALICE, {
    ...rowOf('p2pBuy'),
    status,
    created_at: t.clock.now(),
    ...extra,
  });

const poll = (id: string, held?: string, user = ALICE): Promise<LightMyRequestResponse> =>
  t.app.inject({
    method: 'GET',
    url: `/api/orders/${id}/status`,
    headers: {
      authorization: `tma ${initDataFor(user, { authDate: new Date(t.clock.now()) })}`,
      ...(held === undefined ? {} : { 'if-none-match': held }),
    },
  });

const etagOf = (res: LightMyRequestResponse): string => {
  expect(res.statusCode).toBe(200);
  const etag = res.headers['etag'];
  expect(typeof etag).toBe('string');
  return String(etag);
};

describe('GET /api/orders/{id}/status with If-None-Match', () => {
  it('answers 304 with no body while the order is unchanged, though the server time moves on', async () => {
    const id = await aliceP2pBuy('WAITING_REQUISITES');
    const etag = etagOf(await poll(id));
    t.clock.advance(3_000);
    const again = await poll(id, etag);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['etag']).toBe(etag);
    expect(again.headers['cache-control']).toBe('no-store');
    // A list naming it, or the weak form, is the same version.
    expect((await poll(id, `"other", W/${etag}`)).statusCode).toBe(304);
    // Another version, or none, gets the whole answer.
    expect((await poll(id, '"other"')).statusCode).toBe(200);
    expect((await poll(id)).statusCode).toBe(200);
  });

  it("gives a new version and the whole answer after the operator's requisites", async () => {
    const id = await aliceP2pBuy('WAITING_REQUISITES');
    const before = etagOf(await poll(id));
    t.clock.advance(1_000);
    const given = await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES);
    expect(given.statusCode, given.body).toBe(200);
    const after = await poll(id, before);
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ status: 'REQUISITES_READY' });
    expect(etagOf(after)).not.toBe(before);
  });

  it('gives a new version for each receipt, even one that leaves the status as it is', async () => {
    const id = await aliceP2pBuy('RECEIPT_UPLOADED');
    const before = etagOf(await poll(id));
    const uploaded = await send(
      t,
      'POST',
      `/api/orders/${id}/receipt`,
      ALICE,
      receiptBody(pngFile(), 'image/png', 'second.png'),
    );
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const after = await poll(id, before);
    expect(after.statusCode).toBe(200);
    expect(after.json<{ receipts: unknown[] }>().receipts).toHaveLength(1);
    expect(etagOf(after)).not.toBe(before);
  });

  it('gives a new version for any change of what the answer says, however it was made', async () => {
    const id = await aliceP2pBuy('REQUISITES_READY', { expires_at: t.clock.now() + 600_000 });
    const before = etagOf(await poll(id));
    // The deadline moved straight in the database, its updated_at left as it was.
    await t.database.db
      .updateTable('orders')
      .set({ expires_at: t.clock.now() + 60_000 })
      .where('id', '=', id)
      .execute();
    const after = await poll(id, before);
    expect(after.statusCode).toBe(200);
    expect(after.json<{ expiresAt: string }>().expiresAt).toBe(
      new Date(t.clock.now() + 60_000).toISOString(),
    );
  });

  it("never answers 304 for another customer's order: 404 ORDER_NOT_FOUND", async () => {
    const id = await aliceP2pBuy('WAITING_REQUISITES');
    const etag = etagOf(await poll(id));
    const res = await poll(id, etag, BOB);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'ORDER_NOT_FOUND' });
  });
});

/**
 * An ETag never names two different answers: not after a backup is restored
 * or a lagging replica is promoted (a count of changes would start again from an earlier value
 * and repeat a version the app holds for another state), not on another instance, not after a
 * restart that changed an office.
 */
describe('the status ETag names one answer, wherever and whenever it was given', () => {
  /** The order's row as a backup (or a replica) holds it. */
  const snapshot = (db: TestApp['database']['db'], id: string) =>
    db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** Writes a row back as a restore does: as it was, the database's own triggers left out. */
  const restore = async (
    database: TestApp['database'],
    row: Awaited<ReturnType<typeof snapshot>>,
  ): Promise<void> => {
    const { id, version, ...fields } = row;
    await database.db.transaction().execute(async (trx) => {
      // pg_restore --disable-triggers; SQLite's version trigger does not fire on a written version.
      if (database.dialect === 'postgres') {
        await sql`SET LOCAL session_replication_role = replica`.execute(trx);
      }
      await trx.updateTable('orders').set(fields).where('id', '=', id).execute();
      await sql`UPDATE orders SET version = ${version} WHERE id = ${id}`.execute(trx);
    });
  };

  /** A new instance on `database`, as a restart or a failover starts one. */
  const instanceOn = async (database: TestApp['database']): Promise<TestApp> => {
    const app = await buildApp(t.config, { db: database.db, now: t.clock.now });
    return { ...t, app, database, close: () => app.close() };
  };

  const pollOn = (on: TestApp, id: string, held?: string, user = ALICE) =>
    on.app.inject({
      method: 'GET',
      url: `/api/orders/${id}/status`,
      headers: {
        authorization: `tma ${initDataFor(user, { authDate: new Date(t.clock.now()) })}`,
        ...(held === undefined ? {} : { 'if-none-match': held }),
      },
    });

  it('after a backup from before a cancel is restored, the next change is never answered 304', async () => {
    const id = await aliceP2pBuy('WAITING_REQUISITES');
    const backup = await snapshot(t.database.db, id);
    expectMovedTo(await send(t, 'POST', `/api/orders/${id}/cancel`, ALICE, {}), 200);
    const cancelled = etagOf(await poll(id));
    await restore(t.database, backup);
    const given = await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES);
    expect(given.statusCode, given.body).toBe(200);
    // The running instance, and one started on the restored database.
    const restarted = await instanceOn(t.database);
    try {
      for (const on of [t, restarted]) {
        const res = await pollOn(on, id, cancelled);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ status: 'REQUISITES_READY' });
      }
    } finally {
      await restarted.close();
    }
  });

  it('after a failover to a replica that had not seen the last change, the next one is never answered 304', async () => {
    const id = await aliceP2pBuy('WAITING_REQUISITES');
    // The replica holds the order as it was before the customer's cancel reached it.
    const replica = await createTestDatabase();
    const owner = await t.database.db
      .selectFrom('users')
      .selectAll()
      .where('telegram_id', '=', ALICE.id)
      .executeTakeFirstOrThrow();
    await replica.db.insertInto('users').values(owner).execute();
    await replica.db
      .insertInto('orders')
      .values(await snapshot(t.database.db, id))
      .execute();
    const promoted = await instanceOn(replica);
    try {
      expectMovedTo(await send(t, 'POST', `/api/orders/${id}/cancel`, ALICE, {}), 200);
      const cancelled = etagOf(await poll(id));
      const given = await send(
        promoted,
        'POST',
        OPERATOR_PATHS.requisites(id),
        OPERATOR,
        CARD_REQUISITES,
      );
      expect(given.statusCode, given.body).toBe(200);
      const res = await pollOn(promoted, id, cancelled);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'REQUISITES_READY' });
    } finally {
      await promoted.close();
      await replica.destroy();
    }
  });

  it('two instances give one answer one ETag, and a change made on one is never 304 on the other', async () => {
    const id = await aliceP2pBuy('WAITING_REQUISITES');
    const other = await instanceOn(t.database);
    try {
      const here = etagOf(await poll(id));
      expect(etagOf(await pollOn(other, id))).toBe(here);
      expect((await pollOn(other, id, here)).statusCode).toBe(304);
      const given = await send(
        other,
        'POST',
        OPERATOR_PATHS.requisites(id),
        OPERATOR,
        CARD_REQUISITES,
      );
      expect(given.statusCode, given.body).toBe(200);
      const res = await poll(id, here);
      expect(res.statusCode).toBe(200);
      const after = etagOf(res);
      expect(after).not.toBe(here);
      expect((await pollOn(other, id, after)).statusCode).toBe(304);
    } finally {
      await other.close();
    }
  });

  it('an office changed at start-up is never answered 304 from before it, on a running or a restarted instance', async () => {
    const created = await createOrderViaHttp(t, BOB, 'officeBuy');
    const given = await send(t, 'POST', OPERATOR_PATHS.officeInstructions(created), OPERATOR, {
      instructions: OFFICE_INSTRUCTIONS,
    });
    expect(given.statusCode, given.body).toBe(200);
    const before = etagOf(await poll(created, undefined, BOB));
    const { office_id: officeId } = await snapshot(t.database.db, created);
    expect(officeId).not.toBeNull();
    // What the seed does at a start with a changed data file.
    await t.database.db
      .updateTable('offices')
      .set({ address_en: 'Presnenskaya Embankment 12, floor 40' })
      .where('id', '=', officeId ?? '')
      .execute();
    const restarted = await instanceOn(t.database);
    try {
      for (const on of [t, restarted]) {
        const res = await pollOn(on, created, before, BOB);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          reservation: { office: { addressEn: 'Presnenskaya Embankment 12, floor 40' } },
        });
      }
    } finally {
      await restarted.close();
    }
  });
});

function expectMovedTo(res: LightMyRequestResponse, code: number): void {
  expect(res.statusCode, res.body).toBe(code);
}
