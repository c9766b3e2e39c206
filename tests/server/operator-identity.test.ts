/**
 * What an operator's view of an order says about its time (issue 21, item 15): the deadline of a
 * final order is none, whatever its stored fields still hold, and the order says when it ended.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorOrderResponse, OperatorOrdersResponse } from '../../src/shared/operator-api';
import { FINAL_STATUSES, orderDeadline } from '../../src/shared/order-status';
import { ALICE } from '../helpers/identity';
import {
  CARD_REQUISITES,
  OPERATOR,
  OPERATOR_PATHS,
  createLifecycleApp,
  expectMoved,
  rowOf,
  send,
  txHashFor,
} from '../helpers/lifecycle';
import { insertOrder } from '../helpers/orders';
import type { TestApp } from '../helpers/test-app';

const MINUTE = 60_000;

let t: TestApp;
beforeAll(async () => {
  t = await createLifecycleApp();
});
afterAll(async () => {
  await t.close();
});

describe('orderDeadline: the one deadline rule (src/shared)', () => {
  it('the reservation while the office waits, expiresAt otherwise, none for a final order', () => {
    const times = { expiresAt: 1, reservedUntil: 2 };
    expect(orderDeadline({ status: 'OFFICE_READY', ...times })).toBe(2);
    expect(orderDeadline({ status: 'REQUISITES_READY', ...times })).toBe(1);
    expect(orderDeadline({ status: 'PAYMENT_CONFIRMED', ...times })).toBe(1);
    for (const status of FINAL_STATUSES) expect(orderDeadline({ status, ...times })).toBeNull();
  });
});

describe('a final order in the console has no deadline and says when it ended', () => {
  it('a P2P buy completed with its payment window still running: no countdown, ended at the completion', async () => {
    const id = await insertOrder(t.database.db, ALICE, {
      ...rowOf('p2pBuy'),
      status: 'WAITING_REQUISITES',
      created_at: t.clock.now(),
    });
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES),
      'REQUISITES_READY',
    );
    await t.database.db
      .updateTable('orders')
      .set({ status: 'PAYMENT_CONFIRMED' })
      .where('id', '=', id)
      .execute();
    t.clock.advance(2 * MINUTE);
    const completedAt = t.clock.now();
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.complete(id), OPERATOR, {
        outgoingTxHash: txHashFor('TRC20'),
      }),
      'COMPLETED',
    );
    t.clock.advance(MINUTE);

    const view = (
      await send(t, 'GET', OPERATOR_PATHS.order(id), OPERATOR)
    ).json<OperatorOrderResponse>();
    // The window of 30 minutes from the requisites is still stored, and still in the future.
    expect(Date.parse(view.order.expiresAt ?? '')).toBeGreaterThan(t.clock.now());
    expect(view.deadline).toBeNull();
    expect(view.endedAt).toBe(new Date(completedAt).toISOString());

    const listed = (
      await send(t, 'GET', `${OPERATOR_PATHS.orders}?q=${id.slice(0, 8)}`, OPERATOR)
    ).json<OperatorOrdersResponse>();
    expect(listed.orders.find((o) => o.id === id)?.deadline).toBeNull();
  });

  it('an office order rejected during its reservation: no deadline; an active one keeps its own', async () => {
    const until = t.clock.now() + 90 * MINUTE;
    const id = await insertOrder(t.database.db, ALICE, {
      ...rowOf('officeBuy'),
      status: 'OFFICE_READY',
      created_at: t.clock.now(),
      reserved_until: until,
    });
    const active = (
      await send(t, 'GET', OPERATOR_PATHS.order(id), OPERATOR)
    ).json<OperatorOrderResponse>();
    expect({ deadline: active.deadline, endedAt: active.endedAt }).toEqual({
      deadline: new Date(until).toISOString(),
      endedAt: null,
    });
    const rejectedAt = t.clock.now();
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.reject(id), OPERATOR, {
        reasonCode: 'other',
        reason: 'Клиент не пришёл',
      }),
      'REJECTED',
    );
    const ended = (
      await send(t, 'GET', OPERATOR_PATHS.order(id), OPERATOR)
    ).json<OperatorOrderResponse>();
    expect({ deadline: ended.deadline, endedAt: ended.endedAt }).toEqual({
      deadline: null,
      endedAt: new Date(rejectedAt).toISOString(),
    });
  });
});
