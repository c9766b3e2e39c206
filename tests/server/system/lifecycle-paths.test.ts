/**
 * Each path of an order's life (docs/architecture.md, "An order's life"), driven only through
 * HTTP as the mini-app and an operator drive it: the order is created with the server's own
 * rate, every step is a call, and the customer's status answer is checked after each one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BankRequisites } from '../../../src/shared/api';
import {
  API_PATHS,
  type ActiveOrdersResponse,
  type ApiErrorBody,
  type BankRequisitesResponse,
  type OrderDetails,
} from '../../../src/shared/api';
import {
  BANK_PAYMENT_WINDOW_MS,
  DEFAULT_REQUISITES_TIMEOUT_MS,
  OFFICE_RATE_FIXED_MS,
  P2P_PAYMENT_WINDOW_MS,
} from '../../../src/shared/limits';
import type { OrderStatus } from '../../../src/shared/order-status';
import { toUnits, unitsToDecimal } from '../../../src/shared/money';
import { ALICE } from '../../helpers/identity';
import {
  BANK_REQUISITES,
  CARD_REQUISITES,
  EVM_WALLET,
  OFFICE_INSTRUCTIONS,
  OPERATOR,
  OPERATOR_PATHS,
  ORDER_KINDS,
  STORED_BANK_REQUISITES,
  STORED_CARD_REQUISITES,
  TRON_WALLET,
  createLifecycleApp,
  createOrderViaHttp,
  createPayload,
  eventsOf,
  expectMoved,
  expectRefused,
  pdfFile,
  pngFile,
  rateFor,
  receiptBody,
  send,
  statusOf,
  txHashFor,
  type OrderKind,
} from '../../helpers/lifecycle';
import type { TestApp } from '../../helpers/test-app';
import { VERIFICATION_CODE_PATTERN } from '../../../src/shared/verification-code';

const CUSTOMER = ALICE;
const MINUTE = 60_000;

/** A default bank account as BANK_* variables configure it. */
const DEFAULT_BANK_ACCOUNT: BankRequisites = {
  recipientName: 'ООО «Северный обмен»',
  accountNumber: '40702810500000098765',
  bankName: 'АО «Альфа-Банк»',
  bik: '044525593',
  correspondentAccount: '30101810200000000593',
  inn: '7728168971',
  beneficiaryName: 'ООО «Северный обмен»',
  beneficiaryAccount: '40702810500000098765',
};

let t: TestApp;
let withBankAccount: TestApp;
beforeAll(async () => {
  t = await createLifecycleApp();
  withBankAccount = await createLifecycleApp({ bankAccount: DEFAULT_BANK_ACCOUNT });
});
afterAll(async () => {
  await t.close();
  await withBankAccount.close();
});

const iso = (ms: number) => new Date(ms).toISOString();

/** The status answer, checked for `expected` and for the server's own time. */
async function expectStatus(
  app: TestApp,
  id: string,
  expected: Partial<Record<keyof OrderDetails, unknown>>,
): Promise<OrderDetails> {
  const details = await statusOf(app, id, CUSTOMER);
  expect(details).toMatchObject({ id, ...expected, serverTime: iso(app.clock.now()) });
  return details;
}

/** The order's history as (from → to by whom) lines, oldest first. */
async function history(app: TestApp, id: string): Promise<string[]> {
  return (await eventsOf(app.database.db, id)).map(
    (e) =>
      `${e.from_status ?? '∅'} → ${e.to_status} by ${e.actor} ${e.actor_id ?? ''}`.trimEnd() +
      (e.reason === null ? '' : ` (${e.reason})`),
  );
}

const by = (status: OrderStatus, from: OrderStatus | null, who: 'c' | 'o') =>
  `${from ?? '∅'} → ${status} by ${who === 'c' ? `customer ${CUSTOMER.id}` : `operator ${OPERATOR.id}`}`;

async function created(app: TestApp, kind: OrderKind) {
  const rate = await rateFor(app, CUSTOMER, ORDER_KINDS[kind]);
  const payload = createPayload(kind, rate);
  const id = await createOrderViaHttp(app, CUSTOMER, kind);
  return { id, rate, payload };
}

async function payAndConfirm(app: TestApp, id: string, receipt: ReturnType<typeof receiptBody>) {
  app.clock.advance(4 * MINUTE);
  expectMoved(
    await send(app, 'POST', API_PATHS.paymentConfirm(id), CUSTOMER, {}),
    'PAYMENT_PENDING',
  );
  await expectStatus(app, id, { status: 'PAYMENT_PENDING' });

  app.clock.advance(MINUTE);
  const uploadedAt = app.clock.now();
  expectMoved(
    await send(app, 'POST', API_PATHS.receipt(id), CUSTOMER, receipt),
    'RECEIPT_UPLOADED',
  );
  await expectStatus(app, id, {
    status: 'RECEIPT_UPLOADED',
    receipts: [
      { id: expect.any(String) as string, fileName: receipt.fileName, uploadedAt: iso(uploadedAt) },
    ],
  });

  app.clock.advance(3 * MINUTE);
  expectMoved(
    await send(app, 'POST', OPERATOR_PATHS.confirmPayment(id), OPERATOR, {}),
    'PAYMENT_CONFIRMED',
  );
  await expectStatus(app, id, { status: 'PAYMENT_CONFIRMED' });
}

describe('P2P buy: WAITING_REQUISITES → REQUISITES_READY → PAYMENT_PENDING → RECEIPT_UPLOADED → PAYMENT_CONFIRMED → COMPLETED', () => {
  it('runs to COMPLETED with card requisites, a receipt and the outgoing hash', async () => {
    const createdAt = t.clock.now();
    const { id, rate, payload } = await created(t, 'p2pBuy');
    await expectStatus(t, id, {
      status: 'WAITING_REQUISITES',
      type: 'BUY',
      paymentMethod: 'P2P',
      cryptoCurrency: 'USDT',
      network: 'TRC20',
      currency: 'RUB',
      amount: payload.amount,
      rate,
      totalRub: 15_000,
      walletAddress: TRON_WALLET,
      requisites: null,
      expiresAt: iso(createdAt + DEFAULT_REQUISITES_TIMEOUT_MS),
      createdAt: iso(createdAt),
    });

    t.clock.advance(2 * MINUTE);
    const readyAt = t.clock.now();
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES),
      'REQUISITES_READY',
    );
    await expectStatus(t, id, {
      status: 'REQUISITES_READY',
      requisites: STORED_CARD_REQUISITES,
      requisitesReadyAt: iso(readyAt),
      expiresAt: iso(readyAt + P2P_PAYMENT_WINDOW_MS),
    });

    await payAndConfirm(t, id, receiptBody(pngFile(), 'image/png', 'sber-check.png'));

    const missing = await send(t, 'POST', OPERATOR_PATHS.complete(id), OPERATOR, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json<ApiErrorBody>().code).toBe('VALIDATION_FAILED');
    const evmHash = await send(t, 'POST', OPERATOR_PATHS.complete(id), OPERATOR, {
      outgoingTxHash: txHashFor('ERC20'),
    });
    expect(evmHash.statusCode).toBe(400);
    expect(evmHash.json<ApiErrorBody>().code).toBe('INVALID_TX_HASH');
    await expectStatus(t, id, { status: 'PAYMENT_CONFIRMED', outgoingTxHash: null });

    const outgoing = txHashFor('TRC20');
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.complete(id), OPERATOR, { outgoingTxHash: outgoing }),
      'COMPLETED',
    );
    await expectStatus(t, id, { status: 'COMPLETED', outgoingTxHash: outgoing });

    expect(await history(t, id)).toEqual([
      by('WAITING_REQUISITES', null, 'c'),
      by('REQUISITES_READY', 'WAITING_REQUISITES', 'o'),
      by('PAYMENT_PENDING', 'REQUISITES_READY', 'c'),
      by('RECEIPT_UPLOADED', 'PAYMENT_PENDING', 'c'),
      by('PAYMENT_CONFIRMED', 'RECEIPT_UPLOADED', 'o'),
      by('COMPLETED', 'PAYMENT_CONFIRMED', 'o'),
    ]);
    const active = await send(t, 'GET', API_PATHS.activeOrders, CUSTOMER);
    expect(active.json<ActiveOrdersResponse>().orders.map((o) => o.id)).not.toContain(id);
  });
});

describe('bank-account buy: as P2P buy with bank requisites', () => {
  it('runs to COMPLETED once an operator gives bank requisites (2 h to pay)', async () => {
    const { id } = await created(t, 'bankBuy');
    await expectStatus(t, id, {
      status: 'WAITING_REQUISITES',
      paymentMethod: 'BANK_ACCOUNT',
      cryptoCurrency: 'USDC',
      network: 'BEP20',
      totalRub: 650_000,
      walletAddress: EVM_WALLET,
      requisites: null,
    });
    const before = await send(t, 'GET', API_PATHS.orderRequisites(id), CUSTOMER);
    expect(before.json<BankRequisitesResponse>()).toEqual({
      requisitesNotConfigured: true,
      requisites: null,
    });

    t.clock.advance(7 * MINUTE);
    const readyAt = t.clock.now();
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, BANK_REQUISITES),
      'REQUISITES_READY',
    );
    await expectStatus(t, id, {
      status: 'REQUISITES_READY',
      requisites: STORED_BANK_REQUISITES,
      requisitesReadyAt: iso(readyAt),
      expiresAt: iso(readyAt + BANK_PAYMENT_WINDOW_MS),
    });
    const after = await send(t, 'GET', API_PATHS.orderRequisites(id), CUSTOMER);
    expect(after.json<BankRequisitesResponse>()).toEqual({
      requisitesNotConfigured: false,
      requisites: STORED_BANK_REQUISITES,
    });

    await payAndConfirm(
      t,
      id,
      receiptBody(pdfFile(), 'application/pdf', 'платёжное поручение.pdf'),
    );

    const tronHash = await send(t, 'POST', OPERATOR_PATHS.complete(id), OPERATOR, {
      outgoingTxHash: txHashFor('TRC20'),
    });
    expect(tronHash.statusCode).toBe(400);
    expect(tronHash.json<ApiErrorBody>().code).toBe('INVALID_TX_HASH');
    const outgoing = txHashFor('BEP20');
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.complete(id), OPERATOR, { outgoingTxHash: outgoing }),
      'COMPLETED',
    );
    await expectStatus(t, id, { status: 'COMPLETED', outgoingTxHash: outgoing });
    expect(await history(t, id)).toEqual([
      by('WAITING_REQUISITES', null, 'c'),
      by('REQUISITES_READY', 'WAITING_REQUISITES', 'o'),
      by('PAYMENT_PENDING', 'REQUISITES_READY', 'c'),
      by('RECEIPT_UPLOADED', 'PAYMENT_PENDING', 'c'),
      by('PAYMENT_CONFIRMED', 'RECEIPT_UPLOADED', 'o'),
      by('COMPLETED', 'PAYMENT_CONFIRMED', 'o'),
    ]);
  });

  it('starts at REQUISITES_READY with the configured default bank account', async () => {
    const app = withBankAccount;
    const createdAt = app.clock.now();
    const { id } = await created(app, 'bankBuy');
    await expectStatus(app, id, {
      status: 'REQUISITES_READY',
      requisites: DEFAULT_BANK_ACCOUNT,
      requisitesReadyAt: iso(createdAt),
      expiresAt: iso(createdAt + BANK_PAYMENT_WINDOW_MS),
    });
    const requisites = await send(app, 'GET', API_PATHS.orderRequisites(id), CUSTOMER);
    expect(requisites.json<BankRequisitesResponse>()).toEqual({
      requisitesNotConfigured: false,
      requisites: DEFAULT_BANK_ACCOUNT,
    });
    // No operator is needed to give requisites: there is nothing to give any more.
    expectRefused(
      await send(app, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, BANK_REQUISITES),
      'REQUISITES_READY',
    );

    await payAndConfirm(app, id, receiptBody(pngFile(), 'image/png', 'screenshot.png'));
    const outgoing = txHashFor('BEP20');
    expectMoved(
      await send(app, 'POST', OPERATOR_PATHS.complete(id), OPERATOR, { outgoingTxHash: outgoing }),
      'COMPLETED',
    );
    await expectStatus(app, id, { status: 'COMPLETED', outgoingTxHash: outgoing });
    expect(await history(app, id)).toEqual([
      by('REQUISITES_READY', null, 'c'),
      by('PAYMENT_PENDING', 'REQUISITES_READY', 'c'),
      by('RECEIPT_UPLOADED', 'PAYMENT_PENDING', 'c'),
      by('PAYMENT_CONFIRMED', 'RECEIPT_UPLOADED', 'o'),
      by('COMPLETED', 'PAYMENT_CONFIRMED', 'o'),
    ]);
  });

  it('a P2P buy still waits for card requisites when a default bank account is configured', async () => {
    const { id } = await created(withBankAccount, 'p2pBuy');
    await expectStatus(withBankAccount, id, { status: 'WAITING_REQUISITES', requisites: null });
  });
});

describe('office buy: OFFICE_PENDING → OFFICE_READY (reservation, rate fixed 3 h) → COMPLETED', () => {
  it("the customer's 'I received' completes it", async () => {
    const { id, rate, payload } = await created(t, 'officeBuy');
    await expectStatus(t, id, {
      status: 'OFFICE_PENDING',
      paymentMethod: 'OFFICE',
      currency: 'USD',
      totalRub: 12_000,
      amount: payload.amount,
      rate,
      cityId: 'moscow',
      reservation: null,
      reservedUntil: null,
      officeInstructions: null,
    });

    t.clock.advance(6 * MINUTE);
    const readyAt = t.clock.now();
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.officeInstructions(id), OPERATOR, {
        instructions: OFFICE_INSTRUCTIONS,
      }),
      'OFFICE_READY',
    );
    const ready = await expectStatus(t, id, {
      status: 'OFFICE_READY',
      officeInstructions: OFFICE_INSTRUCTIONS,
      reservedUntil: iso(readyAt + OFFICE_RATE_FIXED_MS),
      requisites: { walletAddress: TRON_WALLET },
      reservation: {
        orderId: id,
        reservationCode: expect.stringMatching(VERIFICATION_CODE_PATTERN) as string,
        reservedUntil: iso(readyAt + OFFICE_RATE_FIXED_MS),
        office: {
          id: 'moscow-city-tower',
          addressRu: 'Пресненская наб., 12, башня «Федерация», офис 4310',
          addressEn: '12 Presnenskaya Embankment, Federation Tower, office 4310',
          workingHoursRu: expect.any(String) as string,
          workingHoursEn: expect.any(String) as string,
          phone: '+7 495 662-41-80',
          mapLink: expect.stringMatching(/^https:\/\//) as string,
        },
        city: { nameRu: 'Москва', nameEn: 'Moscow' },
      },
    });
    expect(ready.reservation?.reservationCode).toHaveLength(6);

    t.clock.advance(90 * MINUTE);
    expectMoved(await send(t, 'POST', API_PATHS.officeConfirm(id), CUSTOMER, {}), 'COMPLETED');
    await expectStatus(t, id, { status: 'COMPLETED' });
    expect(await history(t, id)).toEqual([
      by('OFFICE_PENDING', null, 'c'),
      by('OFFICE_READY', 'OFFICE_PENDING', 'o'),
      `${by('COMPLETED', 'OFFICE_READY', 'c')} (customer received the crypto)`,
    ]);
  });

  it('an operator may complete it instead, at the office the instructions named', async () => {
    const { id } = await created(t, 'officeBuy');
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.officeInstructions(id), OPERATOR, {
        instructions: OFFICE_INSTRUCTIONS,
        officeId: 'moscow-tverskaya',
      }),
      'OFFICE_READY',
    );
    const ready = await expectStatus(t, id, { status: 'OFFICE_READY' });
    expect(ready.reservation?.office.id).toBe('moscow-tverskaya');
    expect(ready.reservation?.office.addressEn).toBe('22 Tverskaya Street, office 305');

    expectMoved(await send(t, 'POST', OPERATOR_PATHS.complete(id), OPERATOR, {}), 'COMPLETED');
    await expectStatus(t, id, { status: 'COMPLETED', outgoingTxHash: null });
  });

  it('office instructions naming an office of another city answer 400 UNKNOWN_CITY', async () => {
    const { id } = await created(t, 'officeBuy');
    const res = await send(t, 'POST', OPERATOR_PATHS.officeInstructions(id), OPERATOR, {
      instructions: OFFICE_INSTRUCTIONS,
      officeId: 'saint-petersburg-nevsky',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ApiErrorBody>().code).toBe('UNKNOWN_CITY');
    await expectStatus(t, id, { status: 'OFFICE_PENDING', reservation: null });
  });
});

describe('P2P sell: WAITING_CRYPTO → TX_PENDING → TX_CONFIRMED → COMPLETED', () => {
  it('runs to COMPLETED: deposit address, tx hash, operator confirms it and pays the card', async () => {
    const createdAt = t.clock.now();
    const { id, rate, payload } = await created(t, 'sell');
    // The exact amount to send: the amount asked plus its tag, paid out at the rate.
    const { amount } = await statusOf(t, id, CUSTOMER);
    expect(amount).toBeGreaterThan(payload.amount);
    expect(amount).toBeLessThan(payload.amount + 1);
    await expectStatus(t, id, {
      status: 'WAITING_CRYPTO',
      type: 'SELL',
      amount,
      rate,
      totalRub: Math.round(amount * rate),
      walletAddress: null,
      requisites: { walletAddress: t.config.depositAddresses.trc20 },
      requisitesReadyAt: iso(createdAt),
      expiresAt: iso(createdAt + P2P_PAYMENT_WINDOW_MS),
      txHash: null,
    });

    t.clock.advance(8 * MINUTE);
    const txHash = txHashFor('TRC20');
    expectMoved(
      await send(t, 'POST', API_PATHS.txHash(id), CUSTOMER, { txHash, network: 'TRC20' }),
      'TX_PENDING',
    );
    await expectStatus(t, id, { status: 'TX_PENDING', txHash });

    t.clock.advance(2 * MINUTE);
    expectMoved(await send(t, 'POST', OPERATOR_PATHS.confirmTx(id), OPERATOR, {}), 'TX_CONFIRMED');
    await expectStatus(t, id, { status: 'TX_CONFIRMED' });

    t.clock.advance(5 * MINUTE);
    expectMoved(await send(t, 'POST', OPERATOR_PATHS.complete(id), OPERATOR, {}), 'COMPLETED');
    await expectStatus(t, id, { status: 'COMPLETED', txHash });
    expect(await history(t, id)).toEqual([
      // The audit trail keeps the amount asked beside the exact amount given.
      `${by('WAITING_CRYPTO', null, 'c')} (exact amount ${unitsToDecimal(toUnits(amount) ?? 0)} for ${unitsToDecimal(toUnits(payload.amount) ?? 0)} asked)`,
      by('TX_PENDING', 'WAITING_CRYPTO', 'c'),
      by('TX_CONFIRMED', 'TX_PENDING', 'o'),
      by('COMPLETED', 'TX_CONFIRMED', 'o'),
    ]);
  });
});

describe('cancellation by the customer (only before money moved)', () => {
  it('cancels while waiting for requisites; a repeat is a no-op, paying after it is refused', async () => {
    const { id } = await created(t, 'p2pBuy');
    t.clock.advance(MINUTE);
    expectMoved(await send(t, 'POST', API_PATHS.cancel(id), CUSTOMER, {}), 'CANCELLED');
    await expectStatus(t, id, { status: 'CANCELLED' });

    expectMoved(await send(t, 'POST', API_PATHS.cancel(id), CUSTOMER, {}), 'CANCELLED');
    expectRefused(await send(t, 'POST', API_PATHS.paymentConfirm(id), CUSTOMER, {}), 'CANCELLED');
    expectRefused(
      await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES),
      'CANCELLED',
    );
    expect(await history(t, id)).toEqual([
      by('WAITING_REQUISITES', null, 'c'),
      `${by('CANCELLED', 'WAITING_REQUISITES', 'c')} (customer)`,
    ]);
    await expectStatus(t, id, { cancelReason: 'customer' });
  });

  it('cancels with requisites on screen (the payment timer ran out on the phone)', async () => {
    const { id } = await created(t, 'p2pBuy');
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES),
      'REQUISITES_READY',
    );
    expectMoved(await send(t, 'POST', API_PATHS.cancel(id), CUSTOMER, {}), 'CANCELLED');
    // Before the deadline on the server's clock, it is the customer's cancel.
    await expectStatus(t, id, {
      status: 'CANCELLED',
      requisites: STORED_CARD_REQUISITES,
      cancelReason: 'customer',
    });
  });

  it("a cancel from the app's timer after the deadline is 'expired': the server judges by its clock", async () => {
    const { id } = await created(t, 'p2pBuy');
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES),
      'REQUISITES_READY',
    );
    t.clock.advance(P2P_PAYMENT_WINDOW_MS);
    expectMoved(await send(t, 'POST', API_PATHS.cancel(id), CUSTOMER, {}), 'CANCELLED');
    await expectStatus(t, id, { status: 'CANCELLED', cancelReason: 'expired' });
  });

  it('cannot cancel once the customer said they paid', async () => {
    const { id } = await created(t, 'p2pBuy');
    await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES);
    expectMoved(
      await send(t, 'POST', API_PATHS.paymentConfirm(id), CUSTOMER, {}),
      'PAYMENT_PENDING',
    );
    expectRefused(await send(t, 'POST', API_PATHS.cancel(id), CUSTOMER, {}), 'PAYMENT_PENDING');
    await expectStatus(t, id, { status: 'PAYMENT_PENDING' });
  });
});

describe('rejection by an operator, with a reason', () => {
  it('rejects a paid order; the status answer shows the reason', async () => {
    const { id } = await created(t, 'p2pBuy');
    await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES);
    expectMoved(
      await send(t, 'POST', API_PATHS.paymentConfirm(id), CUSTOMER, {}),
      'PAYMENT_PENDING',
    );
    expectMoved(
      await send(
        t,
        'POST',
        API_PATHS.receipt(id),
        CUSTOMER,
        receiptBody(pngFile(), 'image/png', 'check.png'),
      ),
      'RECEIPT_UPLOADED',
    );
    await expectStatus(t, id, { status: 'RECEIPT_UPLOADED', rejectReason: null });

    const reason = 'Чек не соответствует сумме заказа';
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.reject(id), OPERATOR, { reason: `  ${reason} ` }),
      'REJECTED',
    );
    await expectStatus(t, id, { status: 'REJECTED', rejectReason: reason });
    expect((await history(t, id)).at(-1)).toBe(
      `${by('REJECTED', 'RECEIPT_UPLOADED', 'o')} (${reason})`,
    );
    expectRefused(
      await send(t, 'POST', OPERATOR_PATHS.confirmPayment(id), OPERATOR, {}),
      'REJECTED',
    );
  });

  it('rejects a sell waiting for crypto', async () => {
    const { id } = await created(t, 'sell');
    expectMoved(
      await send(t, 'POST', OPERATOR_PATHS.reject(id), OPERATOR, {
        reason: 'Карта получателя заблокирована банком',
      }),
      'REJECTED',
    );
    await expectStatus(t, id, {
      status: 'REJECTED',
      rejectReason: 'Карта получателя заблокирована банком',
    });
  });
});
