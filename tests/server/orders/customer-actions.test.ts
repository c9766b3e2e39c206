/**
 * The customer's order actions: `tx-hash` of a sell, 'I have paid'
 * (`payment-confirm`), `cancel` and `office-confirm`: the input each checks, who may call it, and
 * that a repeated action succeeds without a second change.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, type OrderActionResponse } from '../../../src/shared/api';
import type { NetworkId } from '../../../src/shared/networks';
import {
  createOrder,
  eventsOf,
  expectError,
  expiredInitData,
  forgedInitData,
  newCustomer,
  post,
  postRaw,
  statusOf,
  type TestUser,
} from '../../helpers/api';
import { authHeader } from '../../helpers/identity';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { chainAlertsOf } from '../../helpers/outbox-facts';

const OPERATOR = { id: 200_000_901, first_name: 'Pavel' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ operatorIds: [OPERATOR.id] });
});
afterAll(async () => {
  await t.close();
});

const tronHash = () => randomBytes(32).toString('hex');
const evmHash = () => `0x${randomBytes(32).toString('hex')}`;

const sellOrder = (user: TestUser, network: NetworkId = 'TRC20') =>
  createOrder(t, user, { type: 'SELL', total: 10_000, network });

const sendHash = (user: TestUser, id: string, body: Record<string, unknown>) =>
  post(t, API_PATHS.txHash(id), body, user);

/** A P2P buy an operator gave card requisites: REQUISITES_READY. */
async function readyBuy(user: TestUser): Promise<string> {
  const id = await createOrder(t, user, { total: 10_000 });
  const res = await post(
    t,
    `/api/operator/orders/${id}/requisites`,
    { bankName: 'Т-Банк', cardNumber: '2200700123456781', cardHolder: 'Ivan Petrov' },
    OPERATOR,
  );
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

const orderRow = (id: string) =>
  t.database.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The operators' alerts of an order given a hash another order gives too. */
async function sameHashAlerts(id: string): Promise<unknown[]> {
  return (await chainAlertsOf(t.database.db, id)).map((facts) => ({
    chainFlag: facts.chainFlag,
    otherOrderIds: facts.otherOrderIds,
  }));
}

describe('POST /api/orders/{id}/tx-hash', () => {
  it('takes a TRC20 hash of 64 hex on a TRC20 sell: TX_PENDING, the hash on the order', async () => {
    const seller = newCustomer('Seller');
    const id = await sellOrder(seller);
    const hash = tronHash();
    const res = await sendHash(seller, id, { txHash: hash, network: 'TRC20' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<OrderActionResponse>()).toEqual({ success: true, status: 'TX_PENDING' });
    const order = await statusOf(t, seller, id);
    expect(order).toMatchObject({ status: 'TX_PENDING', txHash: hash });
    expect(await eventsOf(t, id)).toEqual([
      { from_status: null, to_status: 'WAITING_CRYPTO', actor: 'customer' },
      { from_status: 'WAITING_CRYPTO', to_status: 'TX_PENDING', actor: 'customer' },
    ]);
  });

  it('takes a hash without the optional network field, and trims spaces around it', async () => {
    const seller = newCustomer('Seller');
    const id = await sellOrder(seller);
    const hash = tronHash();
    const res = await sendHash(seller, id, { txHash: `  ${hash}\n` });
    expect(res.json()).toEqual({ success: true, status: 'TX_PENDING' });
    expect((await statusOf(t, seller, id)).txHash).toBe(hash);
  });

  it('takes a 0x hash of 64 hex on an EVM sell (BEP20)', async () => {
    const seller = newCustomer('Seller');
    const id = await sellOrder(seller, 'BEP20');
    const hash = evmHash();
    const res = await sendHash(seller, id, { txHash: hash, network: 'BEP20' });
    expect(res.json()).toEqual({ success: true, status: 'TX_PENDING' });
  });

  it('answers the same hash sent again with 200 and no second change', async () => {
    const seller = newCustomer('Seller');
    const id = await sellOrder(seller);
    const hash = tronHash();
    await sendHash(seller, id, { txHash: hash, network: 'TRC20' });
    const before = await orderRow(id);
    t.clock.advance(5_000);
    const again = await sendHash(seller, id, { txHash: hash, network: 'TRC20' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ success: true, status: 'TX_PENDING' });
    const upper = await sendHash(seller, id, { txHash: hash.toUpperCase() });
    expect(upper.json()).toEqual({ success: true, status: 'TX_PENDING' });
    expect(await orderRow(id)).toEqual(before);
    expect((await eventsOf(t, id)).filter((e) => e.to_status === 'TX_PENDING')).toHaveLength(1);
  });

  it('refuses a different hash once one was sent with 409 TX_HASH_ALREADY_SUBMITTED, keeping the first', async () => {
    const seller = newCustomer('Seller');
    const id = await sellOrder(seller);
    const first = tronHash();
    await sendHash(seller, id, { txHash: first });
    const res = await sendHash(seller, id, { txHash: tronHash() });
    expect(expectError(res, 'TX_HASH_ALREADY_SUBMITTED').status).toBe('TX_PENDING');
    expect((await statusOf(t, seller, id)).txHash).toBe(first);
  });

  it('answers two different hashes sent at the same moment with one 200 and one 409, keeping the one answered 200', async () => {
    for (let round = 0; round < 6; round++) {
      const seller = newCustomer('Seller');
      const id = await sellOrder(seller);
      const hashes = [tronHash(), tronHash()];
      const answers = await Promise.all(hashes.map((txHash) => sendHash(seller, id, { txHash })));
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes, `round ${round}`).toEqual([200, 409]);
      const kept = hashes[answers.findIndex((a) => a.statusCode === 200)];
      expect((await statusOf(t, seller, id)).txHash).toBe(kept);
    }
  });

  it('one hash sent at the same moment for two orders on a manual network: both taken (a hash reserves nothing; operators confirm by hand)', async () => {
    const seller = newCustomer('Seller');
    const ids = [await sellOrder(seller), await sellOrder(seller)];
    const hash = tronHash();
    const answers = await Promise.all(ids.map((id) => sendHash(seller, id, { txHash: hash })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
  });

  it.each([
    ['a 0x hash on a TRC20 order', 'TRC20', (): string => evmHash()],
    ['a hash of 63 hex on TRC20', 'TRC20', (): string => tronHash().slice(1)],
    ['a hash of 65 hex on TRC20', 'TRC20', (): string => `${tronHash()}a`],
    ['a hash with a non-hex character', 'TRC20', (): string => `${tronHash().slice(1)}g`],
    ['a bare 64-hex hash on BEP20', 'BEP20', (): string => tronHash()],
    ['a 0x hash one digit short on ERC20', 'ERC20', (): string => evmHash().slice(0, -1)],
    [
      'a wallet address instead of a hash',
      'TRC20',
      (): string => 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
    ],
  ] as const)('refuses %s with 400 INVALID_TX_HASH', async (_n, network, hash) => {
    const seller = newCustomer('Seller');
    const id = await sellOrder(seller, network);
    expectError(await sendHash(seller, id, { txHash: hash() }), 'INVALID_TX_HASH');
    expect((await statusOf(t, seller, id)).status).toBe('WAITING_CRYPTO');
  });

  it("refuses a network field different from the order's with 400 INVALID_TX_HASH", async () => {
    const seller = newCustomer('Seller');
    const id = await sellOrder(seller, 'BEP20');
    const res = await sendHash(seller, id, { txHash: evmHash(), network: 'ERC20' });
    expectError(res, 'INVALID_TX_HASH');
    expect((await statusOf(t, seller, id)).status).toBe('WAITING_CRYPTO');
  });

  it("the hash of another order on a manual network: taken, never 'used' (its owner may be the second), and both orders flagged for operators, each naming the other", async () => {
    const seller = newCustomer('Seller');
    const other = newCustomer('Other');
    const first = await sellOrder(seller);
    const second = await sellOrder(other);
    const hash = tronHash();
    expect((await sendHash(seller, first, { txHash: hash })).statusCode).toBe(200);
    expect((await sendHash(other, second, { txHash: hash })).statusCode).toBe(200);
    expect((await statusOf(t, other, second)).status).toBe('TX_PENDING');
    expect(await sameHashAlerts(first)).toEqual([
      { chainFlag: 'same_hash', otherOrderIds: [second] },
    ]);
    expect(await sameHashAlerts(second)).toEqual([
      { chainFlag: 'same_hash', otherOrderIds: [first] },
    ]);
  });

  it('the hash of another order written in the other case is the same hash: both flagged', async () => {
    const seller = newCustomer('Seller');
    const evmFirst = await sellOrder(seller, 'POLYGON');
    const evmSecond = await sellOrder(seller, 'POLYGON');
    const evm = evmHash();
    expect((await sendHash(seller, evmFirst, { txHash: evm })).statusCode).toBe(200);
    const mixed = `0x${evm.slice(2).toUpperCase()}`;
    expect((await sendHash(seller, evmSecond, { txHash: mixed })).statusCode).toBe(200);
    expect(await sameHashAlerts(evmSecond)).toHaveLength(1);
    expect(await sameHashAlerts(evmFirst)).toHaveLength(1);
  });

  it('refuses a hash on a BUY order with 409 INVALID_STATUS', async () => {
    const buyer = newCustomer('Buyer');
    const id = await createOrder(t, buyer, { total: 10_000 });
    const res = await sendHash(buyer, id, { txHash: tronHash() });
    expect(expectError(res, 'INVALID_STATUS').status).toBe('WAITING_REQUISITES');
  });

  it('refuses a hash on a cancelled sell with 409 INVALID_STATUS', async () => {
    const seller = newCustomer('Seller');
    const id = await sellOrder(seller);
    expect((await post(t, API_PATHS.cancel(id), {}, seller)).statusCode).toBe(200);
    const res = await sendHash(seller, id, { txHash: tronHash() });
    expect(expectError(res, 'INVALID_STATUS').status).toBe('CANCELLED');
  });

  it.each([
    ['no txHash', {}],
    ['an empty txHash', { txHash: '' }],
    ['a blank txHash', { txHash: '   ' }],
    ['txHash as a number', { txHash: 12345 }],
    ['txHash as null', { txHash: null }],
    ['a txHash of 1 000 characters', { txHash: 'a'.repeat(1_000) }],
    ['an unknown network', { txHash: 'a'.repeat(64), network: 'SOLANA' }],
  ])('refuses a body with %s with 400 VALIDATION_FAILED', async (_n, body) => {
    const seller = newCustomer('Seller');
    const id = await sellOrder(seller);
    expectError(await sendHash(seller, id, body), 'VALIDATION_FAILED');
  });

  it("answers another customer's sell with 404 ORDER_NOT_FOUND", async () => {
    const seller = newCustomer('Seller');
    const mallory = newCustomer('Mallory');
    const id = await sellOrder(seller);
    expectError(await sendHash(mallory, id, { txHash: tronHash() }), 'ORDER_NOT_FOUND');
    expect((await statusOf(t, seller, id)).status).toBe('WAITING_CRYPTO');
  });

  it('refuses a call without init data with 401 AUTH_MISSING', async () => {
    const seller = newCustomer('Seller');
    const id = await sellOrder(seller);
    expectError(await post(t, API_PATHS.txHash(id), { txHash: tronHash() }), 'AUTH_MISSING');
  });
});

describe("POST /api/orders/{id}/payment-confirm ('I have paid')", () => {
  it('moves REQUISITES_READY to PAYMENT_PENDING', async () => {
    const buyer = newCustomer('Buyer');
    const id = await readyBuy(buyer);
    const res = await post(t, API_PATHS.paymentConfirm(id), {}, buyer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, status: 'PAYMENT_PENDING' });
  });

  it('answers a second tap with 200 and writes one PAYMENT_PENDING event only', async () => {
    const buyer = newCustomer('Buyer');
    const id = await readyBuy(buyer);
    const first = await post(t, API_PATHS.paymentConfirm(id), {}, buyer);
    t.clock.advance(1_000);
    const second = await post(t, API_PATHS.paymentConfirm(id), {}, buyer);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json()).toEqual({ success: true, status: 'PAYMENT_PENDING' });
    const pending = (await eventsOf(t, id)).filter((e) => e.to_status === 'PAYMENT_PENDING');
    expect(pending).toEqual([
      { from_status: 'REQUISITES_READY', to_status: 'PAYMENT_PENDING', actor: 'customer' },
    ]);
    expect((await statusOf(t, buyer, id)).updatedAt).toBe(
      new Date(t.clock.current - 1_000).toISOString(),
    );
  });

  it('answers two taps sent at once with 200 each and one PAYMENT_PENDING event', async () => {
    const buyer = newCustomer('Buyer');
    const id = await readyBuy(buyer);
    const [a, b] = await Promise.all([
      post(t, API_PATHS.paymentConfirm(id), {}, buyer),
      post(t, API_PATHS.paymentConfirm(id), {}, buyer),
    ]);
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([200, 200]);
    const pending = (await eventsOf(t, id)).filter((e) => e.to_status === 'PAYMENT_PENDING');
    expect(pending).toHaveLength(1);
  });

  it('answers a tap on an order already RECEIPT_UPLOADED with 200 and its status, unchanged', async () => {
    const buyer = newCustomer('Buyer');
    const id = await readyBuy(buyer);
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      randomBytes(64),
    ]);
    const receipt = await post(
      t,
      API_PATHS.receipt(id),
      { fileName: 'r.png', fileData: `data:image/png;base64,${png.toString('base64')}` },
      buyer,
    );
    expect(receipt.statusCode).toBe(200);
    const res = await post(t, API_PATHS.paymentConfirm(id), {}, buyer);
    expect(res.json()).toEqual({ success: true, status: 'RECEIPT_UPLOADED' });
    expect((await eventsOf(t, id)).some((e) => e.to_status === 'PAYMENT_PENDING')).toBe(false);
  });

  it('refuses "I have paid" before requisites arrived with 409 INVALID_STATUS', async () => {
    const buyer = newCustomer('Buyer');
    const id = await createOrder(t, buyer, { total: 10_000 });
    const res = await post(t, API_PATHS.paymentConfirm(id), {}, buyer);
    expect(expectError(res, 'INVALID_STATUS').status).toBe('WAITING_REQUISITES');
  });

  it('takes the empty body the bank screen sends (no JSON body at all)', async () => {
    const buyer = newCustomer('Buyer');
    const id = await readyBuy(buyer);
    const res = await postRaw(t, API_PATHS.paymentConfirm(id), '', buyer);
    expect(res.json()).toEqual({ success: true, status: 'PAYMENT_PENDING' });
  });
});

describe('every customer action checks identity and ownership', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
  /** Each call with a body it would accept, so only the caller and the order are wrong. */
  const actions = [
    ['cancel', API_PATHS.cancel, {}],
    ['payment-confirm', API_PATHS.paymentConfirm, {}],
    [
      'receipt',
      API_PATHS.receipt,
      { fileName: 'r.png', fileData: `data:image/png;base64,${png.toString('base64')}` },
    ],
    ['tx-hash', API_PATHS.txHash, { txHash: 'ab'.repeat(32) }],
    ['office-confirm', API_PATHS.officeConfirm, {}],
  ] as const;

  it.each(actions)(
    "%s: another customer's order is 404 ORDER_NOT_FOUND, like a missing one, and unchanged",
    async (_n, path, body) => {
      const owner = newCustomer('Owner');
      const mallory = newCustomer('Mallory');
      const id = await readyBuy(owner);
      const foreign = await post(t, path(id), body, mallory);
      const missing = await post(t, path(randomUUID()), body, mallory);
      expectError(foreign, 'ORDER_NOT_FOUND');
      expect(foreign.json()).toEqual(missing.json());
      expect((await statusOf(t, owner, id)).status).toBe('REQUISITES_READY');
    },
  );

  it.each(actions)(
    '%s: an id that is not a UUID is 404 ORDER_NOT_FOUND',
    async (_n, path, body) => {
      expectError(await post(t, path('42'), body, newCustomer()), 'ORDER_NOT_FOUND');
    },
  );

  it.each(actions)(
    '%s: no init data is 401 AUTH_MISSING, forged is AUTH_INVALID, old is AUTH_EXPIRED',
    async (_n, path, body) => {
      const owner = newCustomer('Owner');
      const id = await readyBuy(owner);
      expectError(await post(t, path(id), body), 'AUTH_MISSING');
      const inject = (initData: string) =>
        t.app.inject({
          method: 'POST',
          url: path(id),
          headers: authHeader(initData),
          payload: body,
        });
      expectError(await inject(forgedInitData(owner)), 'AUTH_INVALID');
      expectError(await inject(expiredInitData(owner)), 'AUTH_EXPIRED');
      expect((await statusOf(t, owner, id)).status).toBe('REQUISITES_READY');
    },
  );

  it.each(actions)('%s: malformed JSON is 400 INVALID_JSON', async (_n, path) => {
    const owner = newCustomer('Owner');
    const id = await readyBuy(owner);
    expectError(await postRaw(t, path(id), '{"txHash":', owner), 'INVALID_JSON');
    expect((await statusOf(t, owner, id)).status).toBe('REQUISITES_READY');
  });

  it('cancel answers 200 with CANCELLED, and a second cancel the same without a second event', async () => {
    const owner = newCustomer('Owner');
    const id = await readyBuy(owner);
    const first = await post(t, API_PATHS.cancel(id), {}, owner);
    const second = await post(t, API_PATHS.cancel(id), {}, owner);
    expect(first.json()).toEqual({ success: true, status: 'CANCELLED' });
    expect(second.json()).toEqual({ success: true, status: 'CANCELLED' });
    expect((await eventsOf(t, id)).filter((e) => e.to_status === 'CANCELLED')).toHaveLength(1);
  });
});
