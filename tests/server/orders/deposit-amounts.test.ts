/**
 * Each sell's exact amount (orders/deposit-amounts.ts): what ties a transfer to one sell when
 * every seller sends to the same public deposit address. Given at creation, above the amount
 * asked and below one coin more, never round, unique per network and coin (by the database,
 * whichever instance hands it out), held while the sell is open and DEPOSIT_AMOUNT_HOLD_HOURS
 * after it ended; refused plainly when none is free, never reused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { openDatabase, type OpenDatabase } from '../../../src/server/platform/db/database';
import { amountsFor } from '../../../src/server/orders/deposit-amounts';
import { API_PATHS } from '../../../src/shared/api';
import { SHOWN_CRYPTO_STEP_UNITS, toUnits } from '../../../src/shared/money';
import {
  createOrder,
  createRaw,
  expectError,
  headersFor,
  newCustomer,
  orderPayload,
  post,
  statusOf,
} from '../../helpers/api';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { testDatabaseKind } from '../../helpers/test-database';

const HOLD_MS = 72 * 3_600_000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ maxActiveOrders: 100 });
});
afterAll(async () => {
  await t.close();
});

/** The amount a sell of `total` roubles asks for, in millionths, at today's rate. */
async function askedUnits(total: number): Promise<number> {
  const payload = await orderPayload(t, newCustomer(), { type: 'SELL', total });
  const units = toUnits(payload['amount'] as number);
  if (units === undefined) throw new Error('no amount');
  return units;
}

/** Holds every amount a sell asking `units` could be given but `free`, for orders that are not. */
async function holdAllBut(units: number, free: readonly number[]): Promise<void> {
  const rows = amountsFor(units)
    .filter((amount) => !free.includes(amount))
    .map((amount, index) => ({
      network: 'TRC20' as const,
      crypto_currency: 'USDT' as const,
      amount_units: amount,
      order_id: `held-${units}-${index}`,
      created_at: t.clock.now(),
    }));
  for (let start = 0; start < rows.length; start += 500) {
    await t.database.db
      .insertInto('deposit_amounts')
      .values(rows.slice(start, start + 500))
      .execute();
  }
}

const amountOfOrder = async (id: string, user = newCustomer()) =>
  toUnits((await statusOf(t, user, id)).amount);

describe('a sell is given an exact amount', () => {
  it('above the amount asked and below one coin more, in the 4th decimal, never ending in 0; the rouble total worked out on it', async () => {
    const asked = await askedUnits(20_000);
    for (let i = 0; i < 20; i++) {
      const seller = newCustomer('Seller');
      const id = await createOrder(t, seller, { type: 'SELL', total: 20_000 });
      const order = await statusOf(t, seller, id);
      const units = toUnits(order.amount) ?? 0;
      expect(units).toBeGreaterThan(asked);
      expect(units).toBeLessThan(asked + 1_000_000);
      expect(units % SHOWN_CRYPTO_STEP_UNITS).toBe(0);
      expect((units / SHOWN_CRYPTO_STEP_UNITS) % 10).not.toBe(0);
      expect(order.totalRub).toBe(Math.round((units / 1_000_000) * order.rate));
    }
  });

  it('the amounts a sell can be given: 9 000 of them, none round, all within one coin', () => {
    const amounts = amountsFor(100_000_000);
    expect(amounts).toHaveLength(9_000);
    expect(amounts[0]).toBe(100_000_100);
    expect(amounts).not.toContain(100_001_000);
    expect(amounts.at(-1)).toBe(100_999_900);
    // An amount asked with more digits than shown is cut to them first: still above it.
    expect(amountsFor(100_000_050)[0]).toBe(100_000_100);
  });

  it('two sells of the same amount at the same moment never share an exact amount', async () => {
    const sellers = Array.from({ length: 30 }, () => newCustomer('Seller'));
    const ids = await Promise.all(
      sellers.map((seller) => createOrder(t, seller, { type: 'SELL', total: 30_000 })),
    );
    const amounts = await Promise.all(ids.map((id, i) => amountOfOrder(id, sellers[i])));
    expect(new Set(amounts).size).toBe(30);
  });

  it("when every amount near the one asked is held: 409 DEPOSIT_AMOUNTS_TAKEN in the customer's language, and no amount is given twice", async () => {
    const asked = await askedUnits(40_000);
    const free = amountsFor(asked).slice(100, 102);
    await holdAllBut(asked, free);
    const sellers = Array.from({ length: 4 }, (_, i) => ({
      ...newCustomer('Seller'),
      language_code: i % 2 === 0 ? 'en' : 'ru',
    }));
    const payloads = await Promise.all(
      sellers.map((seller) => orderPayload(t, seller, { type: 'SELL', total: 40_000 })),
    );
    const answers = await Promise.all(
      sellers.map((seller, i) =>
        t.app.inject({
          method: 'POST',
          url: API_PATHS.createOrder,
          headers: { ...headersFor(seller), 'accept-language': seller.language_code },
          payload: payloads[i] ?? {},
        }),
      ),
    );
    const created = answers.filter((res) => res.statusCode === 201);
    expect(created).toHaveLength(2);
    const given = await Promise.all(
      answers.flatMap((res, i) =>
        res.statusCode === 201
          ? [amountOfOrder(res.json<{ orderId: string }>().orderId, sellers[i])]
          : [],
      ),
    );
    expect([...given].sort()).toEqual([...free].sort());
    for (const [i, res] of answers.entries()) {
      if (res.statusCode === 201) continue;
      const body = expectError(res, 'DEPOSIT_AMOUNTS_TAKEN');
      expect(body.error).toMatch(sellers[i]?.language_code === 'ru' ? /заняты/ : /taken/);
    }
  });

  it('an ended sell keeps its amount for DEPOSIT_AMOUNT_HOLD_HOURS, then it is free again', async () => {
    const asked = await askedUnits(50_000);
    const seller = newCustomer('Seller');
    const id = await createOrder(t, seller, { type: 'SELL', total: 50_000 });
    const own = (await amountOfOrder(id, seller)) ?? 0;
    await holdAllBut(asked, [own]);
    const cancelled = await post(t, API_PATHS.cancel(id), {}, seller);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // Ended a minute short of the hold: still its own.
    const endedAt = async (at: number) =>
      t.database.db.updateTable('orders').set({ updated_at: at }).where('id', '=', id).execute();
    await endedAt(t.clock.now() - HOLD_MS + 60_000);
    const later = newCustomer('Seller');
    const held = await createRaw(
      t,
      later,
      await orderPayload(t, later, { type: 'SELL', total: 50_000 }),
    );
    expectError(held, 'DEPOSIT_AMOUNTS_TAKEN');
    await endedAt(t.clock.now() - HOLD_MS - 60_000);
    const next = await createOrder(t, later, { type: 'SELL', total: 50_000 });
    expect(await amountOfOrder(next, later)).toBe(own);
    // The cancelled sell still shows the amount it was given.
    expect((await statusOf(t, seller, id)).amount).toBe(own / 1_000_000);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('two instances hand out amounts at once', () => {
  let second: TestApp;
  let secondDatabase: OpenDatabase;
  beforeAll(async () => {
    secondDatabase = openDatabase(t.database.config);
    const app = await buildApp(t.config, { db: secondDatabase.db, now: t.clock.now });
    second = { ...t, app, close: () => app.close() };
  });
  afterAll(async () => {
    await second.close();
    await secondDatabase.db.destroy();
  });

  it('twelve sells of one amount, six per instance, with eight amounts free: eight distinct amounts, four refused', async () => {
    const asked = await askedUnits(60_000);
    const free = amountsFor(asked).slice(0, 8);
    await holdAllBut(asked, free);
    const sellers = Array.from({ length: 12 }, () => newCustomer('Seller'));
    const payloads = await Promise.all(
      sellers.map((seller) => orderPayload(t, seller, { type: 'SELL', total: 60_000 })),
    );
    const answers = await Promise.all(
      sellers.map((seller, i) => createRaw(i % 2 === 0 ? t : second, seller, payloads[i] ?? {})),
    );
    const ids = answers.flatMap((res) =>
      res.statusCode === 201 ? [res.json<{ orderId: string }>().orderId] : [],
    );
    expect(ids).toHaveLength(8);
    const rows = await t.database.db
      .selectFrom('orders')
      .select('amount_units')
      .where('id', 'in', ids)
      .execute();
    expect(rows.map((row) => row.amount_units).sort()).toEqual([...free].sort());
    for (const res of answers) {
      if (res.statusCode !== 201) expectError(res, 'DEPOSIT_AMOUNTS_TAKEN');
    }
  });
});
