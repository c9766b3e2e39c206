/**
 * An operator's payout checked on the chain (operator/operator-orders.ts `completeOrder`,
 * chain/payout-check.ts, the payout rule `judgePayout` in chain/deposit-rules.ts) against a real
 * EVM node (Hardhat in process): a buy is completed with its outgoing hash only when the transfer
 * succeeded, moves the order's coin's official contract, pays the customer's wallet, comes from the
 * exchange's payout address when PAYOUT_ADDRESS_EVM is set, sends at least the order's amount and
 * no more than a small tolerance beyond it, was made after the payment was confirmed and is no
 * other order's; otherwise it is refused with what is wrong. A hash the chain cannot confirm yet
 * (not found, node down) is its own refusal; an operator may override any refusal with a reason,
 * kept in the audit trail. A payout taken is followed by the chain checker until final, and the
 * customer's status answer shows its confirmations. A network without a node completes as before.
 */
import { randomBytes } from 'node:crypto';
import type { Address, Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPayoutAddresses } from '../../../src/server/platform/config/chain-config';
import { payoutTolerance } from '../../../src/server/chain/deposit-rules';
import { AUTOPILOT_DELAY_MS, runAutopilot } from '../../../src/server/operator/autopilot';
import { checkChainOnce, type ChainCheckContext } from '../../../src/server/chain/chain-checker';
import type { NotificationFacts } from '../../../src/server/orders/order-facts';
import { renderNotification } from '../../../src/server/notifications/render';
import { unitsToTokenAmount } from '../../../src/shared/money';
import type { NetworkId } from '../../../src/shared/networks';
import { AUTOPILOT_OPERATOR_ID, OPERATOR_PATHS } from '../../../src/shared/operator-api';
import { expectError, headersFor, post, statusOf, type TestUser } from '../../helpers/api';
import {
  CONFIRMATIONS,
  chainCheckContext,
  chainTimeNotBefore,
  createChainTestApp,
  evmChainConfig,
  tokenOf,
  useEvmChainApp,
  insertPaidBuy,
} from '../../helpers/chain-app';
import { deadPort, type EvmTestChain } from '../../helpers/evm-chain';
import { ORDER_DEFAULTS } from '../../helpers/orders';
import type { TestApp } from '../../helpers/test-app';

const OPERATOR = { id: 200_000_977, first_name: 'Olga' };

const env = useEvmChainApp({ operatorIds: [OPERATOR.id] });
let chain: EvmTestChain;
let t: TestApp;
let ctx: ChainCheckContext;

beforeAll(() => {
  ({ chain, t, ctx } = env);
});

interface PaidBuy {
  readonly id: string;
  readonly customer: TestUser;
  readonly network: NetworkId;
  readonly units: number;
  /** The customer's wallet: a fresh account of the chain for each order. */
  readonly wallet: Address;
}

/**
 * A P2P buy of 100 USDT on `network` whose payment the operator confirmed at `paidAt` (the
 * app's clock by default): PAYMENT_CONFIRMED, its event into that status written as the
 * transition writes it.
 */
async function paidBuy(
  network: NetworkId = 'ERC20',
  paidAt?: number,
  app: TestApp = t,
): Promise<PaidBuy> {
  const wallet: Address = `0x${randomBytes(20).toString('hex')}`;
  const units = 100_000_000;
  const buy = { network, wallet, units };
  const { id, customer } = await insertPaidBuy(app, OPERATOR.id, buy, paidAt ?? app.clock.now());
  return { id, customer, network, units, wallet };
}

/** Two buys to the first's wallet (the second's row moved to it), and one transfer paying the first. */
async function twoBuysOneTransfer(): Promise<{ first: PaidBuy; second: PaidBuy; hash: Hash }> {
  const first = await paidBuy();
  const hash = await payOut(first);
  const second = await paidBuy();
  await t.database.db
    .updateTable('orders')
    .set({ wallet_address: first.wallet })
    .where('id', '=', second.id)
    .execute();
  return { first, second, hash };
}

const amountOf = (buy: PaidBuy) =>
  unitsToTokenAmount(buy.units, tokenOf(chain, buy.network).decimals);

/**
 * The exchange's hot wallet (the chain's funded `customer` account) pays the buy, or `from`
 * does; `app` is the one whose clock the block must not be older than.
 */
async function payOut(
  buy: PaidBuy,
  options: { amount?: bigint; to?: Address; token?: Address; from?: Address } = {},
  app: TestApp = t,
): Promise<Hash> {
  await chainTimeNotBefore(chain, app);
  return chain.transfer(
    options.token ?? tokenOf(chain, buy.network).token,
    options.from ?? chain.customer,
    options.to ?? buy.wallet,
    options.amount ?? amountOf(buy),
  );
}

/** Gives the chain's `stranger` account USDT of its own, to pay a buy from another sender. */
async function fundStranger(): Promise<void> {
  await chain.transfer(chain.tokens.usdt6, chain.customer, chain.stranger, 10_000n * 10n ** 6n);
}

const complete = (id: string, body: Record<string, unknown>, app: TestApp = t) =>
  post(app, OPERATOR_PATHS.complete(id), body, OPERATOR);

const statusInDb = async (id: string, app: TestApp = t) =>
  (
    await app.database.db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).status;

const payoutCheckOf = (id: string, app: TestApp = t) =>
  app.database.db
    .selectFrom('chain_checks')
    .selectAll()
    .where('order_id', '=', id)
    .where('kind', '=', 'payout')
    .executeTakeFirst();

const completionEvent = (id: string, app: TestApp = t) =>
  app.database.db
    .selectFrom('order_events')
    .selectAll()
    .where('order_id', '=', id)
    .where('to_status', '=', 'COMPLETED')
    .executeTakeFirst();

/** A refusal leaves the buy waiting for its payout, with no payout row. */
async function expectNotCompleted(buy: PaidBuy, app: TestApp = t): Promise<void> {
  expect(await statusInDb(buy.id, app)).toBe('PAYMENT_CONFIRMED');
  expect(await payoutCheckOf(buy.id, app)).toBeUndefined();
}

/** The checker's next round, a second later on the app's clock. */
const round = () => {
  t.clock.advance(1_000);
  return checkChainOnce(ctx, t.clock.now());
};

describe('a right payout completes the buy and is followed until final', () => {
  it('a 6-decimal USDT payout of the exact amount to the customer completes, with a payout row and the evidence in the audit trail', async () => {
    const buy = await paidBuy('ERC20');
    const hash = await payOut(buy);
    const res = await complete(buy.id, { outgoingTxHash: hash });
    expect(res.json()).toEqual({ success: true, status: 'COMPLETED' });
    expect(await payoutCheckOf(buy.id)).toMatchObject({
      network: 'ERC20',
      tx_hash: hash.toLowerCase(),
      state: 'seen',
      amount: amountOf(buy).toString(),
      decimals: 6,
      contract: chain.tokens.usdt6,
      confirmations: 1,
      required_confirmations: CONFIRMATIONS,
    });
    expect((await completionEvent(buy.id))?.reason).toContain(`payout checked on ERC20: 100 USDT`);
  });

  it('the payout row counts confirmations to final; the done screen reads them from the status answer', async () => {
    const buy = await paidBuy('ERC20');
    const hash = await payOut(buy);
    expect((await complete(buy.id, { outgoingTxHash: hash })).statusCode).toBe(200);
    expect((await statusOf(t, buy.customer, buy.id)).chainCheck).toEqual({
      state: 'seen',
      confirmations: 1,
      required: CONFIRMATIONS,
    });
    await chain.mine(2);
    expect((await round()).outcomes.get(buy.id)).toBe('waiting');
    expect((await statusOf(t, buy.customer, buy.id)).chainCheck).toEqual({
      state: 'seen',
      confirmations: 3,
      required: CONFIRMATIONS,
    });
    await chain.mine(2);
    expect((await round()).outcomes.get(buy.id)).toBe('confirmed');
    expect(await payoutCheckOf(buy.id)).toMatchObject({ state: 'confirmed', confirmations: 5 });
    expect((await statusOf(t, buy.customer, buy.id)).chainCheck).toMatchObject({
      state: 'confirmed',
    });
    // The order was completed by the operator: the checker does not move it.
    expect(await statusInDb(buy.id)).toBe('COMPLETED');
  });

  it('a reorganised payout block flags operators and the payout is looked for again', async () => {
    const buy = await paidBuy('ERC20');
    const before = await chain.snapshot();
    const hash = await payOut(buy);
    expect((await complete(buy.id, { outgoingTxHash: hash })).statusCode).toBe(200);
    await chain.revert(before);
    await chain.mine(CONFIRMATIONS + 1);
    // Gone at its final read: read once more before anyone is told.
    expect((await round()).outcomes.get(buy.id)).toBe('waiting');
    expect((await round()).outcomes.get(buy.id)).toBe('flagged');
    expect(await payoutCheckOf(buy.id)).toMatchObject({ state: 'looking', reorged: 1 });
    const order = await t.database.db
      .selectFrom('orders')
      .select(['needs_attention', 'status'])
      .where('id', '=', buy.id)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ needs_attention: 1, status: 'COMPLETED' });
    // The operators' chat is told which payout, in both languages.
    const alerts = await t.database.db
      .selectFrom('notifications')
      .select('payload')
      .where('order_id', '=', buy.id)
      .where('kind', '=', 'flag_chain_deposit')
      .execute();
    expect(alerts).toHaveLength(1);
    const facts = JSON.parse(alerts[0]?.payload ?? '{}') as NotificationFacts;
    expect(facts.chainFlag).toBe('payout_reorged');
    const options = { botUsername: undefined, supportUrl: t.config.supportUrl };
    const en = renderNotification('flag_chain_deposit', facts, 'en', options).text;
    expect(en).toContain('the payout disappeared from the chain before its confirmations');
    expect(en).toContain(hash);
    expect(renderNotification('flag_chain_deposit', facts, 'ru', options).text).toContain(
      'выплата пропала из сети до нужного числа подтверждений',
    );
  });

  it('converts the order to an 18-decimal token exactly (BEP20): a payout one base unit short is refused, the exact one taken', async () => {
    const buy = await paidBuy('BEP20');
    expect(amountOf(buy)).toBe(BigInt(buy.units) * 10n ** 12n);
    const short = await payOut(buy, { amount: amountOf(buy) - 1n });
    const refused = expectError(await complete(buy.id, { outgoingTxHash: short }), 'TX_UNDERPAID');
    expect(refused).toMatchObject({ coin: 'USDT', shortfall: '0.000000000000000001' });
    const exact = await payOut(buy);
    expect((await complete(buy.id, { outgoingTxHash: exact })).statusCode).toBe(200);
    expect(await payoutCheckOf(buy.id)).toMatchObject({
      amount: amountOf(buy).toString(),
      decimals: 18,
    });
  });
});

describe('a wrong payout is refused with what is wrong, the buy stays PAYMENT_CONFIRMED', () => {
  it('a transaction that failed: 400 TX_FAILED', async () => {
    const buy = await paidBuy();
    await chainTimeNotBefore(chain, t);
    const hash = await chain.failingTransfer(
      chain.tokens.usdt6,
      chain.stranger,
      buy.wallet,
      amountOf(buy),
    );
    expectError(await complete(buy.id, { outgoingTxHash: hash }), 'TX_FAILED');
    await expectNotCompleted(buy);
  });

  it('a look-alike token instead of the official contract: 400 TX_WRONG_TOKEN', async () => {
    const buy = await paidBuy();
    const hash = await payOut(buy, { token: chain.tokens.lookAlike });
    const body = expectError(await complete(buy.id, { outgoingTxHash: hash }), 'TX_WRONG_TOKEN');
    expect(body.coin).toBe('USDT');
    await expectNotCompleted(buy);
  });

  it("a transfer to another wallet than the customer's: 400 TX_WRONG_RECIPIENT", async () => {
    const buy = await paidBuy();
    const hash = await payOut(buy, { to: chain.stranger });
    expectError(await complete(buy.id, { outgoingTxHash: hash }), 'TX_WRONG_RECIPIENT');
    await expectNotCompleted(buy);
  });

  it('less than the order: 400 TX_UNDERPAID with the shortfall', async () => {
    const buy = await paidBuy();
    const hash = await payOut(buy, { amount: amountOf(buy) - 500_000n });
    const body = expectError(await complete(buy.id, { outgoingTxHash: hash }), 'TX_UNDERPAID');
    expect(body).toMatchObject({ coin: 'USDT', shortfall: '0.5' });
    await expectNotCompleted(buy);
  });

  it('a transfer made before the payment was confirmed: 400 TX_BEFORE_PAYMENT', async () => {
    const latest = (await chain.rpc('eth_getBlockByNumber', ['latest', false])) as {
      timestamp: string;
    };
    const chainNow = Number(BigInt(latest.timestamp)) * 1000;
    // The payment was confirmed ten minutes after anything the chain holds now.
    const buy = await paidBuy('ERC20', Math.max(chainNow, t.clock.now()) + 600_000);
    const hash = await payOut(buy);
    expectError(await complete(buy.id, { outgoingTxHash: hash }), 'TX_BEFORE_PAYMENT');
    await expectNotCompleted(buy);
  });

  it('the transfer already paid out another order: 409 TX_ALREADY_USED (the unique index)', async () => {
    const { first, second, hash } = await twoBuysOneTransfer();
    expect((await complete(first.id, { outgoingTxHash: hash })).statusCode).toBe(200);
    expectError(await complete(second.id, { outgoingTxHash: hash }), 'TX_ALREADY_USED');
    await expectNotCompleted(second);
  });
});

describe('a payout the chain cannot confirm yet', () => {
  it('a hash the node does not know: 409 TX_UNCONFIRMED, not a wrong payout', async () => {
    const buy = await paidBuy();
    const hash = `0x${randomBytes(32).toString('hex')}`;
    expectError(await complete(buy.id, { outgoingTxHash: hash }), 'TX_UNCONFIRMED');
    await expectNotCompleted(buy);
  });

  it('a node that answers 503: 409 TX_UNCONFIRMED; completed with a reason, the payout is looked for', async () => {
    const buy = await paidBuy();
    const hash = await payOut(buy);
    chain.faults.set({ kind: 'status', status: 503 });
    expectError(await complete(buy.id, { outgoingTxHash: hash }), 'TX_UNCONFIRMED');
    await expectNotCompleted(buy);
    const res = await complete(buy.id, {
      outgoingTxHash: hash,
      overrideReason: '  Sent from the cold wallet; the node is down  ',
    });
    expect(res.json()).toEqual({ success: true, status: 'COMPLETED' });
    expect((await completionEvent(buy.id))?.reason).toBe(
      'payout check overridden (TX_UNCONFIRMED): Sent from the cold wallet; the node is down',
    );
    expect(await payoutCheckOf(buy.id)).toMatchObject({ state: 'looking', log_index: null });
    // The node is back: the checker finds the payout right and follows it.
    chain.faults.clear();
    t.clock.advance(60_000);
    expect((await checkChainOnce(ctx, t.clock.now())).outcomes.get(buy.id)).toBe('seen');
    expect(await payoutCheckOf(buy.id)).toMatchObject({ state: 'seen' });
  });

  it("a node that does not answer at all: TX_UNCONFIRMED within the completion's wait", async () => {
    const buy = await paidBuy();
    const hash = await payOut(buy);
    chain.faults.set({ kind: 'hang' });
    const started = performance.now();
    expectError(await complete(buy.id, { outgoingTxHash: hash }), 'TX_UNCONFIRMED');
    expect(performance.now() - started).toBeLessThan(6_000);
    await expectNotCompleted(buy);
    chain.faults.clear();
  }, 15_000);

  it('a node on a dead port: TX_UNCONFIRMED too (every fault is "cannot confirm yet")', async () => {
    const dead = await createChainTestApp(
      chain,
      {
        operatorIds: [OPERATOR.id],
        chain: evmChainConfig(chain, `http://127.0.0.1:${await deadPort()}`),
      },
      {},
    );
    try {
      const buy = await paidBuyIn(dead);
      const hash = `0x${randomBytes(32).toString('hex')}`;
      expectError(await complete(buy, { outgoingTxHash: hash }, dead), 'TX_UNCONFIRMED');
      expect(await statusInDb(buy, dead)).toBe('PAYMENT_CONFIRMED');
    } finally {
      await dead.close();
    }
  });
});

describe('an override with a reason', () => {
  it('completes a refused payout and keeps the reason with the problem it overrode', async () => {
    const buy = await paidBuy();
    const hash = await payOut(buy, { amount: amountOf(buy) - 500_000n });
    const res = await complete(buy.id, {
      outgoingTxHash: hash,
      overrideReason: 'The customer agreed to the fee by chat',
    });
    expect(res.json()).toEqual({ success: true, status: 'COMPLETED' });
    const event = await completionEvent(buy.id);
    expect(event).toMatchObject({
      actor: 'operator',
      actor_id: OPERATOR.id,
      reason: 'payout check overridden (TX_UNDERPAID): The customer agreed to the fee by chat',
    });
    // A wrong transfer is not followed as the payout.
    expect(await payoutCheckOf(buy.id)).toBeUndefined();
    expect((await statusOf(t, buy.customer, buy.id)).chainCheck).toBeNull();
  });

  it('a reason of blanks is no reason: 400 VALIDATION_FAILED, the buy stays', async () => {
    const buy = await paidBuy();
    const hash = await payOut(buy, { to: chain.stranger });
    expectError(
      await complete(buy.id, { outgoingTxHash: hash, overrideReason: '   ' }),
      'VALIDATION_FAILED',
    );
    await expectNotCompleted(buy);
  });

  it('a reason longer than 500 characters: 400 VALIDATION_FAILED', async () => {
    const buy = await paidBuy();
    const hash = await payOut(buy, { to: chain.stranger });
    expectError(
      await complete(buy.id, { outgoingTxHash: hash, overrideReason: 'x'.repeat(501) }),
      'VALIDATION_FAILED',
    );
    await expectNotCompleted(buy);
  });

  it('overrides the transfer of another order too, with no second payout row', async () => {
    const { first, second, hash } = await twoBuysOneTransfer();
    expect((await complete(first.id, { outgoingTxHash: hash })).statusCode).toBe(200);
    const res = await complete(second.id, {
      outgoingTxHash: hash,
      overrideReason: 'One transfer paid both orders of the same customer',
    });
    expect(res.statusCode).toBe(200);
    expect((await completionEvent(second.id))?.reason).toContain('(TX_ALREADY_USED)');
    expect(await payoutCheckOf(second.id)).toBeUndefined();
  });
});

describe("judgePayout's amount: more than the order's amount beyond PAYOUT_OVERPAY_TOLERANCE is refused", () => {
  it('the tolerance is 1 % of the amount, at most one whole coin', () => {
    expect(payoutTolerance(50_000_000n, 6)).toBe(500_000n);
    expect(payoutTolerance(100_000_000n, 6)).toBe(1_000_000n);
    expect(payoutTolerance(10_000n * 10n ** 18n, 18)).toBe(10n ** 18n);
  });

  it("a payout of ten times the order's amount: 400 TX_OVERPAID with what it sent and what the order expects, the buy stays", async () => {
    const buy = await paidBuy();
    const hash = await payOut(buy, { amount: amountOf(buy) * 10n });
    const body = expectError(await complete(buy.id, { outgoingTxHash: hash }), 'TX_OVERPAID');
    expect(body).toMatchObject({ coin: 'USDT', sent: '1000', expected: '100' });
    await expectNotCompleted(buy);
  });

  it('within the tolerance (1 USDT over a 100 USDT buy): taken, with the evidence of what it sent; one base unit more is TX_OVERPAID', async () => {
    const buy = await paidBuy();
    const beyond = await payOut(buy, { amount: amountOf(buy) + 1_000_001n });
    const body = expectError(await complete(buy.id, { outgoingTxHash: beyond }), 'TX_OVERPAID');
    expect(body).toMatchObject({ coin: 'USDT', sent: '101.000001', expected: '100' });
    const within = await payOut(buy, { amount: amountOf(buy) + 1_000_000n });
    const res = await complete(buy.id, { outgoingTxHash: within });
    expect(res.json()).toEqual({ success: true, status: 'COMPLETED' });
    expect(await payoutCheckOf(buy.id)).toMatchObject({ amount: '101000000', state: 'seen' });
    expect((await completionEvent(buy.id))?.reason).toContain('101 USDT');
  });

  it('an operator can still complete an overpaid payout with an overrideReason, audited with TX_OVERPAID', async () => {
    const buy = await paidBuy();
    const hash = await payOut(buy, { amount: amountOf(buy) * 10n });
    const res = await complete(buy.id, {
      outgoingTxHash: hash,
      overrideReason: 'Two orders of the customer paid at once; the other is refunded',
    });
    expect(res.json()).toEqual({ success: true, status: 'COMPLETED' });
    expect((await completionEvent(buy.id))?.reason).toBe(
      'payout check overridden (TX_OVERPAID): Two orders of the customer paid at once; the other is refunded',
    );
    expect(await payoutCheckOf(buy.id)).toBeUndefined();
  });
});

describe("judgePayout's sender: with PAYOUT_ADDRESS_EVM set, a payout must come from it", () => {
  let guarded: TestApp;
  let guardedCtx: ChainCheckContext;

  beforeAll(async () => {
    // The exchange's hot wallet is the chain's `customer` account, which pays every buy here.
    guarded = await createChainTestApp(chain, {
      operatorIds: [OPERATOR.id],
      chain: withPayoutAddresses(evmChainConfig(chain), { evm: chain.customer }),
    });
    guardedCtx = chainCheckContext(guarded);
    await fundStranger();
  });

  afterAll(async () => {
    await guarded.close();
  });

  const completeIn = (id: string, body: Record<string, unknown>, language: 'en' | 'ru' = 'en') =>
    guarded.app.inject({
      method: 'POST',
      url: OPERATOR_PATHS.complete(id),
      headers: { ...headersFor(OPERATOR), 'accept-language': language },
      payload: body,
    });

  it('a payout from PAYOUT_ADDRESS_EVM to the customer completes the buy', async () => {
    const buy = await paidBuy('ERC20', undefined, guarded);
    const hash = await payOut(buy, {}, guarded);
    expect((await completeIn(buy.id, { outgoingTxHash: hash })).json()).toEqual({
      success: true,
      status: 'COMPLETED',
    });
    expect(await payoutCheckOf(buy.id, guarded)).toMatchObject({ state: 'seen' });
  });

  it('a payout from another sender than PAYOUT_ADDRESS_EVM: 400 TX_WRONG_SENDER, in both languages; the buy stays', async () => {
    const buy = await paidBuy('ERC20', undefined, guarded);
    const hash = await payOut(buy, { from: chain.stranger }, guarded);
    const en = expectError(await completeIn(buy.id, { outgoingTxHash: hash }), 'TX_WRONG_SENDER');
    expect(en.error).toBe(
      "This transaction was not sent from the exchange's payout wallet: anyone could have made such a transfer, the customer included. Give the hash of the payout from the exchange's wallet, or complete with a reason.",
    );
    const ru = expectError(
      await completeIn(buy.id, { outgoingTxHash: hash }, 'ru'),
      'TX_WRONG_SENDER',
    );
    expect(ru.error).toContain('отправлена не с кошелька выплат обменника');
    await expectNotCompleted(buy, guarded);
  });

  it("the sender is told after the recipient: another sender's transfer to another wallet is TX_WRONG_RECIPIENT", async () => {
    const buy = await paidBuy('ERC20', undefined, guarded);
    const hash = await payOut(buy, { from: chain.stranger, to: chain.deposit }, guarded);
    expectError(await completeIn(buy.id, { outgoingTxHash: hash }), 'TX_WRONG_RECIPIENT');
    await expectNotCompleted(buy, guarded);
  });

  it('an operator can still complete with an overrideReason, audited with TX_WRONG_SENDER; the transfer is not followed', async () => {
    const buy = await paidBuy('ERC20', undefined, guarded);
    const hash = await payOut(buy, { from: chain.stranger }, guarded);
    const res = await completeIn(buy.id, {
      outgoingTxHash: hash,
      overrideReason: 'Paid from the cold wallet while the hot one is refilled',
    });
    expect(res.json()).toEqual({ success: true, status: 'COMPLETED' });
    expect((await completionEvent(buy.id, guarded))?.reason).toBe(
      'payout check overridden (TX_WRONG_SENDER): Paid from the cold wallet while the hot one is refilled',
    );
    expect(await payoutCheckOf(buy.id, guarded)).toBeUndefined();
  });

  it('the chain checker judges a payout it looks for later with the same payout address: from another sender, it is flagged payout_wrong', async () => {
    const buy = await paidBuy('ERC20', undefined, guarded);
    const hash = await payOut(buy, { from: chain.stranger }, guarded);
    chain.faults.set({ kind: 'status', status: 503 });
    const res = await completeIn(buy.id, {
      outgoingTxHash: hash,
      overrideReason: 'The node is down; the explorer shows the payout',
    });
    expect(res.json()).toEqual({ success: true, status: 'COMPLETED' });
    expect(await payoutCheckOf(buy.id, guarded)).toMatchObject({ state: 'looking' });
    chain.faults.clear();
    guarded.clock.advance(60_000);
    const checked = await checkChainOnce(guardedCtx, guarded.clock.now());
    expect(checked.outcomes.get(buy.id)).toBe('flagged');
    expect(await payoutCheckOf(buy.id, guarded)).toMatchObject({ state: 'wrong' });
    const alerts = await guarded.database.db
      .selectFrom('notifications')
      .select('payload')
      .where('order_id', '=', buy.id)
      .where('kind', '=', 'flag_chain_deposit')
      .execute();
    expect(alerts.map((a) => (JSON.parse(a.payload) as NotificationFacts).chainFlag)).toEqual([
      'payout_wrong',
    ]);
  });
});

describe('with no payout address configured', () => {
  it("any sender's transfer of the order's amount to the customer's wallet is taken, as before", async () => {
    await fundStranger();
    const buy = await paidBuy();
    const hash = await payOut(buy, { from: chain.stranger });
    expect((await complete(buy.id, { outgoingTxHash: hash })).json()).toEqual({
      success: true,
      status: 'COMPLETED',
    });
  });
});

describe('a network without a node', () => {
  it('completes as before: no lookup, no payout row, no chain check in the status answer', async () => {
    const buy = await paidBuy('POLYGON');
    const requests = chain.faults.requests;
    const hash = `0x${randomBytes(32).toString('hex')}`;
    const res = await complete(buy.id, { outgoingTxHash: hash });
    expect(res.json()).toEqual({ success: true, status: 'COMPLETED' });
    expect(chain.faults.requests).toBe(requests);
    expect(await payoutCheckOf(buy.id)).toBeUndefined();
    expect((await statusOf(t, buy.customer, buy.id)).chainCheck).toBeNull();
    expect((await completionEvent(buy.id))?.reason).toBeNull();
  });
});

describe("the demo's autopilot leaves a payout on a network read from a node to a person", () => {
  it('a paid buy on ERC20 (a node) is not completed with a made-up hash; on POLYGON (manual) it is', async () => {
    const checked = await paidBuy('ERC20');
    const manual = await paidBuy('POLYGON');
    // The autopilot confirmed their payments: a person's action would have taken them from it.
    await t.database.db
      .updateTable('order_events')
      .set({ actor_id: AUTOPILOT_OPERATOR_ID })
      .where('order_id', 'in', [checked.id, manual.id])
      .execute();
    const requests = chain.faults.requests;
    t.clock.advance(AUTOPILOT_DELAY_MS);
    await runAutopilot(t.app, t.app.log);
    expect(await statusInDb(checked.id)).toBe('PAYMENT_CONFIRMED');
    expect(await statusInDb(manual.id)).toBe('COMPLETED');
    // No lookup of a made-up hash was made, pass after pass.
    expect(chain.faults.requests).toBe(requests);
  });
});

/** A paid buy in another app (its own database). */
async function paidBuyIn(app: TestApp): Promise<string> {
  const buy = {
    network: 'ERC20',
    wallet: chain.stranger,
    units: ORDER_DEFAULTS.amount_units,
  } as const;
  return (await insertPaidBuy(app, OPERATOR.id, buy)).id;
}
