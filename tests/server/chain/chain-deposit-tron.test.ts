/**
 * A seller's TRC20 deposit checked on Tron through a fake of the TronGrid HTTP API
 * in its documented format (tests/helpers/trongrid-fake.ts): a right deposit is seen, counts
 * toward solidification and is confirmed by the chain once its block is solidified; a storm of
 * 429s is never read as "not found", however long it lasts.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseChainConfig } from '../../../src/server/platform/config/chain-config';
import { checkChainOnce, type ChainCheckContext } from '../../../src/server/chain/chain-checker';
import { API_PATHS } from '../../../src/shared/api';
import { createOrder, newCustomer, post, type TestUser } from '../../helpers/api';
import { testDatabaseKind } from '../../helpers/test-database';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { startTronGridFake, type TronGridFake } from '../../helpers/trongrid-fake';

/** Tether's USDT on Tron, the default official contract. */
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const DEPOSIT = 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';
const SELLER_WALLET = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

let tron: TronGridFake;
let t: TestApp;
let ctx: ChainCheckContext;

beforeAll(async () => {
  tron = await startTronGridFake();
  tron.setDecimals(USDT, 6);
  const parsed = parseChainConfig({ CHAIN_RPC_TRC20: tron.url });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  t = await createTestApp({
    chain: parsed.config,
    depositAddresses: { trc20: DEPOSIT, evm: '0x000000000000000000000000000000000000dEaD' },
  });
  ctx = { db: t.database.db, config: t.config, chain: t.app.chain, dialect: testDatabaseKind() };
});

afterAll(async () => {
  await t.close();
  await tron.stop();
});

beforeEach(() => {
  tron.clearFaults();
});

const sendHash = (user: TestUser, id: string, txHash: string) =>
  post(t, API_PATHS.txHash(id), { txHash }, user);

const checkOf = (id: string) =>
  t.database.db
    .selectFrom('chain_checks')
    .selectAll()
    .where('order_id', '=', id)
    .executeTakeFirstOrThrow();

const statusOf = async (id: string) =>
  (
    await t.database.db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).status;

async function trc20Sell(total = 10_000): Promise<{ id: string; seller: TestUser; units: number }> {
  const seller = newCustomer('Seller');
  const id = await createOrder(t, seller, { type: 'SELL', total, network: 'TRC20' });
  const { amount_units: units } = await t.database.db
    .selectFrom('orders')
    .select('amount_units')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { id, seller, units };
}

describe('TRC20: a deposit is confirmed when its block is solidified', () => {
  it('seen in block 500 (head 505, solidified 490); confirmed by the chain once 500 is solidified', async () => {
    const sell = await trc20Sell();
    const hash = randomBytes(32).toString('hex');
    tron.setHeads({ latest: 505, solidified: 490 });
    tron.addTransaction({
      id: hash,
      blockNumber: 500,
      blockTimeStamp: t.clock.now() + 5_000,
      transfers: [{ contract: USDT, from: SELLER_WALLET, to: DEPOSIT, amount: BigInt(sell.units) }],
      solidified: false,
    });
    expect((await sendHash(sell.seller, sell.id, hash)).json()).toEqual({
      success: true,
      status: 'TX_PENDING',
    });
    // Six of the sixteen blocks solidification takes now (505 - 490 + 1).
    expect(await checkOf(sell.id)).toMatchObject({
      state: 'seen',
      confirmations: 6,
      required_confirmations: 16,
      contract: USDT,
      sender: SELLER_WALLET,
      amount: String(sell.units),
    });
    tron.setHeads({ latest: 515, solidified: 499 });
    expect((await checkChainOnce(ctx, t.clock.now())).outcomes.get(sell.id)).toBe('waiting');
    expect(await statusOf(sell.id)).toBe('TX_PENDING');
    tron.setHeads({ latest: 519, solidified: 500 });
    tron.setSolidified(hash, true);
    // The next round, a second later.
    t.clock.advance(1_000);
    expect((await checkChainOnce(ctx, t.clock.now())).outcomes.get(sell.id)).toBe('confirmed');
    expect(await statusOf(sell.id)).toBe('TX_CONFIRMED');
    const event = await t.database.db
      .selectFrom('order_events')
      .select(['actor', 'reason'])
      .where('order_id', '=', sell.id)
      .where('to_status', '=', 'TX_CONFIRMED')
      .executeTakeFirstOrThrow();
    expect(event.actor).toBe('chain');
    expect(event.reason).toContain(`contract ${USDT}`);
    expect(event.reason).toContain('block 500');
  });
});

describe("TRC20: a head behind the deposit's block is not a reorganisation by itself", () => {
  it('the node answers an older head (a lagging node) but still has the transaction: it stays seen, not confirmed', async () => {
    const sell = await trc20Sell();
    const hash = randomBytes(32).toString('hex');
    tron.setHeads({ latest: 3_005, solidified: 2_990 });
    tron.addTransaction({
      id: hash,
      blockNumber: 3_000,
      blockTimeStamp: t.clock.now() + 5_000,
      transfers: [{ contract: USDT, from: SELLER_WALLET, to: DEPOSIT, amount: BigInt(sell.units) }],
      solidified: false,
    });
    expect((await sendHash(sell.seller, sell.id, hash)).statusCode).toBe(200);
    tron.setHeads({ latest: 2_995, solidified: 2_980 });
    expect((await checkChainOnce(ctx, t.clock.now())).outcomes.get(sell.id)).toBe('waiting');
    expect(await checkOf(sell.id)).toMatchObject({
      state: 'seen',
      reorged: 0,
      block_number: 3_000,
    });
    expect(await statusOf(sell.id)).toBe('TX_PENDING');
  });
});

describe('TRC20: a storm of 429s is never read as not found', () => {
  it('taken at the submission, and still looking after rounds past the lookup window', async () => {
    const sell = await trc20Sell();
    const hash = randomBytes(32).toString('hex');
    tron.fail({ kind: 'status', status: 429, headers: { 'retry-after': '30' } });
    expect((await sendHash(sell.seller, sell.id, hash)).json()).toEqual({
      success: true,
      status: 'TX_PENDING',
    });
    for (let i = 0; i < 3; i++) {
      t.clock.advance(t.config.chainLookupWindowMs);
      await checkChainOnce(ctx, t.clock.now());
    }
    const check = await checkOf(sell.id);
    expect(check.state).toBe('looking');
    expect(check.last_fault).toMatch(/429/);
    // Once the node answers and knows the transaction, it is judged at last.
    tron.clearFaults();
    tron.setHeads({ latest: 2_000, solidified: 1_990 });
    tron.addTransaction({
      id: hash,
      blockNumber: 1_995,
      blockTimeStamp: t.clock.now(),
      transfers: [{ contract: USDT, from: SELLER_WALLET, to: DEPOSIT, amount: BigInt(sell.units) }],
      solidified: false,
    });
    t.clock.advance(5 * 60_000);
    expect((await checkChainOnce(ctx, t.clock.now())).outcomes.get(sell.id)).toBe('seen');
  });
});

describe('TRC20: a deposit without its hash is found in the address history', () => {
  it('a transfer to the deposit address matching one waiting sell alone is attached by the chain and, solidified, confirmed in the same round', async () => {
    const sell = await trc20Sell(12_345);
    const hash = randomBytes(32).toString('hex');
    tron.setHeads({ latest: 6_005, solidified: 6_001 });
    tron.addTransaction({
      id: hash,
      blockNumber: 6_000,
      blockTimeStamp: t.clock.now() + 5_000,
      transfers: [{ contract: USDT, from: SELLER_WALLET, to: DEPOSIT, amount: BigInt(sell.units) }],
    });
    t.clock.advance(10_000);
    // Solidified already: attached, read once more and confirmed in the same round.
    expect((await checkChainOnce(ctx, t.clock.now())).outcomes.get(sell.id)).toBe('confirmed');
    expect(await statusOf(sell.id)).toBe('TX_CONFIRMED');
    expect(await checkOf(sell.id)).toMatchObject({
      state: 'confirmed',
      tx_hash: hash,
      sender: SELLER_WALLET,
    });
    const attached = await t.database.db
      .selectFrom('order_events')
      .select(['actor', 'reason'])
      .where('order_id', '=', sell.id)
      .where('to_status', '=', 'TX_PENDING')
      .executeTakeFirstOrThrow();
    expect(attached.actor).toBe('chain');
    expect(attached.reason).toContain(hash);
  });
});
