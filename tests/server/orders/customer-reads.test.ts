/**
 * The customer's reads: `GET /api/orders/{id}/status`, `…/requisites` and
 * `GET /api/orders/history`. Every one answers only the caller's orders (identity:
 * another customer's order is answered exactly as a missing one).
 */
import { randomUUID } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REQUISITES_TIMEOUT_MS } from '../../../src/shared/limits';
import {
  API_PATHS,
  type BankRequisitesResponse,
  type HistoryResponse,
  type OrderDetails,
} from '../../../src/shared/api';
import {
  ACTIVE_STATUSES,
  FINAL_STATUSES,
  ORDER_STATUSES,
  type OrderStatus,
} from '../../../src/shared/order-status';
import {
  createOrder,
  expectError,
  expiredInitData,
  forgedInitData,
  get,
  newCustomer,
  post,
  rateOf,
  statusOf,
  TRON_WALLET,
  type TestUser,
} from '../../helpers/api';
import { authHeader, initDataFor } from '../../helpers/identity';
import { COMPRESS_ABOVE_BYTES } from '../../../src/server/platform/http/compression';
import { insertOrder } from '../../helpers/orders';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { VERIFICATION_CODE_PATTERN } from '../../../src/shared/verification-code';

const OPERATOR = { id: 200_000_900, first_name: 'Olga', username: 'olga_operator' };

let t: TestApp;
let noBot: TestApp;
beforeAll(async () => {
  t = await createTestApp({ botUsername: 'exchange_bot', operatorIds: [OPERATOR.id] });
  noBot = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await noBot.close();
});

const withHeaders = (app: TestApp, url: string, headers: Record<string, string>) =>
  app.app.inject({ method: 'GET', url, headers });

describe('GET /api/orders/{id}/status', () => {
  it('answers every order field, the server time and the deep link', async () => {
    const alice = newCustomer('Alice');
    const rate = await rateOf(t, alice);
    const created = t.clock.current;
    const id = await createOrder(t, alice, { total: 10_000, network: 'TRC20' });
    t.clock.advance(90_000);
    const res = await get(t, API_PATHS.orderStatus(id), alice);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const amount = Math.round((10_000 / rate) * 10_000) / 10_000;
    expect(res.json()).toEqual({
      id,
      type: 'BUY',
      status: 'WAITING_REQUISITES',
      amount,
      cryptoCurrency: 'USDT',
      network: 'TRC20',
      currency: 'RUB',
      totalRub: Math.round(amount * rate),
      rate,
      paymentMethod: 'P2P',
      createdAt: new Date(created).toISOString(),
      updatedAt: new Date(created).toISOString(),
      cancelReason: null,
      unreadMessages: 0,
      expiresAt: new Date(created + DEFAULT_REQUISITES_TIMEOUT_MS).toISOString(),
      requisitesReadyAt: null,
      reservedUntil: null,
      cityId: null,
      rejectReason: null,
      rejectReasonCode: null,
      txHash: null,
      outgoingTxHash: null,
      officeInstructions: null,
      walletAddress: TRON_WALLET,
      receipts: [],
      requisites: null,
      reservation: null,
      deepLink: `https://t.me/exchange_bot?startapp=order_${id}`,
      chainCheck: null,
      verificationCode: expect.stringMatching(VERIFICATION_CODE_PATTERN) as unknown,
      payoutCard: null,
      appeal: null,
      serverTime: new Date(created + 90_000).toISOString(),
    });
  });

  it('gives the server time of each poll, to the millisecond, from an answer kept between polls', async () => {
    const gina = newCustomer('Gina');
    const id = await createOrder(t, gina, { total: 10_000, network: 'TRC20' });
    const times: string[] = [];
    for (const step of [0, 0, 1, 999, 0, 60_000]) {
      t.clock.advance(step);
      const details = await statusOf(t, gina, id);
      expect(details.serverTime).toBe(new Date(t.clock.current).toISOString());
      times.push(details.serverTime);
    }
    expect(new Set(times).size).toBe(4);
  });

  it('is never compressed, even when it is over the size other answers are compressed at: the poll stays as cheap as it was', async () => {
    const erin = newCustomer('Erin');
    const id = await insertOrder(t.database.db, erin, {
      status: 'OFFICE_READY',
      payment_method: 'OFFICE',
      city_id: 'moscow',
      office_instructions: 'Пресненская наб., 12, башня «Федерация». '.repeat(30),
    });
    const res = await withHeaders(t, API_PATHS.orderStatus(id), {
      ...authHeader(initDataFor(erin)),
      'accept-encoding': 'br, gzip',
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeGreaterThan(COMPRESS_ABOVE_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('maps every stored field: deadlines, city, reject reason, hashes and instructions', async () => {
    const bob = newCustomer('Bob');
    const at = Date.UTC(2026, 10, 20, 9, 0);
    const id = await insertOrder(t.database.db, bob, {
      status: 'REJECTED',
      type: 'SELL',
      payment_method: 'P2P',
      crypto_currency: 'USDC',
      network: 'BEP20',
      amount_units: 250_500_000,
      total_minor: 2_328_900,
      rate_units: 92_970_000,
      wallet_address: null,
      requisites: JSON.stringify({ walletAddress: '0x000000000000000000000000000000000000dEaD' }),
      city_id: 'moscow',
      office_instructions: 'Bring your passport',
      reject_reason: 'Card holder does not match',
      tx_hash: `0x${'ab'.repeat(32)}`,
      outgoing_tx_hash: `0x${'cd'.repeat(32)}`,
      created_at: at,
      updated_at: at + 60_000,
      requisites_ready_at: at,
      expires_at: at + 1_800_000,
      reserved_until: at + 10_800_000,
    });
    const order = await statusOf(t, bob, id);
    expect(order).toMatchObject({
      type: 'SELL',
      status: 'REJECTED',
      amount: 250.5,
      cryptoCurrency: 'USDC',
      network: 'BEP20',
      totalRub: 23_289,
      rate: 92.97,
      createdAt: '2026-11-20T09:00:00.000Z',
      updatedAt: '2026-11-20T09:01:00.000Z',
      requisitesReadyAt: '2026-11-20T09:00:00.000Z',
      expiresAt: '2026-11-20T09:30:00.000Z',
      reservedUntil: '2026-11-20T12:00:00.000Z',
      cityId: 'moscow',
      officeInstructions: 'Bring your passport',
      rejectReason: 'Card holder does not match',
      txHash: `0x${'ab'.repeat(32)}`,
      outgoingTxHash: `0x${'cd'.repeat(32)}`,
      walletAddress: null,
      requisites: { walletAddress: '0x000000000000000000000000000000000000dEaD' },
    });
  });

  it('gives deepLink null when no bot username is configured', async () => {
    const alice = newCustomer('Alice');
    const id = await createOrder(noBot, alice, { total: 10_000 });
    const order = await statusOf(noBot, alice, id);
    expect(order.deepLink).toBeNull();
    expect(order.id).toBe(id);
  });

  it('finds the order by its id written in upper case', async () => {
    const alice = newCustomer('Alice');
    const id = await createOrder(t, alice, { total: 10_000 });
    expect((await statusOf(t, alice, id.toUpperCase())).id).toBe(id);
  });

  it("answers another customer's order with 404 ORDER_NOT_FOUND, exactly like a missing one", async () => {
    const alice = newCustomer('Alice');
    const mallory = newCustomer('Mallory');
    const id = await createOrder(t, alice, { total: 10_000 });
    const foreign = await get(t, API_PATHS.orderStatus(id), mallory);
    const missing = await get(t, API_PATHS.orderStatus(randomUUID()), mallory);
    expectError(foreign, 'ORDER_NOT_FOUND');
    expect(foreign.statusCode).toBe(missing.statusCode);
    expect(foreign.json()).toEqual(missing.json());
    // The owner still sees it: the 404 was about who asked, not about the order.
    expect((await statusOf(t, alice, id)).id).toBe(id);
  });

  it.each([
    ['a number', '12345'],
    ['a start parameter', 'order_12345'],
    ['SQL', "1' OR '1'='1"],
    ['a UUID with a character too many', `${randomUUID()}0`],
    ['a 100-character id', 'a'.repeat(100)],
  ])('answers an id that is not a UUID (%s) with 404 ORDER_NOT_FOUND', async (_n, id) => {
    const alice = newCustomer('Alice');
    expectError(await get(t, API_PATHS.orderStatus(id), alice), 'ORDER_NOT_FOUND');
  });

  it("answers an over-long id with 404 NOT_FOUND in the error catalogue, not the router's own code", async () => {
    const alice = newCustomer('Alice');
    const res = await get(t, `/api/orders/${'a'.repeat(2_000)}/status`, alice);
    expect(res.json()).toEqual({ error: expect.any(String) as string, code: 'NOT_FOUND' });
    expectError(res, 'NOT_FOUND');
  });

  it("answers a malformed %-escape in the path with 400 BAD_REQUEST, not the router's own code", async () => {
    const alice = newCustomer('Alice');
    const res = await get(t, '/api/orders/%zz/status', alice);
    expect(res.json()).toEqual({ error: expect.any(String) as string, code: 'BAD_REQUEST' });
    expectError(res, 'BAD_REQUEST');
  });

  it('says ORDER_NOT_FOUND in the language of Accept-Language', async () => {
    const alice = newCustomer('Alice');
    const url = API_PATHS.orderStatus(randomUUID());
    const headers = authHeader(initDataFor(alice));
    const en = await withHeaders(t, url, { ...headers, 'accept-language': 'en-US,en;q=0.9' });
    const ru = await withHeaders(t, url, { ...headers, 'accept-language': 'ru' });
    expect(en.json()).toEqual({ error: 'Order not found', code: 'ORDER_NOT_FOUND' });
    expect(ru.json<{ error: string }>().error).toMatch(/[а-я]/i);
  });

  it('refuses a call without init data with 401 AUTH_MISSING', async () => {
    const alice = newCustomer('Alice');
    const id = await createOrder(t, alice, { total: 10_000 });
    expectError(await get(t, API_PATHS.orderStatus(id)), 'AUTH_MISSING');
  });

  it("refuses forged init data (claiming the owner's id) with 401 AUTH_INVALID", async () => {
    const alice = newCustomer('Alice');
    const id = await createOrder(t, alice, { total: 10_000 });
    const impostor = { id: alice.id - 1, first_name: 'Mallory' };
    const res = await withHeaders(
      t,
      API_PATHS.orderStatus(id),
      authHeader(forgedInitData(impostor)),
    );
    expectError(res, 'AUTH_INVALID');
  });

  it('refuses init data signed two days ago with 401 AUTH_EXPIRED', async () => {
    const alice = newCustomer('Alice');
    const id = await createOrder(t, alice, { total: 10_000 });
    const res = await withHeaders(t, API_PATHS.orderStatus(id), authHeader(expiredInitData(alice)));
    expectError(res, 'AUTH_EXPIRED');
  });

  it('refuses an Authorization header of another scheme with 401 AUTH_INVALID', async () => {
    const alice = newCustomer('Alice');
    const id = await createOrder(t, alice, { total: 10_000 });
    const res = await withHeaders(t, API_PATHS.orderStatus(id), {
      authorization: `Bearer ${initDataFor(alice)}`,
    });
    expectError(res, 'AUTH_INVALID');
  });

  it("accepts the office-waiting screen's telegramInitData query field", async () => {
    const alice = newCustomer('Alice');
    const id = await createOrder(t, alice, { total: 10_000 });
    const url = `${API_PATHS.orderStatus(id)}?telegramInitData=${encodeURIComponent(
      initDataFor(alice),
    )}`;
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.json<OrderDetails>().id).toBe(id);
  });
});

describe('GET /api/orders/{id}/requisites', () => {
  const giveBank = (id: string, body: Record<string, unknown>) =>
    post(t, `/api/operator/orders/${id}/requisites`, body, OPERATOR);

  const bankDetails = {
    recipientName: 'ООО «Обменный пункт»',
    accountNumber: '40702810900000012345',
    bankName: 'АО «Альфа-Банк»',
    bik: '044525593',
    correspondentAccount: '30101810200000000593',
    inn: '7728168971',
  };

  it('answers requisitesNotConfigured before an operator gives the bank requisites', async () => {
    const buyer = newCustomer('Buyer');
    const id = await createOrder(t, buyer, { paymentMethod: 'BANK_ACCOUNT', total: 600_000 });
    const res = await get(t, API_PATHS.orderRequisites(id), buyer);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ requisitesNotConfigured: true, requisites: null });
  });

  it('answers the bank requisites once given, beneficiary falling back to recipient and account', async () => {
    const buyer = newCustomer('Buyer');
    const id = await createOrder(t, buyer, { paymentMethod: 'BANK_ACCOUNT', total: 600_000 });
    const given = await giveBank(id, bankDetails);
    expect(given.statusCode, given.body).toBe(200);
    const res = await get(t, API_PATHS.orderRequisites(id), buyer);
    expect(res.json<BankRequisitesResponse>()).toEqual({
      requisitesNotConfigured: false,
      requisites: {
        ...bankDetails,
        beneficiaryName: bankDetails.recipientName,
        beneficiaryAccount: bankDetails.accountNumber,
      },
    });
    const order = await statusOf(t, buyer, id);
    expect(order.status).toBe('REQUISITES_READY');
    expect(order.requisites).toEqual(res.json<BankRequisitesResponse>().requisites);
  });

  it('keeps a beneficiary and bank address that differ from the recipient', async () => {
    const buyer = newCustomer('Buyer');
    const id = await createOrder(t, buyer, { paymentMethod: 'BANK_ACCOUNT', total: 600_000 });
    const extra = {
      bankAddress: 'Москва, ул. Каланчёвская, 27',
      beneficiaryName: 'ИП Смирнов Алексей Петрович',
      beneficiaryAccount: '40802810400000054321',
    };
    expect((await giveBank(id, { ...bankDetails, ...extra })).statusCode).toBe(200);
    const res = await get(t, API_PATHS.orderRequisites(id), buyer);
    expect(res.json()).toEqual({
      requisitesNotConfigured: false,
      requisites: { ...bankDetails, ...extra },
    });
  });

  it("answers another customer's order with 404 ORDER_NOT_FOUND", async () => {
    const buyer = newCustomer('Buyer');
    const mallory = newCustomer('Mallory');
    const id = await createOrder(t, buyer, { paymentMethod: 'BANK_ACCOUNT', total: 600_000 });
    expect((await giveBank(id, bankDetails)).statusCode).toBe(200);
    const foreign = await get(t, API_PATHS.orderRequisites(id), mallory);
    expectError(foreign, 'ORDER_NOT_FOUND');
    expect(foreign.body).not.toContain(bankDetails.accountNumber);
    expectError(await get(t, API_PATHS.orderRequisites('not-a-uuid'), buyer), 'ORDER_NOT_FOUND');
  });

  it('refuses a call without init data with 401 AUTH_MISSING', async () => {
    const buyer = newCustomer('Buyer');
    const id = await createOrder(t, buyer, { paymentMethod: 'BANK_ACCOUNT', total: 600_000 });
    expectError(await get(t, API_PATHS.orderRequisites(id)), 'AUTH_MISSING');
  });
});

describe('GET /api/orders/history', () => {
  const CAROL = newCustomer('Carol');
  const DAVE = newCustomer('Dave');
  const BASE_TIME = Date.UTC(2026, 9, 1, 8, 0);
  /** Carol's orders, newest first, as the history must list them. */
  let carolNewestFirst: { id: string; status: OrderStatus }[] = [];
  let daveIds: string[] = [];

  const history = async (user: TestUser, query = '') => {
    const res = await get(t, `${API_PATHS.history}${query}`, user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json<HistoryResponse>();
  };

  beforeAll(async () => {
    // 47 orders over every status, inserted out of time order (newest by created_at is not the
    // last inserted), plus another customer's orders at the same times.
    const rows: { id: string; status: OrderStatus; at: number }[] = [];
    for (let i = 0; i < 47; i++) {
      const status = ORDER_STATUSES[(i * 5) % ORDER_STATUSES.length] ?? 'COMPLETED';
      const at = BASE_TIME + ((i * 17) % 47) * 3_600_000;
      const id = await insertOrder(t.database.db, CAROL, { status, created_at: at });
      rows.push({ id, status, at });
    }
    carolNewestFirst = [...rows].sort((a, b) => b.at - a.at);
    daveIds = [];
    for (let i = 0; i < 5; i++) {
      daveIds.push(
        await insertOrder(t.database.db, DAVE, {
          status: i % 2 === 0 ? 'COMPLETED' : 'WAITING_REQUISITES',
          created_at: BASE_TIME + i * 3_600_000 + 1,
        }),
      );
    }
  });

  it('answers {orders: [], hasMore: false} for a customer without orders', async () => {
    expect(await history(newCustomer('Nobody'))).toEqual({ orders: [], hasMore: false });
  });

  it('lists the newest 20 by default with hasMore', async () => {
    const page = await history(CAROL);
    expect(page.orders.map((o) => o.id)).toEqual(carolNewestFirst.slice(0, 20).map((o) => o.id));
    expect(page.hasMore).toBe(true);
  });

  it('lists newest first by created_at', async () => {
    const { orders } = await history(CAROL, '?limit=100');
    const times = orders.map((o) => Date.parse(o.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(times).size).toBe(47);
  });

  it('pages with offset: 20 + 20 + 7 are all 47 orders once, the last page without hasMore', async () => {
    const first = await history(CAROL, '?limit=20&offset=0');
    const second = await history(CAROL, '?limit=20&offset=20');
    const third = await history(CAROL, '?limit=20&offset=40');
    expect([first.hasMore, second.hasMore, third.hasMore]).toEqual([true, true, false]);
    expect(third.orders).toHaveLength(7);
    expect([...first.orders, ...second.orders, ...third.orders].map((o) => o.id)).toEqual(
      carolNewestFirst.map((o) => o.id),
    );
    expect(await history(CAROL, '?offset=47')).toEqual({ orders: [], hasMore: false });
  });

  it('says hasMore false when the page holds exactly the last order', async () => {
    const page = await history(CAROL, '?limit=47');
    expect(page.orders).toHaveLength(47);
    expect(page.hasMore).toBe(false);
    const short = await history(CAROL, '?limit=46');
    expect(short.hasMore).toBe(true);
  });

  it('status=active lists only the non-final statuses', async () => {
    const { orders } = await history(CAROL, '?status=active&limit=100');
    const expected = carolNewestFirst.filter((o) => ACTIVE_STATUSES.includes(o.status));
    expect(expected.length).toBeGreaterThan(0);
    expect(orders.map((o) => o.id)).toEqual(expected.map((o) => o.id));
  });

  it('status=completed lists COMPLETED, CANCELLED and REJECTED only', async () => {
    const { orders } = await history(CAROL, '?status=completed&limit=100');
    const expected = carolNewestFirst.filter((o) => FINAL_STATUSES.includes(o.status));
    expect(new Set(expected.map((o) => o.status))).toEqual(
      new Set(['COMPLETED', 'CANCELLED', 'REJECTED']),
    );
    expect(orders.map((o) => o.id)).toEqual(expected.map((o) => o.id));
  });

  it('status=all lists every status, like no status', async () => {
    const all = await history(CAROL, '?status=all&limit=100');
    expect(all.orders).toHaveLength(47);
    expect(new Set(all.orders.map((o) => o.status))).toEqual(new Set(ORDER_STATUSES));
    expect(await history(CAROL, '?limit=100')).toEqual(all);
  });

  it('a filtered page pages too: active orders 5 at a time', async () => {
    const active = carolNewestFirst.filter((o) => ACTIVE_STATUSES.includes(o.status));
    const page = await history(CAROL, '?status=active&limit=5&offset=5');
    expect(page.orders.map((o) => o.id)).toEqual(active.slice(5, 10).map((o) => o.id));
    expect(page.hasMore).toBe(active.length > 10);
  });

  it("lists only the caller's orders", async () => {
    const carol = await history(CAROL, '?limit=100');
    const dave = await history(DAVE, '?limit=100');
    expect(dave.orders.map((o) => o.id).sort()).toEqual([...daveIds].sort());
    expect(carol.orders.some((o) => daveIds.includes(o.id))).toBe(false);
  });

  it('gives each order as a history card: the summary fields', async () => {
    const { orders } = await history(DAVE, '?limit=1');
    expect(orders[0]).toEqual({
      id: daveIds[4],
      type: 'BUY',
      status: 'COMPLETED',
      amount: 100,
      cryptoCurrency: 'USDT',
      network: 'TRC20',
      currency: 'RUB',
      totalRub: 9_500,
      rate: 95,
      paymentMethod: 'P2P',
      createdAt: new Date(BASE_TIME + 4 * 3_600_000 + 1).toISOString(),
      updatedAt: new Date(BASE_TIME + 4 * 3_600_000 + 1).toISOString(),
      cancelReason: null,
      unreadMessages: 0,
    });
  });

  it('allows a page of 100', async () => {
    expect((await history(CAROL, '?limit=100')).orders).toHaveLength(47);
  });

  it.each([
    ['limit=101', 'a page over 100'],
    ['limit=0', 'an empty page'],
    ['limit=-1', 'a negative limit'],
    ['limit=abc', 'a limit that is not a number'],
    ['limit=20.5', 'a fractional limit'],
    ['offset=-20', 'a negative offset'],
    ['offset=x', 'an offset that is not a number'],
    ['status=done', 'an unknown status filter'],
    ['status=COMPLETED', 'a raw status instead of a filter'],
    ['status=all&status=active', 'the filter twice'],
  ])('refuses %s (%s) with 400 VALIDATION_FAILED', async (query) => {
    expectError(await get(t, `${API_PATHS.history}?${query}`, CAROL), 'VALIDATION_FAILED');
  });

  it('accepts a telegramInitData query with limit=20 and offset', async () => {
    const url = `${API_PATHS.history}?telegramInitData=${encodeURIComponent(
      initDataFor(CAROL),
    )}&limit=20&offset=20&status=all`;
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.json<HistoryResponse>().orders.map((o) => o.id)).toEqual(
      carolNewestFirst.slice(20, 40).map((o) => o.id),
    );
  });

  it('refuses a call without init data with 401 AUTH_MISSING', async () => {
    expectError(await get(t, API_PATHS.history), 'AUTH_MISSING');
  });

  it('refuses forged init data with 401 AUTH_INVALID', async () => {
    const res = await withHeaders(t, API_PATHS.history, authHeader(forgedInitData(DAVE)));
    expectError(res, 'AUTH_INVALID');
  });
  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)(
    'sends a page of 20 compressed in %s when the app takes it: the same JSON, a fraction of the bytes',
    async (encoding, decompress) => {
      const url = `${API_PATHS.history}?limit=20&offset=0&status=all`;
      const headers = authHeader(initDataFor(CAROL));
      const plain = await withHeaders(t, url, headers);
      const res = await withHeaders(t, url, { ...headers, 'accept-encoding': encoding });
      expect(res.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(JSON.parse(decompress(res.rawPayload).toString())).toEqual(plain.json());
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    },
  );
});
