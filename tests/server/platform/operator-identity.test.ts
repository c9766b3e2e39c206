/**
 * Operators' identity and time: the writes that move money take init data at most
 * OPERATOR_INIT_DATA_MAX_AGE old; in demo mode a visitor's console holds their own orders only,
 * while a listed operator sees all; the deadline of a final order is none, whatever its stored
 * fields still hold, and the order says when it ended.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCustomer } from '../../../src/server/platform/identity/demo-session';
import { API_PATHS, type ApiErrorBody } from '../../../src/shared/api';
import {
  MONEY_ACTIONS,
  type MeResponse,
  type OperatorOrderResponse,
  type OperatorOrdersResponse,
  type OperatorQueueResponse,
  type OperatorWrite,
} from '../../../src/shared/operator-api';
import { FINAL_STATUSES, orderDeadline, type OrderStatus } from '../../../src/shared/order-status';
import { ALICE, authHeader, initDataFor } from '../../helpers/identity';
import {
  CARD_REQUISITES,
  OFFICE_INSTRUCTIONS,
  OPERATOR,
  OPERATOR_PATHS,
  createLifecycleApp,
  expectMoved,
  naturalKind,
  orderRow,
  rowOf,
  send,
  txHashFor,
} from '../../helpers/lifecycle';
import { insertOrder } from '../../helpers/orders';
import type { TestApp } from '../../helpers/test-app';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

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

/** A call as OPERATOR whose init data Telegram signed `ageMs` before the server's now. */
function sendAged(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  ageMs: number,
  body?: unknown,
  language: 'ru' | 'en' = 'ru',
): Promise<LightMyRequestResponse> {
  const initData = initDataFor(OPERATOR, { authDate: new Date(t.clock.now() - ageMs) });
  return t.app.inject({
    method,
    url,
    headers: { ...authHeader(initData), 'accept-language': language },
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
}

/** Each operator write: an order in the status it acts on, the call and its body. */
const WRITES: Readonly<
  Record<
    OperatorWrite,
    {
      readonly status: OrderStatus;
      readonly method: 'POST' | 'PUT';
      readonly url: (id: string) => string;
      readonly body: unknown;
    }
  >
> = {
  requisites: {
    status: 'WAITING_REQUISITES',
    method: 'POST',
    url: OPERATOR_PATHS.requisites,
    body: CARD_REQUISITES,
  },
  officeInstructions: {
    status: 'OFFICE_PENDING',
    method: 'POST',
    url: OPERATOR_PATHS.officeInstructions,
    body: { instructions: OFFICE_INSTRUCTIONS },
  },
  confirmPayment: {
    status: 'RECEIPT_UPLOADED',
    method: 'POST',
    url: OPERATOR_PATHS.confirmPayment,
    body: {},
  },
  confirmTx: { status: 'TX_PENDING', method: 'POST', url: OPERATOR_PATHS.confirmTx, body: {} },
  attachDeposit: {
    status: 'WAITING_CRYPTO',
    method: 'POST',
    url: OPERATOR_PATHS.attachDeposit,
    body: { txHash: txHashFor('TRC20') },
  },
  complete: {
    status: 'PAYMENT_CONFIRMED',
    method: 'POST',
    url: OPERATOR_PATHS.complete,
    body: { outgoingTxHash: txHashFor('TRC20') },
  },
  reject: {
    status: 'RECEIPT_UPLOADED',
    method: 'POST',
    url: OPERATOR_PATHS.reject,
    body: { reason: 'Подозрение на мошенничество' },
  },
  appealDecision: {
    status: 'REJECTED',
    method: 'POST',
    url: OPERATOR_PATHS.appealDecision,
    body: { decision: 'uphold', outcome: 'Проверили: отклонение верное' },
  },
  rates: {
    status: 'WAITING_REQUISITES',
    method: 'PUT',
    url: () => OPERATOR_PATHS.rates,
    body: { fiat: 'RUB', crypto: 'USDT', baseRate: 95.5 },
  },
  spreads: {
    status: 'WAITING_REQUISITES',
    method: 'PUT',
    url: () => OPERATOR_PATHS.spreads,
    body: { paymentMethod: 'P2P', operation: 'BUY', spreadBp: 150 },
  },
  rateFix: {
    status: 'WAITING_REQUISITES',
    method: 'PUT',
    url: () => OPERATOR_PATHS.rateFix,
    body: { fiat: 'RUB', crypto: 'USDT', baseRate: 95.5, hours: 2 },
  },
  rateJump: {
    status: 'WAITING_REQUISITES',
    method: 'POST',
    url: () => OPERATOR_PATHS.rateJump,
    body: { fiat: 'RUB', crypto: 'USDT' },
  },
};

function orderFor(status: OrderStatus): Promise<string> {
  return insertOrder(t.database.db, ALICE, {
    ...rowOf(naturalKind(status)),
    status,
    created_at: t.clock.now(),
  });
}

const MONEY = (Object.keys(MONEY_ACTIONS) as OperatorWrite[]).filter((w) => MONEY_ACTIONS[w]);
const NOT_MONEY = (Object.keys(MONEY_ACTIONS) as OperatorWrite[]).filter((w) => !MONEY_ACTIONS[w]);

describe('money actions want init data at most OPERATOR_INIT_DATA_MAX_AGE old', () => {
  it('the table: completing, confirming a payment or a transaction, deciding an appeal, requisites and prices move money; instructions and rejection do not', () => {
    expect(MONEY).toEqual([
      'requisites',
      'confirmPayment',
      'confirmTx',
      'attachDeposit',
      'complete',
      'appealDecision',
      'rates',
      'spreads',
      'rateFix',
      'rateJump',
    ]);
    expect(NOT_MONEY).toEqual(['officeInstructions', 'reject']);
    expect(t.config.operatorInitDataMaxAgeSeconds).toBe(3_600);
  });

  it.each(MONEY)(
    "%s on init data an hour and a second old: 401 OPERATOR_REOPEN, in the caller's language, and nothing changes",
    async (write) => {
      const spec = WRITES[write];
      const id = await orderFor(spec.status);
      const before = await orderRow(t.database.db, id);
      const ru = await sendAged(spec.method, spec.url(id), HOUR + 1_000, spec.body, 'ru');
      expect({ status: ru.statusCode, code: ru.json<ApiErrorBody>().code }).toEqual({
        status: 401,
        code: 'OPERATOR_REOPEN',
      });
      expect(ru.json<ApiErrorBody>().error).toMatch(/^Консоль открыта слишком давно/);
      const en = await sendAged(spec.method, spec.url(id), HOUR + 1_000, spec.body, 'en');
      expect(en.json<ApiErrorBody>().error).toMatch(/^The console was opened too long ago/);
      expect(await orderRow(t.database.db, id)).toEqual(before);
    },
  );

  // Attaching a deposit reads the chain: accepted in chain-deposit-attach.test.ts; deciding an
  // appeal wants an open one and a senior operator: accepted in appeals.test.ts; fixing a rate
  // and taking a jump want market sources: accepted in market-rates.test.ts.
  const ELSEWHERE: readonly OperatorWrite[] = [
    'attachDeposit',
    'appealDecision',
    'rateFix',
    'rateJump',
  ];
  it.each(MONEY.filter((w) => !ELSEWHERE.includes(w)))(
    '%s on init data 59 minutes old is accepted',
    async (write) => {
      const spec = WRITES[write];
      const id = await orderFor(spec.status);
      const res = await sendAged(spec.method, spec.url(id), 59 * MINUTE, spec.body);
      expect(res.statusCode).toBe(200);
    },
  );

  it.each(NOT_MONEY)('%s still takes init data 23 hours old', async (write) => {
    const spec = WRITES[write];
    const id = await orderFor(spec.status);
    const res = await sendAged(spec.method, spec.url(id), 23 * HOUR, spec.body);
    expect(res.statusCode).toBe(200);
  });

  it('reading the queue, a search and an order still take init data 23 hours old; a day and more is AUTH_EXPIRED', async () => {
    const id = await orderFor('PAYMENT_CONFIRMED');
    for (const url of [OPERATOR_PATHS.queue, OPERATOR_PATHS.orders, OPERATOR_PATHS.order(id)]) {
      expect((await sendAged('GET', url, 23 * HOUR)).statusCode).toBe(200);
      const old = await sendAged('GET', url, 24 * HOUR + 1_000);
      expect(old.json<ApiErrorBody>().code).toBe('AUTH_EXPIRED');
    }
  });

  it('OPERATOR_INIT_DATA_MAX_AGE is read: at 600 s, init data 11 minutes old cannot complete', async () => {
    const strict = await createLifecycleApp({ operatorInitDataMaxAgeSeconds: 600 });
    try {
      const id = await insertOrder(strict.database.db, ALICE, {
        ...rowOf('p2pBuy'),
        status: 'PAYMENT_CONFIRMED',
        created_at: strict.clock.now(),
      });
      const call = (ageMs: number) =>
        strict.app.inject({
          method: 'POST',
          url: OPERATOR_PATHS.complete(id),
          headers: authHeader(
            initDataFor(OPERATOR, { authDate: new Date(strict.clock.now() - ageMs) }),
          ),
          payload: { outgoingTxHash: txHashFor('TRC20') },
        });
      expect((await call(11 * MINUTE)).json<ApiErrorBody>().code).toBe('OPERATOR_REOPEN');
      expect((await call(9 * MINUTE)).statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('a demo visitor’s console holds their own orders only', () => {
  const FIRST = demoCustomer('first-browser-0000-aaaa');
  const SECOND = demoCustomer('second-browser-000-bbbb');
  let demo: TestApp;
  let firstOrder: string;
  let secondOrder: string;
  let receiptId: string;
  beforeAll(async () => {
    // Demo mode (no BOT_TOKEN), OPERATOR the one listed operator.
    demo = await createLifecycleApp({ botToken: undefined });
    const at = demo.clock.now();
    firstOrder = await insertOrder(demo.database.db, FIRST, {
      ...rowOf('p2pBuy'),
      status: 'RECEIPT_UPLOADED',
      created_at: at,
    });
    secondOrder = await insertOrder(demo.database.db, SECOND, {
      ...rowOf('p2pBuy'),
      status: 'RECEIPT_UPLOADED',
      created_at: at,
    });
    receiptId = randomUUID();
    await demo.database.db
      .insertInto('receipts')
      .values({
        id: receiptId,
        order_id: firstOrder,
        file_name: 'чек.png',
        mime_type: 'image/png',
        size_bytes: 10,
        sha256: 'f'.repeat(64),
        storage_key: 'missing.png',
        uploaded_at: at,
      })
      .execute();
  });
  afterAll(async () => {
    await demo.close();
  });

  const idsOf = (rows: readonly { id: string }[]) => rows.map((o) => o.id).sort();
  const queueIds = (res: LightMyRequestResponse) =>
    idsOf(res.json<OperatorQueueResponse>().groups.flatMap((g) => g.orders));

  it('each demo visitor is an operator, and their queue and search hold their own orders only', async () => {
    for (const [visitor, own] of [
      [FIRST, firstOrder],
      [SECOND, secondOrder],
    ] as const) {
      const me = (await send(demo, 'GET', API_PATHS.me, visitor)).json<MeResponse>();
      expect(me.operator).toBe(true);
      expect(queueIds(await send(demo, 'GET', OPERATOR_PATHS.queue, visitor))).toEqual([own]);
      const all = await send(demo, 'GET', OPERATOR_PATHS.orders, visitor);
      expect(idsOf(all.json<OperatorOrdersResponse>().orders)).toEqual([own]);
    }
    // Searching for the other visitor by order number, Telegram id or @username finds nothing.
    for (const q of [firstOrder.slice(0, 8), String(FIRST.id), `@${FIRST.username}`]) {
      const res = await send(
        demo,
        'GET',
        `${OPERATOR_PATHS.orders}?q=${encodeURIComponent(q)}`,
        SECOND,
      );
      expect(res.json<OperatorOrdersResponse>().orders).toEqual([]);
    }
  });

  it("another visitor's order is 404 as a missing one: the view, a receipt and every action; nothing is taken or changed", async () => {
    const before = await orderRow(demo.database.db, firstOrder);
    const calls: readonly [method: 'GET' | 'POST', url: string, body?: unknown][] = [
      ['GET', OPERATOR_PATHS.order(firstOrder)],
      ['GET', OPERATOR_PATHS.receipt(firstOrder, receiptId)],
      ['POST', OPERATOR_PATHS.requisites(firstOrder), CARD_REQUISITES],
      [
        'POST',
        OPERATOR_PATHS.officeInstructions(firstOrder),
        { instructions: OFFICE_INSTRUCTIONS },
      ],
      ['POST', OPERATOR_PATHS.confirmPayment(firstOrder), {}],
      ['POST', OPERATOR_PATHS.confirmTx(firstOrder), {}],
      ['POST', OPERATOR_PATHS.complete(firstOrder), { outgoingTxHash: txHashFor('TRC20') }],
      ['POST', OPERATOR_PATHS.reject(firstOrder), { reason: 'чужой заказ' }],
    ];
    const missing = randomUUID();
    for (const [method, url, body] of calls) {
      const res = await send(demo, method, url, SECOND, body);
      const code = res.json<ApiErrorBody>().code;
      expect({ url, status: res.statusCode, code }).toEqual({
        url,
        status: 404,
        code: 'ORDER_NOT_FOUND',
      });
      // Exactly as an order that does not exist (the receipt's answer aside).
      if (!url.includes('/receipts/')) {
        const none = await send(demo, method, url.replace(firstOrder, missing), SECOND, body);
        expect({ status: none.statusCode, code: none.json<ApiErrorBody>().code }).toEqual({
          status: 404,
          code: 'ORDER_NOT_FOUND',
        });
      }
    }
    expect(await orderRow(demo.database.db, firstOrder)).toEqual(before);
    expect(before.taken_by).toBeNull();
  });

  it('opening their own order takes it from the autopilot, and they can act on it', async () => {
    const view = await send(demo, 'GET', OPERATOR_PATHS.order(secondOrder), SECOND);
    expect(view.statusCode).toBe(200);
    expect((await orderRow(demo.database.db, secondOrder)).taken_by).toBe(SECOND.id);
    expectMoved(
      await send(demo, 'POST', OPERATOR_PATHS.confirmPayment(secondOrder), SECOND, {}),
      'PAYMENT_CONFIRMED',
    );
  });

  it('a real operator (OPERATOR_IDS) still sees and opens every order', async () => {
    const queue = queueIds(await send(demo, 'GET', OPERATOR_PATHS.queue, OPERATOR));
    expect(queue).toContain(firstOrder);
    const all = await send(demo, 'GET', OPERATOR_PATHS.orders, OPERATOR);
    expect(idsOf(all.json<OperatorOrdersResponse>().orders)).toEqual(
      [firstOrder, secondOrder].sort(),
    );
    const view = await send(demo, 'GET', OPERATOR_PATHS.order(firstOrder), OPERATOR);
    expect(view.json<OperatorOrderResponse>().customer.telegramId).toBe(FIRST.id);
  });
});
