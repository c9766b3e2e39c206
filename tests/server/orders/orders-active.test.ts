import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, type ActiveOrdersResponse } from '../../../src/shared/api';
import { ACTIVE_STATUSES, FINAL_STATUSES } from '../../../src/shared/order-status';
import { ALICE, BOB, authHeader, initDataFor } from '../../helpers/identity';
import { insertOrder } from '../../helpers/orders';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { realClock: true });
});
afterAll(async () => {
  await t.close();
});

const activeFor = async (user: { id: number; first_name: string }) => {
  const res = await t.app.inject({
    method: 'GET',
    url: API_PATHS.activeOrders,
    headers: authHeader(initDataFor(user)),
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return res.json<ActiveOrdersResponse>();
};

describe('GET /api/orders/active', () => {
  it('answers {orders: []} for a customer with no orders', async () => {
    expect(await activeFor(BOB)).toEqual({ orders: [] });
  });

  it("lists only the caller's orders in a non-final status, newest first", async () => {
    const base = Date.UTC(2026, 10, 20, 9, 0);
    const ids: string[] = [];
    for (const [i, status] of ACTIVE_STATUSES.entries()) {
      ids.push(await insertOrder(t.database.db, ALICE, { status, created_at: base + i * 1000 }));
    }
    for (const status of FINAL_STATUSES) {
      await insertOrder(t.database.db, ALICE, { status, created_at: base + 100_000 });
    }
    await insertOrder(t.database.db, BOB, { status: 'WAITING_REQUISITES' });

    const { orders } = await activeFor(ALICE);
    expect(orders.map((o) => o.id)).toEqual([...ids].reverse());
    expect(orders.every((o) => ACTIVE_STATUSES.includes(o.status))).toBe(true);
  });

  it('gives amounts in whole units, converted from minor units exactly', async () => {
    const carol = { id: 200_000_003, first_name: 'Carol' };
    const id = await insertOrder(t.database.db, carol, {
      status: 'REQUISITES_READY',
      amount_units: 123_456_700,
      total_minor: 1_172_839,
      rate_units: 95_000_000,
      created_at: Date.UTC(2026, 10, 21, 12, 30),
    });
    const { orders } = await activeFor(carol);
    expect(orders).toEqual([
      {
        id,
        type: 'BUY',
        status: 'REQUISITES_READY',
        amount: 123.4567,
        cryptoCurrency: 'USDT',
        network: 'TRC20',
        currency: 'RUB',
        totalRub: 11728.39,
        rate: 95,
        paymentMethod: 'P2P',
        createdAt: '2026-11-21T12:30:00.000Z',
        updatedAt: '2026-11-21T12:30:00.000Z',
        cancelReason: null,
        unreadMessages: 0,
      },
    ]);
  });
});
