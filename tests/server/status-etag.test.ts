/**
 * The status poll's version (issue 14): `GET /api/orders/{id}/status` carries an `ETag`, and an
 * app that sends it back as `If-None-Match` gets 304 with no body for as long as nothing but the
 * server's time would change; any change of the order (an operator's answer, a receipt, the
 * customer's own action) gives a new version and the whole answer.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, initDataFor } from '../helpers/identity';
import {
  CARD_REQUISITES,
  OPERATOR,
  OPERATOR_PATHS,
  createLifecycleApp,
  pngFile,
  receiptBody,
  rowOf,
  send,
} from '../helpers/lifecycle';
import { insertOrder } from '../helpers/orders';
import type { TestApp } from '../helpers/test-app';
import type { NewOrderRow } from '../../src/server/db/schema';
import type { OrderStatus } from '../../src/shared/order-status';

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
