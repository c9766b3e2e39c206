/**
 * `POST /api/orders/create`, the server being the authority over its own data: what each method
 * starts as, and every check the server repeats whatever the app sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, type BankRequisites } from '../../../src/shared/api';
import {
  DEFAULT_REQUISITES_TIMEOUT_MS,
  OFFICE_LIMITS,
  P2P_RUB_MAX,
  P2P_RUB_MIN,
} from '../../../src/shared/limits';
import {
  createOrder,
  createRaw,
  cryptoFor,
  EVM_WALLET,
  eventsOf,
  expectError,
  expiredInitData,
  forgedInitData,
  newCustomer,
  orderPayload,
  post,
  rateOf,
  statusOf,
  TRON_WALLET,
  type TestUser,
} from '../../helpers/api';
import { authHeader, initDataFor } from '../../helpers/identity';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/** Deposit addresses unlike the demo defaults, so the test sees the configured ones are used. */
const DEPOSIT = {
  trc20: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  evm: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
};

const BANK_ACCOUNT: BankRequisites = {
  recipientName: 'ООО «Обменный пункт»',
  accountNumber: '40702810900000012345',
  bankName: 'АО «Тинькофф Банк»',
  bik: '044525974',
  correspondentAccount: '30101810145250000974',
  inn: '7710140679',
  beneficiaryName: 'ООО «Обменный пункт»',
  beneficiaryAccount: '40702810900000012345',
};

let t: TestApp;
let withBank: TestApp;
let limited: TestApp;
beforeAll(async () => {
  t = await createTestApp({ depositAddresses: DEPOSIT });
  withBank = await createTestApp({ bankAccount: BANK_ACCOUNT });
  limited = await createTestApp({ maxActiveOrders: 2 });
});
afterAll(async () => {
  await t.close();
  await withBank.close();
  await limited.close();
});

/** Every refusal in this file is made by this customer; none of them may leave an order. */
const REFUSED = newCustomer('Refused');

async function ordersOf(app: TestApp, user: TestUser) {
  return app.database.db.selectFrom('orders').selectAll().where('user_id', '=', user.id).execute();
}

async function refusal(
  args: Parameters<typeof orderPayload>[2],
  extra: Record<string, unknown> = {},
  app: TestApp = t,
) {
  return createRaw(app, REFUSED, await orderPayload(app, REFUSED, args, extra));
}

describe('POST /api/orders/create: what each method starts as', () => {
  it('a P2P buy starts WAITING_REQUISITES with the server rate, a whole RUB total and the wallet', async () => {
    const alice = newCustomer('Alice');
    const rate = await rateOf(t, alice);
    const id = await createOrder(t, alice, { total: 10_000, network: 'TRC20' });
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const order = await statusOf(t, alice, id);
    expect(order).toMatchObject({
      id,
      type: 'BUY',
      status: 'WAITING_REQUISITES',
      paymentMethod: 'P2P',
      currency: 'RUB',
      cryptoCurrency: 'USDT',
      network: 'TRC20',
      rate,
      amount: cryptoFor(10_000, rate),
      totalRub: 10_000,
      walletAddress: TRON_WALLET,
      requisites: null,
      // Nobody answers for an hour (REQUISITES_TIMEOUT): the order is then cancelled.
      expiresAt: new Date(t.clock.now() + DEFAULT_REQUISITES_TIMEOUT_MS).toISOString(),
      requisitesReadyAt: null,
      cityId: null,
      cancelReason: null,
    });
    expect(await eventsOf(t, id)).toEqual([
      { from_status: null, to_status: 'WAITING_REQUISITES', actor: 'customer' },
    ]);
  });

  it('a P2P buy of USDC on an EVM network keeps the checksummed wallet as sent', async () => {
    const alice = newCustomer('Alice');
    const id = await createOrder(t, alice, {
      total: 25_000,
      cryptoCurrency: 'USDC',
      network: 'BASE',
    });
    const order = await statusOf(t, alice, id);
    expect(order).toMatchObject({ cryptoCurrency: 'USDC', network: 'BASE' });
    expect(order.walletAddress).toBe(EVM_WALLET);
  });

  it('the answer is 201 {success: true, orderId}', async () => {
    const alice = newCustomer('Alice');
    const res = await createRaw(t, alice, await orderPayload(t, alice, { total: 5_000 }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, orderId: expect.any(String) as string });
  });

  it('a P2P sell on TRC20 starts WAITING_CRYPTO with the configured Tron deposit address', async () => {
    const seller = newCustomer('Seller');
    const id = await createOrder(t, seller, { type: 'SELL', total: 20_000, network: 'TRC20' });
    const order = await statusOf(t, seller, id);
    expect(order).toMatchObject({
      type: 'SELL',
      status: 'WAITING_CRYPTO',
      requisites: { walletAddress: DEPOSIT.trc20 },
      walletAddress: null,
      requisitesReadyAt: new Date(t.clock.current).toISOString(),
    });
    expect(order.expiresAt).not.toBeNull();
    expect(Date.parse(order.expiresAt ?? '')).toBeGreaterThan(t.clock.current);
  });

  it.each(['BEP20', 'ERC20', 'POLYGON', 'ARBITRUM', 'OPTIMISM'] as const)(
    'a P2P sell of USDT on %s gets the configured EVM deposit address',
    async (network) => {
      const seller = newCustomer('Seller');
      const id = await createOrder(t, seller, { type: 'SELL', total: 20_000, network });
      const order = await statusOf(t, seller, id);
      expect(order.requisites).toEqual({ walletAddress: DEPOSIT.evm });
    },
  );

  it('a P2P sell without an amount sells the default 100 coins at the server rate, given its exact amount (100.xxxx) and paid out on it', async () => {
    const seller = newCustomer('Seller');
    const payload = await orderPayload(t, seller, { type: 'SELL', total: 0 });
    const rate = payload['rate'] as number;
    delete payload['amount'];
    payload['totalRub'] = Math.round(100 * rate);
    const res = await createRaw(t, seller, payload);
    expect(res.statusCode, res.body).toBe(201);
    const order = await statusOf(t, seller, res.json<{ orderId: string }>().orderId);
    expect(order.amount).toBeGreaterThan(100);
    expect(order.amount).toBeLessThan(101);
    expect(order.totalRub).toBe(Math.round(order.amount * rate));
  });

  it('a P2P sell keeps the payout card as digits and the holder in upper case', async () => {
    const seller = newCustomer('Seller');
    const id = await createOrder(
      t,
      seller,
      { type: 'SELL', total: 15_000 },
      { cardNumber: '2200 7001 2345 6781', cardHolder: 'ivan petrov', phone: '+7 900 123-45-67' },
    );
    const [row] = await ordersOf(t, seller);
    expect(row?.id).toBe(id);
    expect(JSON.parse(row?.payout_card ?? 'null')).toEqual({
      cardNumber: '2200700123456781',
      cardHolder: 'IVAN PETROV',
      bankName: 'Sberbank',
      phone: '+7 900 123-45-67',
      comment: '',
    });
  });

  it('a bank buy without a configured bank account starts WAITING_REQUISITES', async () => {
    const buyer = newCustomer('Buyer');
    const id = await createOrder(t, buyer, { paymentMethod: 'BANK_ACCOUNT', total: 600_000 });
    const order = await statusOf(t, buyer, id);
    expect(order).toMatchObject({
      status: 'WAITING_REQUISITES',
      paymentMethod: 'BANK_ACCOUNT',
      requisites: null,
      expiresAt: new Date(t.clock.now() + DEFAULT_REQUISITES_TIMEOUT_MS).toISOString(),
    });
  });

  it('a bank buy with a configured bank account starts REQUISITES_READY with it, due in 2 h', async () => {
    const buyer = newCustomer('Buyer');
    const id = await createOrder(withBank, buyer, {
      paymentMethod: 'BANK_ACCOUNT',
      total: 750_000,
    });
    const order = await statusOf(withBank, buyer, id);
    const now = withBank.clock.current;
    expect(order).toMatchObject({
      status: 'REQUISITES_READY',
      requisites: BANK_ACCOUNT,
      requisitesReadyAt: new Date(now).toISOString(),
      expiresAt: new Date(now + 2 * 3_600_000).toISOString(),
    });
    expect(await eventsOf(withBank, id)).toEqual([
      { from_status: null, to_status: 'REQUISITES_READY', actor: 'customer' },
    ]);
  });

  it('a P2P buy is not given the bank account: it still waits for card requisites', async () => {
    const buyer = newCustomer('Buyer');
    const id = await createOrder(withBank, buyer, { total: 10_000 });
    expect((await statusOf(withBank, buyer, id)).status).toBe('WAITING_REQUISITES');
  });

  it('an office buy starts OFFICE_PENDING in the chosen currency with its cityId stored', async () => {
    const buyer = newCustomer('Buyer');
    const rate = await rateOf(t, buyer, { currency: 'USD', paymentMethod: 'OFFICE' });
    const id = await createOrder(
      t,
      buyer,
      { paymentMethod: 'OFFICE', currency: 'USD', total: 10_000 },
      { cityId: 'almaty' },
    );
    const order = await statusOf(t, buyer, id);
    expect(order).toMatchObject({
      status: 'OFFICE_PENDING',
      paymentMethod: 'OFFICE',
      currency: 'USD',
      totalRub: 10_000,
      rate,
      cityId: 'almaty',
      walletAddress: TRON_WALLET,
      requisites: null,
      reservation: null,
    });
  });

  it('the server recomputes the total: a claim 1 RUB off (rounding) is stored as its own', async () => {
    const buyer = newCustomer('Buyer');
    const payload = await orderPayload(t, buyer, { total: 10_000 });
    const serverTotal = Math.round((payload['amount'] as number) * (payload['rate'] as number));
    payload['totalRub'] = serverTotal + 1;
    const res = await createRaw(t, buyer, payload);
    expect(res.statusCode, res.body).toBe(201);
    const order = await statusOf(t, buyer, res.json<{ orderId: string }>().orderId);
    expect(order.totalRub).toBe(serverTotal);
  });

  it('accepts a telegramInitData body field instead of the header', async () => {
    const buyer = newCustomer('Buyer');
    const payload = await orderPayload(t, buyer, { total: 10_000 });
    const res = await t.app.inject({
      method: 'POST',
      url: API_PATHS.createOrder,
      payload: { ...payload, telegramInitData: initDataFor(buyer) },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((await ordersOf(t, buyer)).length).toBe(1);
  });
});

describe('POST /api/orders/create: the rate and the total are the server’s', () => {
  it('refuses a rate that differs from the current quote with 409 RATE_CHANGED and the new rate', async () => {
    const current = await rateOf(t, REFUSED);
    const res = await refusal({ total: 10_000 }, { rate: current - 0.5 });
    expect(expectError(res, 'RATE_CHANGED').rate).toBe(current);
  });

  it('refuses the rate the app saw once an operator moved the base rate, answering the new one', async () => {
    const db = t.database.db;
    const payload = await orderPayload(t, REFUSED, { total: 10_000 });
    const before = await db
      .selectFrom('rates')
      .select('base_rate_units')
      .where('fiat', '=', 'RUB')
      .where('crypto', '=', 'USDT')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('rates')
      .set({ base_rate_units: before.base_rate_units + 1_000_000 })
      .where('fiat', '=', 'RUB')
      .where('crypto', '=', 'USDT')
      .execute();
    try {
      const res = await createRaw(t, REFUSED, payload);
      const body = expectError(res, 'RATE_CHANGED');
      expect(body.rate).toBe(await rateOf(t, REFUSED));
      expect(body.rate).not.toBe(payload['rate']);
    } finally {
      await db
        .updateTable('rates')
        .set({ base_rate_units: before.base_rate_units })
        .where('fiat', '=', 'RUB')
        .where('crypto', '=', 'USDT')
        .execute();
    }
  });

  it('refuses a SELL sent with the BUY rate (each direction has its own quote)', async () => {
    const buyRate = await rateOf(t, REFUSED, { operation: 'BUY' });
    const res = await refusal({ type: 'SELL', total: 10_000 }, { rate: buyRate });
    expectError(res, 'RATE_CHANGED');
  });

  it('refuses a tampered totalRub (half the real total) with TOTAL_MISMATCH', async () => {
    expectError(await refusal({ total: 10_000 }, { totalRub: 5_000 }), 'TOTAL_MISMATCH');
  });

  it('refuses a totalRub 2 RUB off the server total with TOTAL_MISMATCH', async () => {
    const payload = await orderPayload(t, REFUSED, { total: 10_000 });
    const serverTotal = Math.round((payload['amount'] as number) * (payload['rate'] as number));
    payload['totalRub'] = serverTotal - 2;
    expectError(await createRaw(t, REFUSED, payload), 'TOTAL_MISMATCH');
  });

  it('refuses a tampered crypto amount (twice the coins for the same roubles) with TOTAL_MISMATCH', async () => {
    const payload = await orderPayload(t, REFUSED, { total: 10_000 });
    payload['amount'] = (payload['amount'] as number) * 2;
    expectError(await createRaw(t, REFUSED, payload), 'TOTAL_MISMATCH');
  });
});

describe('POST /api/orders/create: amount limits', () => {
  const p2p = { min: P2P_RUB_MIN, max: P2P_RUB_MAX, currency: 'RUB' };
  const bank = { min: 500_000, max: 1_000_000, currency: 'RUB' };

  it.each([
    ['P2P buy', 'BUY', 'P2P', 2_999, 'AMOUNT_TOO_LOW', p2p],
    ['P2P buy', 'BUY', 'P2P', 500_001, 'AMOUNT_TOO_HIGH', p2p],
    ['P2P sell', 'SELL', 'P2P', 2_999, 'AMOUNT_TOO_LOW', p2p],
    ['P2P sell', 'SELL', 'P2P', 500_001, 'AMOUNT_TOO_HIGH', p2p],
    ['bank buy', 'BUY', 'BANK_ACCOUNT', 499_999, 'AMOUNT_TOO_LOW', bank],
    ['bank buy', 'BUY', 'BANK_ACCOUNT', 1_000_001, 'AMOUNT_TOO_HIGH', bank],
  ] as const)(
    '%s refuses %s RUB with %s and the bounds in the body',
    async (_name, type, paymentMethod, total, code, bounds) => {
      const body = expectError(await refusal({ type, paymentMethod, total }), code);
      expect(body).toMatchObject(bounds);
    },
  );

  it.each([
    ['P2P buy', 'BUY', 'P2P', 3_000],
    ['P2P buy', 'BUY', 'P2P', 500_000],
    ['P2P sell', 'SELL', 'P2P', 3_000],
    ['P2P sell', 'SELL', 'P2P', 500_000],
    ['bank buy', 'BUY', 'BANK_ACCOUNT', 500_000],
    ['bank buy', 'BUY', 'BANK_ACCOUNT', 1_000_000],
  ] as const)(
    '%s accepts exactly %s RUB (the bounds are inclusive)',
    async (_n, type, m, total) => {
      const customer = newCustomer();
      const id = await createOrder(t, customer, { type, paymentMethod: m, total });
      const order = await statusOf(t, customer, id);
      // A sell is paid out on its exact amount: less than one coin above the amount asked.
      const over = type === 'SELL' ? order.totalRub - total : 0;
      expect(over).toBeGreaterThanOrEqual(0);
      expect(over).toBeLessThanOrEqual(Math.ceil(order.rate));
    },
  );

  const cityOf = { RUB: 'moscow', USD: 'almaty', EUR: 'belgrade', AED: 'dubai', KZT: 'astana' };

  it.each(Object.entries(OFFICE_LIMITS))(
    'office buy in %s: refuses min − 1 and max + 1, accepts min and max',
    async (currency, { min, max }) => {
      const cityId = cityOf[currency as keyof typeof cityOf];
      const office = { paymentMethod: 'OFFICE', currency } as const;
      const bounds = { min, max, currency };
      const low = await refusal({ ...office, total: min - 1 }, { cityId });
      expect(expectError(low, 'AMOUNT_TOO_LOW')).toMatchObject(bounds);
      const high = await refusal({ ...office, total: max + 1 }, { cityId });
      expect(expectError(high, 'AMOUNT_TOO_HIGH')).toMatchObject(bounds);
      for (const total of [min, max]) {
        const customer = newCustomer();
        const id = await createOrder(t, customer, { ...office, total }, { cityId });
        expect((await statusOf(t, customer, id)).totalRub).toBe(total);
      }
    },
  );
});

describe('POST /api/orders/create: networks, wallets and cities', () => {
  it.each([
    ['OPTIMISM for a P2P USDC buy', { cryptoCurrency: 'USDC', network: 'OPTIMISM' }],
    ['BASE for a P2P USDT buy', { cryptoCurrency: 'USDT', network: 'BASE' }],
    ['BASE for a P2P USDT sell', { type: 'SELL', cryptoCurrency: 'USDT', network: 'BASE' }],
    [
      'BASE for a bank USDT buy',
      { paymentMethod: 'BANK_ACCOUNT', cryptoCurrency: 'USDT', network: 'BASE', total: 600_000 },
    ],
    [
      'OPTIMISM for a bank USDC buy',
      {
        paymentMethod: 'BANK_ACCOUNT',
        cryptoCurrency: 'USDC',
        network: 'OPTIMISM',
        total: 600_000,
      },
    ],
  ] as const)('refuses %s with UNSUPPORTED_NETWORK', async (_name, args) => {
    const res = await refusal({ total: 10_000, ...args }, { walletAddress: EVM_WALLET });
    expectError(res, 'UNSUPPORTED_NETWORK');
  });

  it('refuses an office USDC buy on OPTIMISM (office offers the bank list) with UNSUPPORTED_NETWORK', async () => {
    const res = await refusal(
      {
        paymentMethod: 'OFFICE',
        currency: 'EUR',
        cryptoCurrency: 'USDC',
        network: 'OPTIMISM',
        total: 6_000,
      },
      { cityId: 'belgrade', walletAddress: EVM_WALLET },
    );
    expectError(res, 'UNSUPPORTED_NETWORK');
  });

  it.each([
    ['a 0x address on TRC20', 'TRC20', EVM_WALLET],
    ['a T… address on BEP20', 'BEP20', TRON_WALLET],
    [
      'a Tron address with one character changed (checksum)',
      'TRC20',
      `${TRON_WALLET.slice(0, -1)}M`,
    ],
    ['an EVM address with a bad EIP-55 checksum', 'ERC20', `${EVM_WALLET.slice(0, -1)}D`],
    ['an EVM address one hex digit short', 'POLYGON', EVM_WALLET.slice(0, -1)],
    ['an EVM address with a non-hex character', 'ARBITRUM', `${EVM_WALLET.slice(0, -1)}g`],
    ['an address with a character appended', 'TRC20', `${TRON_WALLET}x`],
  ] as const)('a P2P buy refuses %s with INVALID_WALLET_ADDRESS', async (_n, network, wallet) => {
    const res = await refusal({ total: 10_000, network }, { walletAddress: wallet });
    expectError(res, 'INVALID_WALLET_ADDRESS');
  });

  it('a bank buy and an office buy check the wallet too', async () => {
    const bankRes = await refusal(
      { paymentMethod: 'BANK_ACCOUNT', network: 'TRC20', total: 600_000 },
      { walletAddress: EVM_WALLET },
    );
    expectError(bankRes, 'INVALID_WALLET_ADDRESS');
    const officeRes = await refusal(
      { paymentMethod: 'OFFICE', currency: 'AED', network: 'BEP20', total: 30_000 },
      { walletAddress: TRON_WALLET, cityId: 'dubai' },
    );
    expectError(officeRes, 'INVALID_WALLET_ADDRESS');
  });

  it('a wallet pasted with spaces around it is stored trimmed', async () => {
    const customer = newCustomer();
    const id = await createOrder(
      t,
      customer,
      { total: 10_000 },
      { walletAddress: ` ${TRON_WALLET}\n` },
    );
    expect((await statusOf(t, customer, id)).walletAddress).toBe(TRON_WALLET);
  });

  it('accepts an all-lowercase EVM address (no checksum to check)', async () => {
    const customer = newCustomer();
    const id = await createOrder(
      t,
      customer,
      { total: 10_000, network: 'ERC20' },
      { walletAddress: EVM_WALLET.toLowerCase() },
    );
    expect((await statusOf(t, customer, id)).walletAddress).toBe(EVM_WALLET.toLowerCase());
  });

  it.each([
    ['Belgrade for AED (its offices take EUR only)', 'AED', 'belgrade', 30_000],
    ['Kazan for USD', 'USD', 'kazan', 6_000],
    ['a city that does not exist', 'RUB', 'atlantis', 600_000],
  ] as const)('an office buy refuses %s with UNKNOWN_CITY', async (_n, currency, cityId, total) => {
    const res = await refusal({ paymentMethod: 'OFFICE', currency, total }, { cityId });
    expectError(res, 'UNKNOWN_CITY');
  });
});

describe('POST /api/orders/create: payload shape (400 VALIDATION_FAILED)', () => {
  const validation = async (
    args: Parameters<typeof orderPayload>[2],
    change: (payload: Record<string, unknown>) => void,
  ) => {
    const payload = await orderPayload(t, REFUSED, args);
    change(payload);
    return expectError(await createRaw(t, REFUSED, payload), 'VALIDATION_FAILED');
  };

  it.each([
    ['fails Luhn', '2200700123456782'],
    ['has 15 digits', '220070012345678'],
    ['has 17 digits', '22007001234567818'],
    ['has letters', '2200 7001 2345 678a'],
    ['is empty', ''],
  ])('a sell whose card number %s', async (_n, cardNumber) => {
    const body = await validation({ type: 'SELL', total: 10_000 }, (p) => {
      p['cardNumber'] = cardNumber;
    });
    expect(body).toMatchObject({ fields: ['cardNumber'] });
  });

  it.each(['cardNumber', 'cardHolder', 'bankName'])('a sell without %s', async (field) => {
    await validation({ type: 'SELL', total: 10_000 }, (p) => {
      Reflect.deleteProperty(p, field);
    });
  });

  it('a sell with a holder in Cyrillic, naming the field (the form says so before submit)', async () => {
    const body = await validation({ type: 'SELL', total: 10_000 }, (p) => {
      p['cardHolder'] = 'ИВАН ПЕТРОВ';
    });
    expect(body).toMatchObject({ fields: ['cardHolder'] });
  });

  it.each([
    'type',
    'paymentMethod',
    'currency',
    'cryptoCurrency',
    'network',
    'rate',
    'totalRub',
    'walletAddress',
  ])('a P2P buy without %s', async (field) => {
    await validation({ total: 10_000 }, (p) => {
      Reflect.deleteProperty(p, field);
    });
  });

  it('a P2P buy without an amount (only a sell defaults to 100)', async () => {
    await validation({ total: 10_000 }, (p) => {
      delete p['amount'];
    });
  });

  it('an office buy without cityId', async () => {
    await validation({ paymentMethod: 'OFFICE', currency: 'USD', total: 10_000 }, (p) => {
      delete p['cityId'];
    });
  });

  it.each([
    ['amount as a string', 'amount', '100'],
    ['amount as null', 'amount', null],
    ['amount negative', 'amount', -102.26],
    ['amount zero', 'amount', 0],
    ['amount 1e308', 'amount', 1e308],
    ['amount too precise to hold (1e11 coins)', 'amount', 1e11],
    ['rate as a string', 'rate', '97.79'],
    ['rate negative', 'rate', -97.79],
    ['rate 1e308', 'rate', 1e308],
    ['totalRub as a string', 'totalRub', '10000'],
    ['totalRub as null', 'totalRub', null],
    ['totalRub negative', 'totalRub', -10_000],
    ['totalRub 1e308', 'totalRub', 1e308],
    ['type in lower case', 'type', 'buy'],
    ['an unknown payment method', 'paymentMethod', 'CARD'],
    ['an unknown coin', 'cryptoCurrency', 'BTC'],
    ['an unknown network', 'network', 'SOLANA'],
    ['network as a number', 'network', 20],
    ['a lower-case currency', 'currency', 'rub'],
    ['walletAddress as an array', 'walletAddress', [TRON_WALLET]],
    ['walletAddress as an object', 'walletAddress', { address: TRON_WALLET }],
    ['walletAddress blank', 'walletAddress', '   '],
    ['walletAddress of 10 000 characters', 'walletAddress', 'T'.repeat(10_000)],
  ])('a P2P buy with %s', async (_n, field, value) => {
    await validation({ total: 10_000 }, (p) => {
      p[field] = value;
    });
  });

  it('a P2P buy in USD (P2P is roubles only)', async () => {
    const payload = await orderPayload(t, REFUSED, { total: 10_000 });
    expectError(await createRaw(t, REFUSED, { ...payload, currency: 'USD' }), 'VALIDATION_FAILED');
  });

  it('a sell by bank account (the bank method is buy only)', async () => {
    const payload = await orderPayload(t, REFUSED, { type: 'SELL', total: 10_000 });
    const res = await createRaw(t, REFUSED, { ...payload, paymentMethod: 'BANK_ACCOUNT' });
    expectError(res, 'VALIDATION_FAILED');
  });

  it.each([
    ['an empty object', {}],
    ['an array', [1, 2, 3]],
    ['a string', 'BUY'],
    ['a number', 42],
    ['null', null],
  ])('a body that is %s', async (_n, body) => {
    const res = await t.app.inject({
      method: 'POST',
      url: API_PATHS.createOrder,
      headers: { ...authHeader(initDataFor(REFUSED)), 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expectError(res, 'VALIDATION_FAILED');
  });
});

describe('POST /api/orders/create: malformed and hostile bodies', () => {
  const raw = (payload: string | Buffer, contentType = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url: API_PATHS.createOrder,
      headers: { ...authHeader(initDataFor(REFUSED)), 'content-type': contentType },
      payload,
    });

  it.each([
    ['a truncated object', '{"type":"BUY",'],
    ['single quotes', "{'type':'BUY'}"],
    ['a NaN amount', '{"type":"BUY","amount":NaN}'],
    ['an Infinity total', '{"totalRub":Infinity}'],
    ['a trailing comma', '{"type":"BUY",}'],
    ['plain text', 'hello'],
    ['a __proto__ key (prototype poisoning)', '{"type":"BUY","__proto__":{"isAdmin":true}}'],
    ['a constructor.prototype key', '{"constructor":{"prototype":{"isAdmin":true}}}'],
  ])('answers 400 INVALID_JSON for %s', async (_n, body) => {
    expectError(await raw(body), 'INVALID_JSON');
  });

  it('answers 413 PAYLOAD_TOO_LARGE for a body over the limit (16 MB)', async () => {
    const res = await raw(JSON.stringify({ comment: 'x'.repeat(16 * 1024 * 1024) }));
    expectError(res, 'PAYLOAD_TOO_LARGE');
  });

  it('answers 415 for a form-encoded body', async () => {
    const res = await raw('type=BUY&amount=1', 'application/x-www-form-urlencoded');
    expectError(res, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('never answers 500 to a battery of junk bodies, and stores none of them', async () => {
    const valid = await orderPayload(t, REFUSED, { total: 10_000 });
    const junkValues: unknown[] = [
      null,
      '',
      'x',
      true,
      -1,
      0,
      1e308,
      -1e308,
      5e-324,
      [],
      {},
      [null],
      { $gt: '' },
      '0x' + 'f'.repeat(5_000),
      '\u0000\u202e\ud83d\ude00',
    ];
    const bodies: string[] = [
      '',
      ' ',
      '{}',
      '[]',
      'null',
      'true',
      '0',
      '"BUY"',
      '{"amount":1e400}',
      '{"amount":-0}',
      '['.repeat(5_000) + ']'.repeat(5_000),
      '{"a":'.repeat(2_000) + '1' + '}'.repeat(2_000),
      JSON.stringify({ ...valid, amount: 1e15, totalRub: 1e15 }),
      JSON.stringify({
        ...valid,
        amount: 1e9,
        totalRub: Math.round(1e9 * (valid['rate'] as number)),
      }),
      JSON.stringify({ ...valid, rate: 5e-324 }),
      JSON.stringify({ ...valid, type: 'SELL' }),
      JSON.stringify({ ...valid, paymentMethod: 'OFFICE', cityId: { id: 'moscow' } }),
      JSON.stringify({ ...valid, paymentMethod: 'OFFICE', cityId: 'moscow', currency: 'RUB' }),
      JSON.stringify({ ...valid, telegramInitData: 12345 }),
    ];
    for (const field of Object.keys(valid)) {
      for (const value of junkValues) bodies.push(JSON.stringify({ ...valid, [field]: value }));
    }
    const statuses = new Set<number>();
    for (const body of bodies) {
      const res = await raw(body);
      expect(
        res.statusCode,
        `${res.statusCode} ${res.body} for ${body.slice(0, 120)}`,
      ).toBeLessThan(500);
      expect(res.statusCode, body.slice(0, 120)).toBeGreaterThanOrEqual(400);
      expect(typeof res.json<{ code: unknown }>().code).toBe('string');
      statuses.add(res.statusCode);
    }
    expect(statuses.size).toBeGreaterThan(1);
    expect(await ordersOf(t, REFUSED)).toEqual([]);
  });

  it('never answers 500 to junk in other content types', async () => {
    for (const [contentType, body] of [
      ['text/plain', '{"type":"BUY"}'],
      ['application/octet-stream', Buffer.from([0, 1, 2, 255])],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
      ],
      ['application/json; charset=latin1', '{"type":"BUY"}'],
    ] as const) {
      const res = await raw(body, contentType);
      expect(res.statusCode, `${contentType}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${contentType}: ${res.body}`).toBeLessThan(500);
    }
  });
});

describe('POST /api/orders/create: identity and the active-order limit', () => {
  it('refuses a create without init data with 401 AUTH_MISSING', async () => {
    const payload = await orderPayload(t, REFUSED, { total: 10_000 });
    expectError(await post(t, API_PATHS.createOrder, payload), 'AUTH_MISSING');
  });

  it('refuses forged init data with 401 AUTH_INVALID', async () => {
    const payload = await orderPayload(t, REFUSED, { total: 10_000 });
    const res = await t.app.inject({
      method: 'POST',
      url: API_PATHS.createOrder,
      headers: authHeader(forgedInitData(REFUSED)),
      payload,
    });
    expectError(res, 'AUTH_INVALID');
  });

  it('refuses init data signed two days ago with 401 AUTH_EXPIRED', async () => {
    const payload = await orderPayload(t, REFUSED, { total: 10_000 });
    const res = await t.app.inject({
      method: 'POST',
      url: API_PATHS.createOrder,
      headers: authHeader(expiredInitData(REFUSED)),
      payload,
    });
    expectError(res, 'AUTH_EXPIRED');
  });

  it('refuses a third active order with 409 TOO_MANY_ACTIVE_ORDERS when the limit is 2, until one ends', async () => {
    const customer = newCustomer('Busy');
    const other = newCustomer('Other');
    const first = await createOrder(limited, customer, { total: 10_000 });
    await createOrder(limited, customer, { type: 'SELL', total: 10_000 });
    // Another customer's orders do not count against this one.
    await createOrder(limited, other, { total: 10_000 });
    await createOrder(limited, other, { total: 10_000 });

    const third = await createRaw(
      limited,
      customer,
      await orderPayload(limited, customer, { total: 10_000 }),
    );
    expect(expectError(third, 'TOO_MANY_ACTIVE_ORDERS')).toMatchObject({ max: 2 });
    expect((await ordersOf(limited, customer)).length).toBe(2);

    const cancel = await post(limited, API_PATHS.cancel(first), {}, customer);
    expect(cancel.statusCode).toBe(200);
    await createOrder(limited, customer, { total: 10_000 });
  });

  it('no refusal in this file left an order behind', async () => {
    expect(await ordersOf(t, REFUSED)).toEqual([]);
    const events = await t.database.db
      .selectFrom('order_events')
      .select('id')
      .where('actor_id', '=', REFUSED.id)
      .execute();
    expect(events).toEqual([]);
  });
});
