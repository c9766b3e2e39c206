/**
 * Race-safe transitions: two conflicting actions fired at one order at the
 * same moment change it once. Exactly one wins; the other gets 409 with the status it lost to, or
 * (a customer repeating what already happened) 200 without a change; one event row per change.
 * Each race runs ROUNDS times on a fresh order, since one lucky interleaving proves little.
 * Two creates at the active-order limit let through only what the limit allows.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOnce } from '../../../src/server/orders/sweeper';
import { API_PATHS, type ApiErrorBody, type OrderActionResponse } from '../../../src/shared/api';
import { P2P_PAYMENT_WINDOW_MS } from '../../../src/shared/limits';
import type { OrderStatus } from '../../../src/shared/order-status';
import { ALICE } from '../../helpers/identity';
import {
  CARD_REQUISITES,
  OPERATOR,
  OPERATOR_PATHS,
  ORDER_KINDS,
  createLifecycleApp,
  createPayload,
  eventsOf,
  orderRow,
  pngFile,
  rateFor,
  receiptBody,
  rowOf,
  send,
  txHashFor,
  type OrderKind,
  type TestUser,
} from '../../helpers/lifecycle';
import { insertOrder } from '../../helpers/orders';
import type { TestApp } from '../../helpers/test-app';

const ROUNDS = 10;
const CUSTOMER = ALICE;

let t: TestApp;
beforeAll(async () => {
  t = await createLifecycleApp({ maxActiveOrders: 100 });
});
afterAll(async () => {
  await t.close();
});

type Call = (id: string) => Promise<LightMyRequestResponse>;

const customerCall =
  (path: (id: string) => string, body: () => unknown = () => ({})): Call =>
  (id) =>
    send(t, 'POST', path(id), CUSTOMER, body());
const operatorCall =
  (path: (id: string) => string, body: () => unknown = () => ({})): Call =>
  (id) =>
    send(t, 'POST', path(id), OPERATOR, body());

const cancel = customerCall(API_PATHS.cancel);
const paymentConfirm = customerCall(API_PATHS.paymentConfirm);
const receipt = customerCall(API_PATHS.receipt, () =>
  receiptBody(pngFile(), 'image/png', 'check.png'),
);
const reject = operatorCall(OPERATOR_PATHS.reject, () => ({ reason: 'Заявка отозвана банком' }));
const complete = operatorCall(OPERATOR_PATHS.complete, () => ({
  outgoingTxHash: txHashFor('TRC20'),
}));
const confirmPayment = operatorCall(OPERATOR_PATHS.confirmPayment);
const requisites = operatorCall(OPERATOR_PATHS.requisites, () => CARD_REQUISITES);
const txHash = customerCall(API_PATHS.txHash, () => ({ txHash: txHashFor('TRC20') }));
const officeConfirm = customerCall(API_PATHS.officeConfirm);

interface Outcome {
  readonly code: number;
  readonly status: OrderStatus | undefined;
}

/**
 * Fires `a` and `b` together at a fresh order in `from`, ROUNDS times; checks that the order
 * changed exactly once (one event) and that every answer tells the truth about the final status.
 */
async function race(
  kind: OrderKind,
  from: OrderStatus,
  a: Call,
  b: Call,
): Promise<{ outcomes: Outcome[][]; finals: OrderStatus[] }> {
  const outcomes: Outcome[][] = [];
  const finals: OrderStatus[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const id = await insertOrder(t.database.db, CUSTOMER, {
      ...rowOf(kind),
      status: from,
      created_at: t.clock.now(),
    });
    const answers = await Promise.all([a(id), b(id)]);
    const final = (await orderRow(t.database.db, id)).status;
    const events = await eventsOf(t.database.db, id);
    expect(events, `round ${round}`).toHaveLength(1);
    expect(events[0]).toMatchObject({ from_status: from, to_status: final });
    const answered: Outcome[] = answers.map((res) => {
      if (res.statusCode === 200) {
        return { code: 200, status: res.json<OrderActionResponse>().status };
      }
      const error = res.json<ApiErrorBody>();
      expect(error.code).toBe('INVALID_STATUS');
      return { code: res.statusCode, status: error.status };
    });
    // Every answer names the status the order ended in: the winner's new status, or the one the
    // loser was refused for (or found already done).
    for (const outcome of answered) expect(outcome.status, `round ${round}`).toBe(final);
    outcomes.push(answered);
    finals.push(final);
  }
  return { outcomes, finals };
}

const codes = (outcomes: Outcome[][]) => outcomes.map((o) => o.map((x) => x.code).sort());

describe('two conflicting actions on one order: exactly one wins, one event', () => {
  it('customer cancel vs operator reject while waiting for requisites: one 200, one 409', async () => {
    const { outcomes, finals } = await race('p2pBuy', 'WAITING_REQUISITES', cancel, reject);
    expect(codes(outcomes)).toEqual(Array.from({ length: ROUNDS }, () => [200, 409]));
    for (const final of finals) expect(['CANCELLED', 'REJECTED']).toContain(final);
  });

  it("customer 'I have paid' vs customer cancel with requisites on screen: one 200, one 409", async () => {
    const { outcomes, finals } = await race('p2pBuy', 'REQUISITES_READY', paymentConfirm, cancel);
    expect(codes(outcomes)).toEqual(Array.from({ length: ROUNDS }, () => [200, 409]));
    for (const final of finals) expect(['PAYMENT_PENDING', 'CANCELLED']).toContain(final);
  });

  it('operator complete twice: one 200, one 409 COMPLETED', async () => {
    const { outcomes, finals } = await race('p2pBuy', 'PAYMENT_CONFIRMED', complete, complete);
    expect(codes(outcomes)).toEqual(Array.from({ length: ROUNDS }, () => [200, 409]));
    expect(new Set(finals)).toEqual(new Set(['COMPLETED']));
  });

  it('customer tx hash vs customer cancel on a sell waiting for crypto: one 200, one 409', async () => {
    const { outcomes, finals } = await race('sell', 'WAITING_CRYPTO', txHash, cancel);
    expect(codes(outcomes)).toEqual(Array.from({ length: ROUNDS }, () => [200, 409]));
    for (const final of finals) expect(['TX_PENDING', 'CANCELLED']).toContain(final);
  });

  it("customer 'I received' vs operator reject at the office: one 200, one 409", async () => {
    const { outcomes, finals } = await race('officeBuy', 'OFFICE_READY', officeConfirm, reject);
    expect(codes(outcomes)).toEqual(Array.from({ length: ROUNDS }, () => [200, 409]));
    for (const final of finals) expect(['COMPLETED', 'REJECTED']).toContain(final);
  });

  it('operator confirms payment twice: one 200, one 409 PAYMENT_CONFIRMED', async () => {
    const { outcomes } = await race('p2pBuy', 'RECEIPT_UPLOADED', confirmPayment, confirmPayment);
    expect(codes(outcomes)).toEqual(Array.from({ length: ROUNDS }, () => [200, 409]));
  });

  it('operator gives requisites twice: one 200, one 409 REQUISITES_READY', async () => {
    const { outcomes } = await race('p2pBuy', 'WAITING_REQUISITES', requisites, requisites);
    expect(codes(outcomes)).toEqual(Array.from({ length: ROUNDS }, () => [200, 409]));
  });

  it("a double tap on 'I have paid' succeeds twice and changes the order once", async () => {
    const { outcomes, finals } = await race(
      'p2pBuy',
      'REQUISITES_READY',
      paymentConfirm,
      paymentConfirm,
    );
    expect(codes(outcomes)).toEqual(Array.from({ length: ROUNDS }, () => [200, 200]));
    expect(new Set(finals)).toEqual(new Set(['PAYMENT_PENDING']));
  });

  it('a double tap on cancel succeeds twice and cancels once', async () => {
    const { outcomes } = await race('p2pBuy', 'REQUISITES_READY', cancel, cancel);
    expect(codes(outcomes)).toEqual(Array.from({ length: ROUNDS }, () => [200, 200]));
  });

  it("'I have paid' racing the receipt upload: both 200, the order ends at RECEIPT_UPLOADED or stops at PAYMENT_PENDING once", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await insertOrder(t.database.db, CUSTOMER, {
        ...rowOf('p2pBuy'),
        status: 'REQUISITES_READY',
        created_at: t.clock.now(),
      });
      const [paid, uploaded] = await Promise.all([paymentConfirm(id), receipt(id)]);
      // Whichever runs first, neither is refused: a receipt is taken from REQUISITES_READY and
      // PAYMENT_PENDING, and 'I have paid' is already done once a receipt is in.
      expect([paid.statusCode, uploaded.statusCode], `round ${round}`).toEqual([200, 200]);
      expect((await orderRow(t.database.db, id)).status).toBe('RECEIPT_UPLOADED');
      const path = (await eventsOf(t.database.db, id)).map((e) => e.to_status);
      expect([['RECEIPT_UPLOADED'], ['PAYMENT_PENDING', 'RECEIPT_UPLOADED']]).toContainEqual(path);
    }
  });
  it('two receipt pages sent at once: both 200, both kept, one change', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await insertOrder(t.database.db, CUSTOMER, {
        ...rowOf('p2pBuy'),
        status: 'PAYMENT_PENDING',
        created_at: t.clock.now(),
      });
      const answers = await Promise.all([receipt(id), receipt(id)]);
      expect(
        answers.map((r) => r.statusCode),
        `round ${round}`,
      ).toEqual([200, 200]);
      const stored = await t.database.db
        .selectFrom('receipts')
        .select('sha256')
        .where('order_id', '=', id)
        .execute();
      expect(stored, `round ${round}`).toHaveLength(2);
      expect(await eventsOf(t.database.db, id)).toHaveLength(1);
    }
  });
});

describe('the sweeper races too', () => {
  it('two sweepers (two server instances) expire an order once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const now = t.clock.now();
      const ids = await Promise.all(
        [0, 1, 2].map(() =>
          insertOrder(t.database.db, CUSTOMER, {
            ...rowOf('p2pBuy'),
            status: 'REQUISITES_READY',
            created_at: now,
            expires_at: now - 1,
          }),
        ),
      );
      const [one, two] = await Promise.all([
        sweepOnce(t.database, now),
        sweepOnce(t.database, now),
      ]);
      for (const id of ids) {
        expect(
          [...one.expired, ...two.expired].filter((e) => e === id),
          `round ${round}`,
        ).toEqual([id]);
        expect(await eventsOf(t.database.db, id)).toHaveLength(1);
        expect((await orderRow(t.database.db, id)).status).toBe('CANCELLED');
      }
    }
  });

  it("the sweeper and a last-second 'I have paid' change the order once", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await insertOrder(t.database.db, CUSTOMER, {
        ...rowOf('p2pBuy'),
        status: 'REQUISITES_READY',
        created_at: t.clock.now() - P2P_PAYMENT_WINDOW_MS,
        expires_at: t.clock.now(),
      });
      const [swept, paid] = await Promise.all([
        sweepOnce(t.database, t.clock.now()),
        paymentConfirm(id),
      ]);
      const final = (await orderRow(t.database.db, id)).status;
      const events = await eventsOf(t.database.db, id);
      expect(events, `round ${round}`).toHaveLength(1);
      if (final === 'CANCELLED') {
        expect(swept.expired).toContain(id);
        expect(paid.statusCode).toBe(409);
        expect(paid.json<ApiErrorBody>().status).toBe('CANCELLED');
      } else {
        expect(final).toBe('PAYMENT_PENDING');
        expect(swept.expired).not.toContain(id);
        expect(paid.statusCode).toBe(200);
      }
    }
  });
});

describe('two creates by one customer at the active-order limit', () => {
  let limited: TestApp;
  const LIMIT = 3;
  beforeAll(async () => {
    limited = await createLifecycleApp({ maxActiveOrders: LIMIT });
  });
  afterAll(async () => {
    await limited.close();
  });

  let nextId = 710_000_000;
  const freshCustomer = (): TestUser => ({ id: ++nextId, first_name: 'Пётр' });

  const creates = async (customer: TestUser, count: number) => {
    const payload = createPayload('p2pBuy', await rateFor(limited, customer, ORDER_KINDS.p2pBuy));
    return Promise.all(
      Array.from({ length: count }, () =>
        send(limited, 'POST', API_PATHS.createOrder, customer, payload),
      ),
    );
  };
  const activeCount = async (customer: TestUser) =>
    (
      await limited.database.db
        .selectFrom('orders')
        .select('id')
        .where('user_id', '=', customer.id)
        .where('status', 'not in', ['COMPLETED', 'CANCELLED', 'REJECTED'])
        .execute()
    ).length;

  it('one slot left and two creates at once: exactly one is created, the other 409', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const customer = freshCustomer();
      for (let i = 0; i < LIMIT - 1; i++) {
        await insertOrder(limited.database.db, customer, {
          ...rowOf('p2pBuy'),
          status: 'WAITING_REQUISITES',
        });
      }
      const answers = await creates(customer, 2);
      expect(answers.map((r) => r.statusCode).sort(), `round ${round}`).toEqual([201, 409]);
      const refused = answers.find((r) => r.statusCode === 409);
      expect(refused?.json<ApiErrorBody>().code).toBe('TOO_MANY_ACTIVE_ORDERS');
      expect(await activeCount(customer)).toBe(LIMIT);
    }
  });

  it('no orders yet and six creates at once: exactly the limit are created', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const customer = freshCustomer();
      const answers = await creates(customer, 6);
      const codesOf = answers.map((r) => r.statusCode).sort();
      expect(codesOf, `round ${round}`).toEqual([201, 201, 201, 409, 409, 409]);
      expect(await activeCount(customer)).toBe(LIMIT);
    }
  });

  it('a finished order frees its slot', async () => {
    const customer = freshCustomer();
    for (let i = 0; i < LIMIT; i++) {
      await insertOrder(limited.database.db, customer, {
        ...rowOf('p2pBuy'),
        status: i === 0 ? 'COMPLETED' : 'WAITING_REQUISITES',
      });
    }
    expect((await creates(customer, 1)).map((r) => r.statusCode)).toEqual([201]);
    expect((await creates(customer, 1)).map((r) => r.statusCode)).toEqual([409]);
  });
});
