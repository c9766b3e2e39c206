/**
 * A seller's transaction hash checked on the chain when it arrives, against a real EVM node
 * (Hardhat in process, tests/helpers/evm-chain.ts): every transfer that is not the order's deposit
 * is refused with its code and details and the order keeps waiting for the right one; a right one
 * is taken and seen; a hash the node does not know yet, or a node that does not answer, is taken
 * and looked for later, never refused as not found; a network without a node works as before.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../../src/shared/api';
import { unitsToDecimal } from '../../../src/shared/money';
import {
  createOrder,
  expectError,
  headersFor,
  newCustomer,
  post,
  statusOf,
  type TestUser,
} from '../../helpers/api';
import {
  amountOf,
  createChainTestApp,
  evmChainConfig,
  pay,
  waitingSell,
  type WaitingSell,
  useEvmChainApp,
  chainCheckOf,
} from '../../helpers/chain-app';
import { deadPort, type EvmTestChain } from '../../helpers/evm-chain';
import { chainAlertsOf } from '../../helpers/outbox-facts';
import type { TestApp } from '../../helpers/test-app';

const env = useEvmChainApp();
let chain: EvmTestChain;
let t: TestApp;

beforeAll(() => {
  ({ chain, t } = env);
});

const sendHash = (app: TestApp, user: TestUser, id: string, txHash: string) =>
  post(app, API_PATHS.txHash(id), { txHash }, user);

const evmHash = () => `0x${randomBytes(32).toString('hex')}`;

const orderStatus = async (app: TestApp, id: string) =>
  (
    await app.database.db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).status;

const checkOf = chainCheckOf;

const alertsOf = (app: TestApp, id: string) => chainAlertsOf(app.database.db, id);

/** A refusal leaves the order waiting for the right hash, with no check row. */
async function expectStillWaiting(sell: WaitingSell): Promise<void> {
  expect(await orderStatus(t, sell.id)).toBe('WAITING_CRYPTO');
  expect(await checkOf(t, sell.id)).toBeUndefined();
}

describe('a hash found on the chain and right', () => {
  it('takes a 6-decimal USDT deposit of the exact amount: TX_PENDING, seen, with the transfer as evidence', async () => {
    const sell = await waitingSell(t, 'ERC20');
    const hash = await pay(chain, t, sell);
    const res = await sendHash(t, sell.seller, sell.id, hash);
    expect(res.json()).toEqual({ success: true, status: 'TX_PENDING' });
    const check = await checkOf(t, sell.id);
    expect(check).toMatchObject({
      kind: 'deposit',
      network: 'ERC20',
      tx_hash: hash.toLowerCase(),
      state: 'seen',
      amount: amountOf(chain, sell).toString(),
      decimals: 6,
      sender: chain.customer,
      contract: chain.tokens.usdt6,
      confirmations: 1,
      required_confirmations: 5,
    });
    expect(check?.log_index).not.toBeNull();
    expect(check?.block_number).toBe(await chain.blockNumber());
  });

  it('converts the order to an 18-decimal token exactly (BEP20): the amount in base units, no float', async () => {
    const sell = await waitingSell(t, 'BEP20');
    const amount = amountOf(chain, sell);
    expect(amount).toBe(BigInt(sell.units) * 10n ** 12n);
    const hash = await pay(chain, t, sell);
    expect((await sendHash(t, sell.seller, sell.id, hash)).statusCode).toBe(200);
    expect(await checkOf(t, sell.id)).toMatchObject({
      state: 'seen',
      amount: amount.toString(),
      decimals: 18,
    });
  });
});

describe('a hash found on the chain and wrong is refused, the order keeps waiting', () => {
  it('a transaction that failed: 400 TX_FAILED', async () => {
    const sell = await waitingSell(t);
    const hash = await chain.failingTransfer(
      chain.tokens.usdt6,
      chain.stranger,
      chain.deposit,
      amountOf(chain, sell),
    );
    expectError(await sendHash(t, sell.seller, sell.id, hash), 'TX_FAILED');
    await expectStillWaiting(sell);
  });

  it('a look-alike token with the same name and symbol: 400 TX_WRONG_TOKEN naming the coin', async () => {
    const sell = await waitingSell(t);
    const hash = await pay(chain, t, sell, { token: chain.tokens.lookAlike });
    const body = expectError(await sendHash(t, sell.seller, sell.id, hash), 'TX_WRONG_TOKEN');
    expect(body.coin).toBe('USDT');
    await expectStillWaiting(sell);
  });

  it("the official token on the wrong network's contract (18-decimal USDT for an ERC20 order): TX_WRONG_TOKEN", async () => {
    const sell = await waitingSell(t, 'ERC20');
    const hash = await pay(chain, t, sell, { token: chain.tokens.usdt18, amount: 10n ** 21n });
    expectError(await sendHash(t, sell.seller, sell.id, hash), 'TX_WRONG_TOKEN');
    await expectStillWaiting(sell);
  });

  it("a transfer to another address than the order's deposit address: 400 TX_WRONG_RECIPIENT", async () => {
    const sell = await waitingSell(t);
    const hash = await pay(chain, t, sell, { to: chain.stranger });
    expectError(await sendHash(t, sell.seller, sell.id, hash), 'TX_WRONG_RECIPIENT');
    await expectStillWaiting(sell);
  });

  it('less than the order by one base unit of an 18-decimal token: 400 TX_UNDERPAID with the exact shortfall', async () => {
    const sell = await waitingSell(t, 'BEP20');
    const hash = await pay(chain, t, sell, { amount: amountOf(chain, sell) - 1n });
    const body = expectError(await sendHash(t, sell.seller, sell.id, hash), 'TX_UNDERPAID');
    expect(body).toMatchObject({ coin: 'USDT', shortfall: '0.000000000000000001' });
    await expectStillWaiting(sell);
  });

  it('less than the order by half a coin (6 decimals): the shortfall is "0.5"', async () => {
    // An amount asked by no other sell: half a coin less is then no other sell's exact amount.
    const sell = await waitingSell(t, 'ERC20', 17_777);
    const hash = await pay(chain, t, sell, { amount: amountOf(chain, sell) - 500_000n });
    const body = expectError(await sendHash(t, sell.seller, sell.id, hash), 'TX_UNDERPAID');
    expect(body.shortfall).toBe('0.5');
  });

  it('a transfer made before the order was created: 400 TX_BEFORE_ORDER', async () => {
    const early = await waitingSell(t, 'ERC20');
    const hash = await pay(chain, t, early);
    // The order is created an hour after the transfer.
    t.clock.advance(3_600_000);
    const sell = await waitingSell(t, 'ERC20');
    expectError(await sendHash(t, sell.seller, sell.id, hash), 'TX_BEFORE_ORDER');
    await expectStillWaiting(sell);
  });

  it("a seller pasting another seller's transfer of the same amount asked, before its owner: 400 TX_AMOUNT_MISMATCH with both amounts, flagged with both orders; the owner's paste is then taken", async () => {
    const owner = await waitingSell(t);
    const thief = await waitingSell(t);
    expect(thief.units).not.toBe(owner.units);
    const hash = await pay(chain, t, owner);
    const refused = expectError(
      await sendHash(t, thief.seller, thief.id, hash),
      'TX_AMOUNT_MISMATCH',
    );
    expect(refused).toMatchObject({
      coin: 'USDT',
      sent: unitsToDecimal(owner.units),
      expected: unitsToDecimal(thief.units),
    });
    await expectStillWaiting(thief);
    const flagged = await alertsOf(t, thief.id);
    expect(flagged).toHaveLength(1);
    expect(flagged[0]).toMatchObject({
      chainFlag: 'foreign_amount',
      otherOrderIds: [owner.id],
      chainAmount: unitsToDecimal(owner.units),
    });
    const english = await t.app.inject({
      method: 'POST',
      url: API_PATHS.txHash(thief.id),
      headers: { ...headersFor(thief.seller), 'accept-language': 'en' },
      payload: { txHash: hash },
    });
    expect(expectError(english, 'TX_AMOUNT_MISMATCH').error).toMatch(/exact amount/);
    expect(refused.error).toMatch(/не ту сумму/);
    // Never told the transfer is used: it is the owner's, and the chain takes it for them.
    expect((await sendHash(t, owner.seller, owner.id, hash)).json()).toEqual({
      success: true,
      status: 'TX_PENDING',
    });
    expect(await checkOf(t, owner.id)).toMatchObject({ state: 'seen' });
  });

  it('a seller with a smaller sell pasting a larger transfer: 400 TX_AMOUNT_MISMATCH, never taken as an overpayment', async () => {
    const owner = await waitingSell(t, 'ERC20', 20_000);
    const thief = await waitingSell(t, 'ERC20', 5_000);
    const hash = await pay(chain, t, owner);
    expectError(await sendHash(t, thief.seller, thief.id, hash), 'TX_AMOUNT_MISMATCH');
    await expectStillWaiting(thief);
    expect((await alertsOf(t, thief.id))[0]).toMatchObject({ otherOrderIds: [owner.id] });
  });

  it("more than the order's own exact amount: 400 TX_AMOUNT_MISMATCH with what it sent and what the order expects, no operator flag", async () => {
    const sell = await waitingSell(t, 'ERC20', 18_888);
    const hash = await pay(chain, t, sell, { amount: amountOf(chain, sell) + 1_000_000n });
    const body = expectError(await sendHash(t, sell.seller, sell.id, hash), 'TX_AMOUNT_MISMATCH');
    expect(body).toMatchObject({
      sent: unitsToDecimal(sell.units + 1_000_000),
      expected: unitsToDecimal(sell.units),
    });
    await expectStillWaiting(sell);
    expect(await alertsOf(t, sell.id)).toEqual([]);
  });

  it('the same transfer submitted on two orders at the same moment: only the order of its exact amount takes it', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await waitingSell(t);
      const b = await waitingSell(t);
      const hash = await pay(chain, t, a);
      const answers = await Promise.all([
        sendHash(t, a.seller, a.id, hash),
        sendHash(t, b.seller, b.id, hash),
      ]);
      expect(answers.map((res) => res.statusCode)).toEqual([200, 400]);
      expect(answers[1].json<{ code: string }>().code).toBe('TX_AMOUNT_MISMATCH');
      const rows = await t.database.db
        .selectFrom('chain_checks')
        .select('order_id')
        .where('tx_hash', '=', hash.toLowerCase())
        .execute();
      expect(rows).toHaveLength(1);
    }
  });
});

describe('a hash the chain cannot judge yet is taken and looked for, never refused as not found', () => {
  it('a hash the node does not know (just broadcast): TX_PENDING, looking until the lookup window ends', async () => {
    const sell = await waitingSell(t);
    const hash = evmHash();
    expect((await sendHash(t, sell.seller, sell.id, hash)).json()).toEqual({
      success: true,
      status: 'TX_PENDING',
    });
    expect(await checkOf(t, sell.id)).toMatchObject({
      state: 'looking',
      log_index: null,
      attempts: 1,
      next_check_at: t.clock.now() + 15_000,
      look_until: t.clock.now() + t.config.chainLookupWindowMs,
      last_fault: null,
    });
  });

  it('a node answering 429: taken, looking, asked again no sooner than its Retry-After', async () => {
    const sell = await waitingSell(t);
    const hash = await pay(chain, t, sell);
    chain.faults.set({ kind: 'status', status: 429, headers: { 'retry-after': '40' } });
    const res = await sendHash(t, sell.seller, sell.id, hash);
    expect(res.json()).toEqual({ success: true, status: 'TX_PENDING' });
    const check = await checkOf(t, sell.id);
    expect(check).toMatchObject({ state: 'looking', log_index: null });
    expect(check?.last_fault).toMatch(/429/);
    expect(check?.next_check_at).toBe(t.clock.now() + 40_000);
  });

  it("a node that does not answer at all: taken within the submission's wait, looking", async () => {
    const sell = await waitingSell(t);
    const hash = await pay(chain, t, sell);
    chain.faults.set({ kind: 'hang' });
    const started = performance.now();
    const res = await sendHash(t, sell.seller, sell.id, hash);
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(res.json()).toEqual({ success: true, status: 'TX_PENDING' });
    expect(await checkOf(t, sell.id)).toMatchObject({ state: 'looking' });
    chain.faults.clear();
  }, 15_000);

  it('a node that is down (nothing listens): taken, looking, the fault kept', async () => {
    const down = await createChainTestApp(chain, {
      chain: evmChainConfig(chain, `http://127.0.0.1:${await deadPort()}`),
    });
    try {
      const sell = await waitingSell(down);
      const res = await sendHash(down, sell.seller, sell.id, evmHash());
      expect(res.json()).toEqual({ success: true, status: 'TX_PENDING' });
      const check = await checkOf(down, sell.id);
      expect(check).toMatchObject({ state: 'looking' });
      expect(check?.last_fault).not.toBeNull();
    } finally {
      await down.close();
    }
  });
});

describe('every call to a node is counted', () => {
  it('exchange_chain_calls_total counts the lookups by network, method and outcome, faults included', async () => {
    const sell = await waitingSell(t);
    const hash = await pay(chain, t, sell);
    chain.faults.set({ kind: 'status', status: 503 });
    await sendHash(t, sell.seller, sell.id, hash);
    chain.faults.clear();
    const res = await t.app.inject({
      method: 'GET',
      url: API_PATHS.metrics,
      remoteAddress: '127.0.0.1',
    });
    expect(res.body).toMatch(
      /exchange_chain_calls_total\{network="ERC20",method="getTransactionReceipt",outcome="ok"\} [1-9]/,
    );
    expect(res.body).toMatch(
      /exchange_chain_calls_total\{network="ERC20",method="getTransactionReceipt",outcome="http"\} [1-9]/,
    );
  });
});

describe('a network without a node stays manual', () => {
  it('a POLYGON sell takes any well-formed hash as before, with no check row', async () => {
    const seller = newCustomer('Seller');
    const id = await createOrder(t, seller, { type: 'SELL', total: 10_000, network: 'POLYGON' });
    const res = await sendHash(t, seller, id, evmHash());
    expect(res.json()).toEqual({ success: true, status: 'TX_PENDING' });
    expect(await checkOf(t, id)).toBeUndefined();
    expect((await statusOf(t, seller, id)).chainCheck).toBeNull();
  });
});
