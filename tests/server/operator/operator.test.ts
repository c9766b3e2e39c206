/**
 * The staff API under /api/operator/: only Telegram users listed in OPERATOR_IDS get in; order
 * lists and one order with its events and receipts; receipt downloads; rejection with a reason;
 * rates and spreads that the customer's quote follows at once; bad bodies answered 400.
 */
import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, type ApiErrorBody, type RateResponse } from '../../../src/shared/api';
import type { ErrorCode } from '../../../src/shared/errors';
import { OPERATOR_USUAL_ANSWER_MS } from '../../../src/shared/limits';
import {
  ACTIVE_STATUSES,
  ORDER_STATUSES,
  type OrderStatus,
  type OrderType,
  type PaymentMethod,
} from '../../../src/shared/order-status';
import { ALICE, BOB, initDataFor } from '../../helpers/identity';
import {
  BANK_REQUISITES,
  CARD_REQUISITES,
  OFFICE_INSTRUCTIONS,
  OPERATOR,
  OPERATOR_PATHS,
  createLifecycleApp,
  eventsOf,
  expectMoved,
  orderRow,
  pdfFile,
  pngFile,
  receiptBody,
  rowOf,
  send,
  txHashFor,
  type OrderKind,
} from '../../helpers/lifecycle';
import { insertOrder } from '../../helpers/orders';
import type { TestApp } from '../../helpers/test-app';

const CUSTOMER = ALICE;
const NOT_OPERATOR = BOB;

let t: TestApp;
beforeAll(async () => {
  t = await createLifecycleApp();
});
afterAll(async () => {
  await t.close();
});

function expectError(res: LightMyRequestResponse, status: number, code: ErrorCode): void {
  expect({ status: res.statusCode, code: res.json<ApiErrorBody>().code }).toEqual({ status, code });
}

async function orderOf(kind: OrderKind, status: OrderStatus, extra: object = {}): Promise<string> {
  return insertOrder(t.database.db, CUSTOMER, {
    ...rowOf(kind),
    status,
    created_at: t.clock.now(),
    ...extra,
  });
}

/** Every route of the staff API, with a body an operator could send, on a real order. */
interface RouteCase {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly url: () => string;
  readonly body?: unknown;
}

let order: string;
let receiptId: string;
const ROUTES: readonly RouteCase[] = [
  { name: 'GET queue', method: 'GET', url: () => OPERATOR_PATHS.queue },
  { name: 'GET orders', method: 'GET', url: () => OPERATOR_PATHS.orders },
  { name: 'GET one order', method: 'GET', url: () => OPERATOR_PATHS.order(order) },
  { name: 'GET a receipt', method: 'GET', url: () => OPERATOR_PATHS.receipt(order, receiptId) },
  {
    name: 'POST requisites',
    method: 'POST',
    url: () => OPERATOR_PATHS.requisites(order),
    body: CARD_REQUISITES,
  },
  {
    name: 'POST office-instructions',
    method: 'POST',
    url: () => OPERATOR_PATHS.officeInstructions(order),
    body: { instructions: OFFICE_INSTRUCTIONS },
  },
  { name: 'POST confirm-payment', method: 'POST', url: () => OPERATOR_PATHS.confirmPayment(order) },
  { name: 'POST confirm-tx', method: 'POST', url: () => OPERATOR_PATHS.confirmTx(order) },
  {
    name: 'POST complete',
    method: 'POST',
    url: () => OPERATOR_PATHS.complete(order),
    body: { outgoingTxHash: txHashFor('TRC20') },
  },
  {
    name: 'POST reject',
    method: 'POST',
    url: () => OPERATOR_PATHS.reject(order),
    body: { reason: 'Подозрение на мошенничество' },
  },
  { name: 'GET rates', method: 'GET', url: () => OPERATOR_PATHS.rates },
  {
    name: 'PUT rates',
    method: 'PUT',
    url: () => OPERATOR_PATHS.rates,
    body: { fiat: 'RUB', crypto: 'USDT', baseRate: 1 },
  },
  {
    name: 'PUT spreads',
    method: 'PUT',
    url: () => OPERATOR_PATHS.spreads,
    body: { paymentMethod: 'P2P', operation: 'BUY', spreadBp: 0 },
  },
];

describe('only operators get in', () => {
  beforeAll(async () => {
    order = await orderOf('p2pBuy', 'REQUISITES_READY');
    const upload = await send(
      t,
      'POST',
      API_PATHS.receipt(order),
      CUSTOMER,
      receiptBody(pngFile(), 'image/png', 'check.png'),
    );
    expect(upload.statusCode).toBe(200);
    const { receipts } = await send(t, 'GET', OPERATOR_PATHS.order(order), OPERATOR).then((r) =>
      r.json<{ receipts: { id: string }[] }>(),
    );
    receiptId = receipts[0]?.id ?? '';
    expect(receiptId).not.toBe('');
  });

  const unchanged = async () => {
    expect((await orderRow(t.database.db, order)).status).toBe('RECEIPT_UPLOADED');
    expect((await eventsOf(t.database.db, order)).length).toBe(1);
    const rates = await t.database.db
      .selectFrom('rates')
      .select('updated_by')
      .where('updated_by', 'is not', null)
      .execute();
    expect(rates).toEqual([]);
  };

  it.each(ROUTES)(
    '$name refuses a customer who is not an operator with 403 FORBIDDEN',
    async (route) => {
      const res = await send(t, route.method, route.url(), NOT_OPERATOR, route.body);
      expectError(res, 403, 'FORBIDDEN');
      await unchanged();
    },
  );

  it.each(ROUTES)('$name refuses a call without init data with 401 AUTH_MISSING', async (route) => {
    const res = await send(t, route.method, route.url(), null, route.body);
    expectError(res, 401, 'AUTH_MISSING');
    await unchanged();
  });

  it.each(ROUTES)(
    "$name refuses init data forged with another bot's token with 401 AUTH_INVALID",
    async (route) => {
      const forged = initDataFor(OPERATOR, { token: '123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
      const res = await t.app.inject({
        method: route.method,
        url: route.url(),
        headers: { authorization: `tma ${forged}` },
        ...(route.body === undefined ? {} : { payload: route.body as Record<string, unknown> }),
      });
      expectError(res, 401, 'AUTH_INVALID');
      await unchanged();
    },
  );

  it('the customer who owns the order is no operator either', async () => {
    const res = await send(t, 'GET', OPERATOR_PATHS.order(order), CUSTOMER);
    expectError(res, 403, 'FORBIDDEN');
  });
});

describe('GET /api/operator/orders: lists by status, type and method, newest first, paged', () => {
  let app: TestApp;
  const ids: Record<string, string> = {};
  /** [name, kind, status, paid past its deadline (flagged for a person)], oldest first. */
  const ORDERS: readonly [string, OrderKind, OrderStatus, boolean][] = [
    ['p2pWaiting', 'p2pBuy', 'WAITING_REQUISITES', false],
    ['p2pReady', 'p2pBuy', 'REQUISITES_READY', false],
    ['bankPaid', 'bankBuy', 'PAYMENT_PENDING', true],
    ['officeReady', 'officeBuy', 'OFFICE_READY', false],
    ['sellPending', 'sell', 'TX_PENDING', true],
    ['p2pDone', 'p2pBuy', 'COMPLETED', false],
    ['sellCancelled', 'sell', 'CANCELLED', false],
    ['bankRejected', 'bankBuy', 'REJECTED', false],
  ];
  const DAY_MS = 24 * 60 * 60 * 1000;
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  // Created in the last few minutes (none waiting longer than an operator's usual answer), all on
  // one UTC day whenever the suite runs: from the day's start when it has just begun.
  let base = 0;

  beforeAll(async () => {
    app = await createLifecycleApp();
    const now = app.clock.now();
    base = Math.max(now - (now % DAY_MS), now - OPERATOR_USUAL_ANSWER_MS + 60_000);
    for (const [i, [name, kind, status, attention]] of ORDERS.entries()) {
      ids[name] = await insertOrder(app.database.db, i % 2 === 0 ? ALICE : BOB, {
        ...rowOf(kind),
        status,
        created_at: base + i * 60_000,
        // Past its deadline in a status that says the customer paid: flagged, never expired.
        expires_at: attention ? app.clock.now() - 60_000 : null,
      });
    }
  });
  afterAll(async () => {
    await app.close();
  });

  interface ListAnswer {
    orders: {
      id: string;
      status: OrderStatus;
      type: OrderType;
      paymentMethod: PaymentMethod;
      customer: { telegramId: number; firstName: string; username: string | null };
      flags: string[];
    }[];
    hasMore: boolean;
  }
  const list = async (query: string) => {
    const res = await send(app, 'GET', `${OPERATOR_PATHS.orders}${query}`, OPERATOR);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json<ListAnswer>();
  };
  const names = (answer: ListAnswer) =>
    answer.orders.map((o) => Object.keys(ids).find((name) => ids[name] === o.id));
  const newestFirst = (selected: string[]) => [...selected].reverse();

  it('lists every order, newest first, with the customer and its flags', async () => {
    const answer = await list('');
    expect(names(answer)).toEqual(newestFirst(ORDERS.map(([name]) => name)));
    expect(answer.hasMore).toBe(false);
    expect(answer.orders.find((o) => o.id === ids['bankPaid'])).toMatchObject({
      status: 'PAYMENT_PENDING',
      type: 'BUY',
      paymentMethod: 'BANK_ACCOUNT',
      customer: { telegramId: ALICE.id, firstName: ALICE.first_name },
      flags: ['paidLate'],
    });
    expect(answer.orders.find((o) => o.id === ids['p2pReady'])).toMatchObject({
      customer: { telegramId: BOB.id },
      flags: [],
    });
  });

  it('q finds an order by its number, a customer by Telegram id, @username or name; from and to by day', async () => {
    const bankPaid = ids['bankPaid'] ?? '';
    expect(names(await list(`?q=${bankPaid.slice(0, 8)}`))).toEqual(['bankPaid']);
    expect(names(await list(`?q=${bankPaid.slice(0, 8).toUpperCase()}`))).toEqual(['bankPaid']);
    const bobs = newestFirst(ORDERS.filter((_, i) => i % 2 === 1).map(([name]) => name));
    expect(names(await list(`?q=${BOB.id}`))).toEqual(bobs);
    expect(names(await list(`?q=${encodeURIComponent(`@${BOB.username}`)}`))).toEqual(bobs);
    expect(names(await list(`?q=${encodeURIComponent(`@${BOB.username.slice(0, 2)}`)}`))).toEqual(
      bobs,
    );
    expect(names(await list(`?q=${encodeURIComponent(ALICE.first_name.toLowerCase())}`))).toEqual(
      newestFirst(ORDERS.filter((_, i) => i % 2 === 0).map(([name]) => name)),
    );
    expect(names(await list('?q=%25'))).toEqual([]);
    expect(names(await list('?q=nobody'))).toEqual([]);
    const day = dayOf(base);
    expect(names(await list(`?from=${day}&to=${day}`))).toHaveLength(ORDERS.length);
    expect(names(await list(`?from=${dayOf(base + DAY_MS)}`))).toEqual([]);
    expect(names(await list(`?to=${dayOf(base - DAY_MS)}`))).toEqual([]);
  });

  it.each(ORDER_STATUSES.filter((s) => ORDERS.some(([, , status]) => status === s)))(
    'status=%s lists exactly the orders in that status',
    async (status) => {
      const answer = await list(`?status=${status}`);
      expect(names(answer)).toEqual(
        newestFirst(ORDERS.filter(([, , s]) => s === status).map(([name]) => name)),
      );
    },
  );

  it('status=active lists every order in a non-final status', async () => {
    expect(names(await list('?status=active'))).toEqual(
      newestFirst(ORDERS.filter(([, , s]) => ACTIVE_STATUSES.includes(s)).map(([name]) => name)),
    );
  });

  it('status=attention lists the orders flagged for a person', async () => {
    expect(names(await list('?status=attention'))).toEqual(['sellPending', 'bankPaid']);
  });

  it('type and method filter, alone and together with status', async () => {
    expect(names(await list('?type=SELL'))).toEqual(['sellCancelled', 'sellPending']);
    expect(names(await list('?method=BANK_ACCOUNT'))).toEqual(['bankRejected', 'bankPaid']);
    expect(names(await list('?method=OFFICE'))).toEqual(['officeReady']);
    expect(names(await list('?type=BUY&method=P2P&status=active'))).toEqual([
      'p2pReady',
      'p2pWaiting',
    ]);
    expect(names(await list('?type=SELL&status=COMPLETED'))).toEqual([]);
  });

  it('limit and offset page through the list; hasMore says whether another page exists', async () => {
    const all = newestFirst(ORDERS.map(([name]) => name));
    const first = await list('?limit=3');
    expect({ names: names(first), hasMore: first.hasMore }).toEqual({
      names: all.slice(0, 3),
      hasMore: true,
    });
    const second = await list('?limit=3&offset=3');
    expect({ names: names(second), hasMore: second.hasMore }).toEqual({
      names: all.slice(3, 6),
      hasMore: true,
    });
    const last = await list('?limit=3&offset=6');
    expect({ names: names(last), hasMore: last.hasMore }).toEqual({
      names: all.slice(6),
      hasMore: false,
    });
    const exact = await list('?limit=8');
    expect(exact.hasMore).toBe(false);
    expect((await list('?offset=8')).orders).toEqual([]);
  });

  it.each([
    'status=PAID',
    'status=active,attention',
    'type=RENT',
    'method=CARD',
    'limit=0',
    'limit=101',
    'limit=ten',
    'offset=-1',
    'from=2026-13-01',
    'to=yesterday',
    `q=${'x'.repeat(101)}`,
    'q=%00',
  ])('a bad query (%s) answers 400 VALIDATION_FAILED', async (query) => {
    const res = await send(app, 'GET', `${OPERATOR_PATHS.orders}?${query}`, OPERATOR);
    expectError(res, 400, 'VALIDATION_FAILED');
  });
});

describe('GET /api/operator/orders/{id}: the order with its customer, events and receipts', () => {
  it('shows what happened to it, by whom, and its receipts', async () => {
    const id = await orderOf('p2pBuy', 'WAITING_REQUISITES');
    const readyAt = t.clock.now();
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES),
      'REQUISITES_READY',
    );
    t.clock.advance(120_000);
    const uploadedAt = t.clock.now();
    const file = pdfFile();
    expectMoved(
      await send(
        t,
        'POST',
        API_PATHS.receipt(id),
        CUSTOMER,
        receiptBody(file, 'application/pdf', 'выписка.pdf'),
      ),
      'RECEIPT_UPLOADED',
    );

    const res = await send(t, 'GET', OPERATOR_PATHS.order(id), OPERATOR);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({
      order: {
        id,
        status: 'RECEIPT_UPLOADED',
        type: 'BUY',
        paymentMethod: 'P2P',
        walletAddress: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
        requisites: { cardHolder: 'IVAN PETROV' },
      },
      flags: [],
      deadline: new Date(readyAt + 30 * 60_000).toISOString(),
      customer: {
        telegramId: CUSTOMER.id,
        firstName: CUSTOMER.first_name,
        username: CUSTOMER.username,
        orderCount: expect.any(Number) as number,
      },
      offices: [],
      defaultBankAccount: null,
      events: [
        {
          from: 'WAITING_REQUISITES',
          to: 'REQUISITES_READY',
          actor: 'operator',
          actorId: OPERATOR.id,
          reason: null,
          at: new Date(readyAt).toISOString(),
        },
        {
          from: 'REQUISITES_READY',
          to: 'RECEIPT_UPLOADED',
          actor: 'customer',
          actorId: CUSTOMER.id,
          reason: null,
          at: new Date(uploadedAt).toISOString(),
        },
      ],
      receipts: [
        {
          id: expect.any(String) as string,
          fileName: 'выписка.pdf',
          mimeType: 'application/pdf',
          sizeBytes: file.length,
          sha256: createHash('sha256').update(file).digest('hex'),
          uploadedAt: new Date(uploadedAt).toISOString(),
          alsoOn: [],
        },
      ],
    });
  });

  it('a sell shows the card it pays out to and its tx hash', async () => {
    const txHash = txHashFor('TRC20');
    const id = await orderOf('sell', 'TX_PENDING', { tx_hash: txHash });
    const res = await send(t, 'GET', OPERATOR_PATHS.order(id), OPERATOR);
    expect(res.json()).toMatchObject({
      order: { type: 'SELL', txHash, walletAddress: null },
      payoutCard: { cardNumber: '2200700123456781', cardHolder: 'IVAN PETROV' },
      events: [],
      receipts: [],
    });
  });

  it.each(['0b7c6a52-5a43-4d8e-9a3f-6f5b9f3e2c11', 'not-a-uuid'])(
    'an unknown order (%s) answers 404 ORDER_NOT_FOUND',
    async (id) => {
      expectError(await send(t, 'GET', OPERATOR_PATHS.order(id), OPERATOR), 404, 'ORDER_NOT_FOUND');
    },
  );
});

describe('GET /api/operator/orders/{id}/receipts/{receiptId}: the file as uploaded', () => {
  const upload = async (id: string, bytes: Buffer, claimedMime: string, fileName: string) => {
    const res = await send(
      t,
      'POST',
      API_PATHS.receipt(id),
      CUSTOMER,
      receiptBody(bytes, claimedMime, fileName),
    );
    expect(res.statusCode, res.body).toBe(200);
    const detail = await send(t, 'GET', OPERATOR_PATHS.order(id), OPERATOR);
    const receipts = detail.json<{ receipts: { id: string; fileName: string }[] }>().receipts;
    const receipt = receipts.find((r) => r.fileName === fileName);
    expect(receipt).toBeDefined();
    return receipt?.id ?? '';
  };

  it.each([
    { kind: 'PNG', bytes: pngFile(), mime: 'image/png' },
    { kind: 'PDF', bytes: pdfFile(), mime: 'application/pdf' },
  ])(
    'a $kind comes back byte for byte with the type read from its bytes',
    async ({ bytes, mime }) => {
      const id = await orderOf('p2pBuy', 'PAYMENT_PENDING');
      // The data URL and the name claim a JPEG: the server believes the bytes.
      const receiptId = await upload(id, bytes, 'image/jpeg', `receipt-${mime.length}.jpg`);
      const res = await send(t, 'GET', OPERATOR_PATHS.receipt(id, receiptId), OPERATOR);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(mime);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename\*=UTF-8''/);
      // Never taken for anything but what the bytes are.
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(Buffer.compare(res.rawPayload, bytes)).toBe(0);
    },
  );

  it('a second page of the receipt is kept and downloadable too', async () => {
    const id = await orderOf('bankBuy', 'PAYMENT_PENDING');
    const first = pngFile();
    const second = pdfFile();
    await upload(id, first, 'image/png', 'page-1.png');
    const secondId = await upload(id, second, 'application/pdf', 'page-2.pdf');
    expect((await orderRow(t.database.db, id)).status).toBe('RECEIPT_UPLOADED');
    const res = await send(t, 'GET', OPERATOR_PATHS.receipt(id, secondId), OPERATOR);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(res.rawPayload, second)).toBe(0);
  });

  it('a receipt asked for under another order, or an unknown one, answers 404', async () => {
    const id = await orderOf('p2pBuy', 'PAYMENT_PENDING');
    const receiptId = await upload(id, pngFile(), 'image/png', 'mine.png');
    const other = await orderOf('p2pBuy', 'PAYMENT_PENDING');
    expectError(
      await send(t, 'GET', OPERATOR_PATHS.receipt(other, receiptId), OPERATOR),
      404,
      'NOT_FOUND',
    );
    expectError(
      await send(
        t,
        'GET',
        OPERATOR_PATHS.receipt(id, '5d1c3b7e-8d0a-4f57-bb1e-0c7f4a1d2e93'),
        OPERATOR,
      ),
      404,
      'NOT_FOUND',
    );
  });

  it('the same file on two orders flags both for operators', async () => {
    const bytes = pngFile();
    const a = await orderOf('p2pBuy', 'PAYMENT_PENDING');
    const b = await orderOf('p2pBuy', 'PAYMENT_PENDING');
    await upload(a, bytes, 'image/png', 'a.png');
    expect((await orderRow(t.database.db, a)).needs_attention).toBe(0);
    await upload(b, bytes, 'image/png', 'b.png');
    expect((await orderRow(t.database.db, a)).needs_attention).toBe(1);
    expect((await orderRow(t.database.db, b)).needs_attention).toBe(1);
  });
});

describe('POST /api/operator/orders/{id}/reject needs a reason', () => {
  it.each([
    { body: {}, what: 'no reason' },
    { body: { reasonCode: 'other' }, what: 'the catalogue reason other without its text' },
    { body: { reasonCode: 'bad_mood' }, what: 'a code outside the catalogue' },
    { body: { reasonCode: 'amount_mismatch', reason: ' ' }, what: 'a code with blank text' },
    { body: { reason: '' }, what: 'an empty reason' },
    { body: { reason: '   ' }, what: 'a blank reason' },
    { body: { reason: 42 }, what: 'a number' },
    { body: { reason: 'x'.repeat(501) }, what: 'a reason over 500 characters' },
  ])('$what answers 400 VALIDATION_FAILED and leaves the order alone', async ({ body }) => {
    const id = await orderOf('p2pBuy', 'RECEIPT_UPLOADED');
    const before = await orderRow(t.database.db, id);
    expectError(
      await send(t, 'POST', OPERATOR_PATHS.reject(id), OPERATOR, body),
      400,
      'VALIDATION_FAILED',
    );
    expect(await orderRow(t.database.db, id)).toEqual(before);
    expect(await eventsOf(t.database.db, id)).toEqual([]);
  });

  it('a reason rejects it and is kept on the order and its event', async () => {
    const id = await orderOf('p2pBuy', 'RECEIPT_UPLOADED');
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.reject(id), OPERATOR, { reason: 'Чек поддельный' }),
      'REJECTED',
    );
    expect((await orderRow(t.database.db, id)).reject_reason).toBe('Чек поддельный');
    expect((await eventsOf(t.database.db, id)).map((e) => e.reason)).toEqual(['Чек поддельный']);
  });

  it('free text alone is the catalogue reason other; the customer reads both', async () => {
    const id = await orderOf('p2pBuy', 'RECEIPT_UPLOADED');
    await send(t, 'POST', OPERATOR_PATHS.reject(id), OPERATOR, { reason: 'Чек поддельный' });
    const status = await send(t, 'GET', API_PATHS.orderStatus(id), CUSTOMER);
    expect(status.json()).toMatchObject({
      rejectReasonCode: 'other',
      rejectReason: 'Чек поддельный',
    });
  });

  it.each([
    { body: { reasonCode: 'third_party_payment' }, text: null, event: 'third_party_payment' },
    {
      body: { reasonCode: 'amount_mismatch', reason: 'Paid 4 900 instead of 5 000' },
      text: 'Paid 4 900 instead of 5 000',
      event: 'amount_mismatch: Paid 4 900 instead of 5 000',
    },
  ])(
    'a catalogue reason ($body.reasonCode) rejects it: the code and any text reach the customer and the audit trail',
    async ({ body, text, event }) => {
      const id = await orderOf('p2pBuy', 'RECEIPT_UPLOADED');
      expectMoved(await send(t, 'POST', OPERATOR_PATHS.reject(id), OPERATOR, body), 'REJECTED');
      const row = await orderRow(t.database.db, id);
      expect([row.reject_reason_code, row.reject_reason]).toEqual([body.reasonCode, text]);
      expect((await eventsOf(t.database.db, id)).map((e) => e.reason)).toEqual([event]);
      const status = await send(t, 'GET', API_PATHS.orderStatus(id), CUSTOMER);
      expect(status.json()).toMatchObject({
        status: 'REJECTED',
        rejectReasonCode: body.reasonCode,
        rejectReason: text,
      });
    },
  );
});

describe('rates and spreads', () => {
  interface RatesAnswer {
    rates: { fiat: string; crypto: string; baseRate: number; updatedBy: number | null }[];
    spreads: {
      paymentMethod: string;
      operation: string;
      spreadBp: number;
      updatedBy: number | null;
    }[];
  }
  let app: TestApp;
  beforeAll(async () => {
    app = await createLifecycleApp();
  });
  afterAll(async () => {
    await app.close();
  });

  const quote = async (operation: 'BUY' | 'SELL', paymentMethod = 'P2P', crypto = 'USDT') => {
    const res = await send(
      app,
      'GET',
      `${API_PATHS.rate}?amount=10000&currency=RUB&operation=${operation}&cryptoCurrency=${crypto}&paymentMethod=${paymentMethod}`,
      CUSTOMER,
    );
    expect(res.statusCode).toBe(200);
    return res.json<RateResponse>().rate;
  };

  it('GET shows the seeded base rates and spreads', async () => {
    const res = await send(app, 'GET', OPERATOR_PATHS.rates, OPERATOR);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const answer = res.json<RatesAnswer>();
    expect(answer.rates).toContainEqual(
      expect.objectContaining({ fiat: 'RUB', crypto: 'USDT', baseRate: 95.4, updatedBy: null }),
    );
    expect(answer.spreads).toContainEqual(
      expect.objectContaining({ paymentMethod: 'P2P', operation: 'BUY', spreadBp: 250 }),
    );
    expect(await quote('BUY')).toBe(97.79);
  });

  it('PUT rates changes the base rate and the customer quote follows at once', async () => {
    app.clock.advance(60_000);
    const res = await send(app, 'PUT', OPERATOR_PATHS.rates, OPERATOR, {
      fiat: 'RUB',
      crypto: 'USDT',
      baseRate: 100,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<RatesAnswer>().rates).toContainEqual(
      expect.objectContaining({
        fiat: 'RUB',
        crypto: 'USDT',
        baseRate: 100,
        updatedBy: OPERATOR.id,
      }),
    );
    expect(await quote('BUY')).toBe(102.5);
    expect(await quote('SELL')).toBe(97.5);
    expect(await quote('BUY', 'P2P', 'USDC')).toBe(97.63); // USDC untouched: 95.25 × 1.025
    const read = await send(app, 'GET', OPERATOR_PATHS.rates, OPERATOR);
    expect(read.json<RatesAnswer>().rates).toContainEqual(
      expect.objectContaining({
        fiat: 'RUB',
        crypto: 'USDT',
        baseRate: 100,
        updatedBy: OPERATOR.id,
        updatedAt: new Date(app.clock.now()).toISOString(),
      }),
    );
  });

  it('PUT spreads changes one method and direction, and the quote follows at once', async () => {
    const res = await send(app, 'PUT', OPERATOR_PATHS.spreads, OPERATOR, {
      paymentMethod: 'P2P',
      operation: 'BUY',
      spreadBp: 100,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<RatesAnswer>().spreads).toContainEqual(
      expect.objectContaining({
        paymentMethod: 'P2P',
        operation: 'BUY',
        spreadBp: 100,
        updatedBy: OPERATOR.id,
      }),
    );
    expect(await quote('BUY')).toBe(101);
    expect(await quote('SELL')).toBe(97.5);
    expect(await quote('BUY', 'BANK_ACCOUNT')).toBe(101.5);
  });

  it('a create at the old rate is refused with RATE_CHANGED and the new rate', async () => {
    const res = await send(app, 'POST', API_PATHS.createOrder, CUSTOMER, {
      type: 'BUY',
      paymentMethod: 'P2P',
      currency: 'RUB',
      cryptoCurrency: 'USDT',
      network: 'TRC20',
      rate: 97.79,
      amount: 102.2599,
      totalRub: 10_000,
      walletAddress: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<ApiErrorBody>()).toMatchObject({ code: 'RATE_CHANGED', rate: 101 });
  });

  it.each([
    { fiat: 'rub', crypto: 'USDT', baseRate: 100 },
    { fiat: 'RUB', crypto: 'BTC', baseRate: 100 },
    { fiat: 'RUB', crypto: 'USDT', baseRate: 0 },
    { fiat: 'RUB', crypto: 'USDT', baseRate: -5 },
    { fiat: 'RUB', crypto: 'USDT', baseRate: '100' },
    { fiat: 'RUB', crypto: 'USDT', baseRate: 2_000_000 },
    { fiat: 'RUB', crypto: 'USDT' },
  ])('PUT rates with a bad body %j answers 400 VALIDATION_FAILED', async (body) => {
    expectError(
      await send(app, 'PUT', OPERATOR_PATHS.rates, OPERATOR, body),
      400,
      'VALIDATION_FAILED',
    );
    expect(await quote('BUY')).toBe(101);
  });

  it.each([
    { paymentMethod: 'CARD', operation: 'BUY', spreadBp: 100 },
    { paymentMethod: 'P2P', operation: 'RENT', spreadBp: 100 },
    { paymentMethod: 'P2P', operation: 'BUY', spreadBp: -1 },
    { paymentMethod: 'P2P', operation: 'BUY', spreadBp: 2_001 },
    { paymentMethod: 'P2P', operation: 'BUY', spreadBp: 1.5 },
    { paymentMethod: 'P2P', operation: 'BUY' },
  ])('PUT spreads with a bad body %j answers 400 VALIDATION_FAILED', async (body) => {
    expectError(
      await send(app, 'PUT', OPERATOR_PATHS.spreads, OPERATOR, body),
      400,
      'VALIDATION_FAILED',
    );
    expect(await quote('BUY')).toBe(101);
  });
});

describe('bad bodies of the order actions answer 400 VALIDATION_FAILED and change nothing', () => {
  it.each([
    {
      what: 'a card number failing Luhn',
      body: { ...CARD_REQUISITES, cardNumber: '2200700123456782' },
    },
    {
      what: 'a card number of 15 digits',
      body: { ...CARD_REQUISITES, cardNumber: '220070012345678' },
    },
    { what: 'no card holder', body: { bankName: 'Т-Банк', cardNumber: '2200700123456781' } },
    {
      what: 'an account number of 19 digits',
      body: { ...BANK_REQUISITES, accountNumber: '4070281093800012345' },
    },
    { what: 'a BIK of 8 digits', body: { ...BANK_REQUISITES, bik: '04452522' } },
    { what: 'an INN of 11 digits', body: { ...BANK_REQUISITES, inn: '77070838931' } },
    {
      what: 'a correspondent account with letters',
      body: { ...BANK_REQUISITES, correspondentAccount: '3010181040000000022X' },
    },
    { what: 'an empty body', body: {} },
  ])('requisites with $what', async ({ body }) => {
    const id = await orderOf('p2pBuy', 'WAITING_REQUISITES');
    const bankId = await orderOf('bankBuy', 'WAITING_REQUISITES');
    for (const target of [id, bankId]) {
      const before = await orderRow(t.database.db, target);
      expectError(
        await send(t, 'POST', OPERATOR_PATHS.requisites(target), OPERATOR, body),
        400,
        'VALIDATION_FAILED',
      );
      expect(await orderRow(t.database.db, target)).toEqual(before);
    }
  });

  it.each([
    { what: 'no instructions', body: {} },
    { what: 'blank instructions', body: { instructions: '  ' } },
    { what: 'instructions over 2000 characters', body: { instructions: 'я'.repeat(2001) } },
  ])('office instructions with $what', async ({ body }) => {
    const id = await orderOf('officeBuy', 'OFFICE_PENDING');
    const before = await orderRow(t.database.db, id);
    expectError(
      await send(t, 'POST', OPERATOR_PATHS.officeInstructions(id), OPERATOR, body),
      400,
      'VALIDATION_FAILED',
    );
    expect(await orderRow(t.database.db, id)).toEqual(before);
  });

  it('complete with an outgoing hash that is not a string', async () => {
    const id = await orderOf('p2pBuy', 'PAYMENT_CONFIRMED');
    expectError(
      await send(t, 'POST', OPERATOR_PATHS.complete(id), OPERATOR, { outgoingTxHash: 12345 }),
      400,
      'VALIDATION_FAILED',
    );
    expect((await orderRow(t.database.db, id)).status).toBe('PAYMENT_CONFIRMED');
  });

  it('malformed JSON answers 400 INVALID_JSON', async () => {
    const id = await orderOf('p2pBuy', 'RECEIPT_UPLOADED');
    const res = await t.app.inject({
      method: 'POST',
      url: OPERATOR_PATHS.reject(id),
      headers: {
        authorization: `tma ${initDataFor(OPERATOR)}`,
        'content-type': 'application/json',
      },
      payload: '{"reason": "oops"',
    });
    expectError(res, 400, 'INVALID_JSON');
    expect((await orderRow(t.database.db, id)).status).toBe('RECEIPT_UPLOADED');
  });

  it('an action on an unknown order answers 404 ORDER_NOT_FOUND', async () => {
    expectError(
      await send(
        t,
        'POST',
        OPERATOR_PATHS.confirmPayment('0b7c6a52-5a43-4d8e-9a3f-6f5b9f3e2c11'),
        OPERATOR,
        {},
      ),
      404,
      'ORDER_NOT_FOUND',
    );
  });
});
