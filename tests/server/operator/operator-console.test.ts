/**
 * The server side of the operator console: who the caller is (`GET /api/me`, the demo
 * customer an operator in demo mode), the queue grouped by the operator action each order waits
 * for and sorted by urgency, the flags, what the order view offers to act with (the city's
 * offices, the default bank account), two operators on one order, and the second confirmation a
 * large rate change needs.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS, type ApiErrorBody } from '../../../src/shared/api';
import { OPERATOR_USUAL_ANSWER_MS } from '../../../src/shared/limits';
import type {
  MeResponse,
  OperatorOrderResponse,
  OperatorQueueResponse,
} from '../../../src/shared/operator-api';
import {
  QUEUE_GROUPS,
  queueGroupStatuses,
  type QueueGroup,
} from '../../../src/shared/operator-queue';
import { ACTIVE_STATUSES, type OrderStatus } from '../../../src/shared/order-status';
import { signInitData } from '../../../src/server/platform/identity/telegram-auth';
import { ALICE, BOB, DEMO_USER, authHeader } from '../../helpers/identity';
import {
  CARD_REQUISITES,
  OPERATOR,
  OPERATOR_PATHS,
  createLifecycleApp,
  pngFile,
  receiptBody,
  rowOf,
  send,
  type OrderKind,
  type TestUser,
} from '../../helpers/lifecycle';
import { insertOrder } from '../../helpers/orders';
import type { TestApp } from '../../helpers/test-app';

const SECOND_OPERATOR: TestUser = { id: 300_000_002, first_name: 'Вторая смена' };
const MINUTE = 60_000;

let t: TestApp;
beforeAll(async () => {
  t = await createLifecycleApp({ operatorIds: [OPERATOR.id, SECOND_OPERATOR.id] });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.database.db.deleteFrom('receipts').execute();
  await t.database.db.deleteFrom('order_events').execute();
  await t.database.db.deleteFrom('orders').execute();
});

function expectError(res: LightMyRequestResponse, status: number, code: string): ApiErrorBody {
  const body = res.json<ApiErrorBody>();
  expect({ status: res.statusCode, code: body.code }).toEqual({ status, code });
  return body;
}

function orderOf(kind: OrderKind, status: OrderStatus, extra: object = {}): Promise<string> {
  return insertOrder(t.database.db, ALICE, {
    ...rowOf(kind),
    status,
    created_at: t.clock.now(),
    ...extra,
  });
}

async function queue(): Promise<OperatorQueueResponse> {
  const res = await send(t, 'GET', OPERATOR_PATHS.queue, OPERATOR);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return res.json<OperatorQueueResponse>();
}
const groupOf = (answer: OperatorQueueResponse, group: QueueGroup) =>
  answer.groups.find((g) => g.group === group);
const idsIn = (answer: OperatorQueueResponse, group: QueueGroup) =>
  groupOf(answer, group)?.orders.map((o) => o.id);

describe('GET /api/me says whether the caller is an operator', () => {
  it.each([
    ['an operator', OPERATOR, true],
    ['a customer', BOB, false],
  ] as const)('%s: operator %s', async (_who, user, operator) => {
    const res = await send(t, 'GET', API_PATHS.me, user);
    expect(res.statusCode).toBe(200);
    expect(res.json<MeResponse>()).toEqual({
      telegramId: user.id,
      firstName: user.first_name,
      operator,
    });
  });

  it('without identity answers 401 AUTH_MISSING', async () => {
    expectError(await send(t, 'GET', API_PATHS.me, null), 401, 'AUTH_MISSING');
  });

  it('in demo mode (no BOT_TOKEN) the demo customer is an operator too, and may call the console', async () => {
    const demo = await createLifecycleApp({ botToken: undefined, operatorIds: [] });
    try {
      const me = await send(demo, 'GET', API_PATHS.me, DEMO_USER);
      expect(me.json<MeResponse>()).toMatchObject({ telegramId: DEMO_USER.id, operator: true });
      expect((await send(demo, 'GET', OPERATOR_PATHS.queue, DEMO_USER)).statusCode).toBe(200);
    } finally {
      await demo.close();
    }
  });

  it('with a real BOT_TOKEN the demo customer is nobody special', async () => {
    const token = '7000000001:REAL-BOT-TOKEN-FOR-THIS-TEST-ONLY-000';
    const real = await createLifecycleApp({ botToken: token });
    try {
      const headers = authHeader(signInitData(token, DEMO_USER));
      const me = await real.app.inject({ method: 'GET', url: API_PATHS.me, headers });
      expect(me.json<MeResponse>()).toMatchObject({ telegramId: DEMO_USER.id, operator: false });
      const queueCall = await real.app.inject({
        method: 'GET',
        url: OPERATOR_PATHS.queue,
        headers,
      });
      expectError(queueCall, 403, 'FORBIDDEN');
    } finally {
      await real.close();
    }
  });
});

describe('GET /api/operator/queue', () => {
  it('groups follow the transition table: each status an operator moves is in the group of its action', () => {
    expect(Object.fromEntries(QUEUE_GROUPS.map((g) => [g, queueGroupStatuses(g)]))).toEqual({
      appeals: [],
      requisites: ['WAITING_REQUISITES'],
      officeInstructions: ['OFFICE_PENDING'],
      receipts: ['PAYMENT_PENDING', 'PAYMENT_STARTED', 'RECEIPT_UPLOADED'],
      transactions: ['TX_PENDING'],
      payouts: ['PAYMENT_CONFIRMED', 'TX_CONFIRMED'],
      flagged: [],
    });
  });

  it('puts each waiting order in its group, soonest deadline first, with the count per group', async () => {
    const now = t.clock.now();
    const late = await orderOf('p2pBuy', 'WAITING_REQUISITES', { expires_at: now + 50 * MINUTE });
    const soon = await orderOf('bankBuy', 'WAITING_REQUISITES', { expires_at: now + 5 * MINUTE });
    const office = await orderOf('officeBuy', 'OFFICE_PENDING', { expires_at: now + 30 * MINUTE });
    const receipt = await orderOf('p2pBuy', 'RECEIPT_UPLOADED', { expires_at: now + 9 * MINUTE });
    const tx = await orderOf('sell', 'TX_PENDING', { tx_hash: 'a'.repeat(64) });
    const payout = await orderOf('p2pBuy', 'PAYMENT_CONFIRMED');
    const sellPayout = await orderOf('sell', 'TX_CONFIRMED');
    // Not waiting for an operator: the customer's turn, or over.
    await orderOf('p2pBuy', 'REQUISITES_READY', { expires_at: now + 20 * MINUTE });
    await orderOf('officeBuy', 'OFFICE_READY', { reserved_until: now + 60 * MINUTE });
    await orderOf('sell', 'WAITING_CRYPTO', { expires_at: now + 20 * MINUTE });
    await orderOf('p2pBuy', 'COMPLETED');

    const answer = await queue();
    expect(answer.groups.map((g) => g.group)).toEqual(QUEUE_GROUPS);
    expect(idsIn(answer, 'requisites')).toEqual([soon, late]);
    expect(idsIn(answer, 'officeInstructions')).toEqual([office]);
    expect(idsIn(answer, 'receipts')).toEqual([receipt]);
    expect(idsIn(answer, 'transactions')).toEqual([tx]);
    expect(new Set(idsIn(answer, 'payouts'))).toEqual(new Set([payout, sellPayout]));
    expect(idsIn(answer, 'flagged')).toEqual([]);
    expect(answer.groups.map((g) => [g.group, g.count])).toEqual([
      ['appeals', 0],
      ['requisites', 2],
      ['officeInstructions', 1],
      ['receipts', 1],
      ['transactions', 1],
      ['payouts', 2],
      ['flagged', 0],
    ]);
    expect(groupOf(answer, 'requisites')?.orders[0]).toMatchObject({
      id: soon,
      paymentMethod: 'BANK_ACCOUNT',
      customer: { telegramId: ALICE.id, firstName: ALICE.first_name, username: ALICE.username },
      deadline: new Date(now + 5 * MINUTE).toISOString(),
      flags: [],
    });
    expect(answer.serverTime).toBe(new Date(now).toISOString());
  });

  it('flags: paid past the deadline, waiting for an operator over 10 minutes, the same receipt on two orders', async () => {
    const now = t.clock.now();
    const paidLate = await orderOf('p2pBuy', 'PAYMENT_PENDING', { expires_at: now - MINUTE });
    const waiting = await orderOf('p2pBuy', 'WAITING_REQUISITES', {
      created_at: now - OPERATOR_USUAL_ANSWER_MS - MINUTE,
      expires_at: now + 40 * MINUTE,
    });
    const fresh = await orderOf('p2pBuy', 'WAITING_REQUISITES', { expires_at: now + 60 * MINUTE });
    const [a, b] = [
      await orderOf('p2pBuy', 'REQUISITES_READY', { expires_at: now + 30 * MINUTE }),
      await orderOf('p2pBuy', 'REQUISITES_READY', { expires_at: now + 30 * MINUTE }),
    ];
    const file = pngFile('same');
    for (const id of [a, b]) {
      const res = await send(t, 'POST', API_PATHS.receipt(id), ALICE, {
        ...receiptBody(file, 'image/png', 'check.png'),
      });
      expect(res.statusCode, res.body).toBe(200);
    }

    const answer = await queue();
    const flagged = groupOf(answer, 'flagged');
    expect(new Set(flagged?.orders.map((o) => o.id))).toEqual(new Set([paidLate, waiting, a, b]));
    expect(flagged?.count).toBe(4);
    const flagsOf = (id: string) => flagged?.orders.find((o) => o.id === id)?.flags;
    expect(flagsOf(paidLate)).toEqual(['paidLate']);
    expect(flagsOf(waiting)).toEqual(['waitingTooLong']);
    expect(flagsOf(a)).toEqual(['reusedReceipt']);
    expect(idsIn(answer, 'requisites')).toEqual([waiting, fresh]);

    // A flag goes with its cause: requisites given, the wait is over.
    const given = await send(
      t,
      'POST',
      OPERATOR_PATHS.requisites(waiting),
      OPERATOR,
      CARD_REQUISITES,
    );
    expect(given.statusCode, given.body).toBe(200);
    expect(idsIn(await queue(), 'flagged')).not.toContain(waiting);

    const view = await send(t, 'GET', OPERATOR_PATHS.order(a), OPERATOR);
    const body = view.json<OperatorOrderResponse>();
    expect(body.flags).toEqual(['reusedReceipt']);
    expect(body.receipts[0]?.alsoOn).toEqual([b]);
  });

  it('a customer gets 403 FORBIDDEN and no queue', async () => {
    expectError(await send(t, 'GET', OPERATOR_PATHS.queue, BOB), 403, 'FORBIDDEN');
  });

  it('every active status an operator can move is in some group', () => {
    const grouped = QUEUE_GROUPS.flatMap((g) => queueGroupStatuses(g));
    const waitingForCustomer: readonly OrderStatus[] = [
      'REQUISITES_READY',
      'OFFICE_READY',
      'WAITING_CRYPTO',
    ];
    expect(new Set(ACTIVE_STATUSES.filter((s) => !grouped.includes(s)))).toEqual(
      new Set(waitingForCustomer),
    );
  });
});

describe('GET /api/operator/orders/{id} offers what to act with', () => {
  it("an office buy: its city's offices", async () => {
    const id = await orderOf('officeBuy', 'OFFICE_PENDING');
    const body = (
      await send(t, 'GET', OPERATOR_PATHS.order(id), OPERATOR)
    ).json<OperatorOrderResponse>();
    expect(body.offices.length).toBeGreaterThan(0);
    expect(body.offices[0]).toMatchObject({
      id: expect.any(String) as string,
      addressRu: expect.any(String) as string,
      addressEn: expect.any(String) as string,
    });
    expect(body.defaultBankAccount).toBeNull();
  });

  it('a bank buy: the configured default account, to prefill', async () => {
    const account = {
      recipientName: 'ООО «Криптообмен»',
      accountNumber: '40702810938000123456',
      bankName: 'ПАО Сбербанк',
      bik: '044525225',
      correspondentAccount: '30101810400000000225',
      inn: '7707083893',
      beneficiaryName: 'ООО «Криптообмен»',
      beneficiaryAccount: '40702810938000123456',
    };
    const withAccount = await createLifecycleApp({ bankAccount: account });
    try {
      const id = await insertOrder(withAccount.database.db, ALICE, {
        ...rowOf('bankBuy'),
        status: 'WAITING_REQUISITES',
      });
      const res = await send(withAccount, 'GET', OPERATOR_PATHS.order(id), OPERATOR);
      const body = res.json<OperatorOrderResponse>();
      expect(body.defaultBankAccount).toEqual(account);
      expect(body.offices).toEqual([]);
      expect(body.customer).toMatchObject({ orderCount: 1, languageCode: null });
    } finally {
      await withAccount.close();
    }
  });
});

describe('two operators on one order', () => {
  it('both give requisites at once: one moves it, the other is told what happened (409 INVALID_STATUS)', async () => {
    const id = await orderOf('p2pBuy', 'WAITING_REQUISITES', {
      expires_at: t.clock.now() + 60 * MINUTE,
    });
    const [first, second] = await Promise.all([
      send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES),
      send(t, 'POST', OPERATOR_PATHS.requisites(id), SECOND_OPERATOR, CARD_REQUISITES),
    ]);
    const codes = [first.statusCode, second.statusCode].sort();
    expect(codes).toEqual([200, 409]);
    const refused = first.statusCode === 409 ? first : second;
    expect(expectError(refused, 409, 'INVALID_STATUS').status).toBe('REQUISITES_READY');
    const view = await send(t, 'GET', OPERATOR_PATHS.order(id), OPERATOR);
    expect(view.json<OperatorOrderResponse>().events).toHaveLength(1);
  });

  it('one confirms the payment while the other rejects, each from the status they saw: exactly one acts', async () => {
    const id = await orderOf('p2pBuy', 'RECEIPT_UPLOADED');
    const [confirm, reject] = await Promise.all([
      send(t, 'POST', OPERATOR_PATHS.confirmPayment(id), OPERATOR, {
        expectedStatus: 'RECEIPT_UPLOADED',
      }),
      send(t, 'POST', OPERATOR_PATHS.reject(id), SECOND_OPERATOR, {
        reasonCode: 'payment_not_received',
        expectedStatus: 'RECEIPT_UPLOADED',
      }),
    ]);
    expect([confirm.statusCode, reject.statusCode].sort()).toEqual([200, 409]);
    const view = (
      await send(t, 'GET', OPERATOR_PATHS.order(id), OPERATOR)
    ).json<OperatorOrderResponse>();
    expect(view.events).toHaveLength(1);
    expect(view.events[0]?.actorId).toBe(
      confirm.statusCode === 200 ? OPERATOR.id : SECOND_OPERATOR.id,
    );
    const loser = confirm.statusCode === 409 ? confirm : reject;
    expect(expectError(loser, 409, 'INVALID_STATUS').status).toBe(view.order.status);
  });

  it.each([
    ['requisites', 'WAITING_REQUISITES', 'REQUISITES_READY'],
    ['confirm-payment', 'RECEIPT_UPLOADED', 'PAYMENT_PENDING'],
    ['complete', 'PAYMENT_CONFIRMED', 'RECEIPT_UPLOADED'],
    ['reject', 'PAYMENT_PENDING', 'RECEIPT_UPLOADED'],
  ] as const)(
    '%s from a stale view (saw %s, the order is %s) is refused and changes nothing',
    async (action, seen, now) => {
      const id = await orderOf('p2pBuy', now);
      const calls: Record<typeof action, readonly [string, object]> = {
        requisites: [OPERATOR_PATHS.requisites(id), CARD_REQUISITES],
        'confirm-payment': [OPERATOR_PATHS.confirmPayment(id), {}],
        complete: [OPERATOR_PATHS.complete(id), { outgoingTxHash: 'c'.repeat(64) }],
        reject: [OPERATOR_PATHS.reject(id), { reasonCode: 'receipt_invalid' }],
      };
      const [path, body] = calls[action];
      const res = await send(t, 'POST', path, OPERATOR, { ...body, expectedStatus: seen });
      expect(expectError(res, 409, 'INVALID_STATUS').status).toBe(now);
      const view = (
        await send(t, 'GET', OPERATOR_PATHS.order(id), OPERATOR)
      ).json<OperatorOrderResponse>();
      expect([view.order.status, view.events]).toEqual([now, []]);
    },
  );
});

describe('PUT /api/operator/rates: a change of more than 5% asks for a second confirmation', () => {
  const put = (baseRate: number, confirmLargeChange?: boolean) =>
    send(t, 'PUT', OPERATOR_PATHS.rates, OPERATOR, {
      fiat: 'USD',
      crypto: 'USDC',
      baseRate,
      ...(confirmLargeChange === undefined ? {} : { confirmLargeChange }),
    });
  const usdc = async () =>
    (
      await send(
        t,
        'GET',
        `${API_PATHS.rate}?amount=6000&currency=USD&operation=BUY&cryptoCurrency=USDC&paymentMethod=OFFICE`,
        BOB,
      )
    ).json<{
      rate: number;
    }>().rate;

  it('5% or less is taken at once; more is refused with the current rate until confirmed; quotes follow', async () => {
    expect((await put(1)).statusCode).toBe(200);
    expect((await put(1.05)).statusCode).toBe(200);
    const refused = expectError(await put(1.2), 409, 'RATE_CHANGE_UNCONFIRMED');
    expect(refused.rate).toBe(1.05);
    expect(await usdc()).toBe(1.06);
    expect((await put(1.2, false)).statusCode).toBe(409);
    expect((await put(1.2, true)).statusCode).toBe(200);
    expect(await usdc()).toBe(1.21);
    expect((await put(0.5)).statusCode).toBe(409);
    expect((await put(1, true)).statusCode).toBe(200);
  });
});
