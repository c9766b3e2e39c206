/**
 * The chain checker of a seller's deposit (chain/chain-checker.ts) against a real EVM
 * node (Hardhat in process): a deposit seen counts its confirmations as blocks are mined and
 * the order reaches TX_CONFIRMED by itself, actor `chain`, with the evidence in its audit trail;
 * a hash not known yet is found later and judged by the same rule as at the submission; an
 * overpayment is confirmed and flagged; a reorganised block takes the check back to looking,
 * flagged; a hash never found is flagged once after the window; node faults are never judged;
 * an order moved by an operator closes its check; two instances split the rows.
 */
import { randomBytes } from 'node:crypto';
import { encodeFunctionData, erc20Abi, type Address, type Hash } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { createChainReaders } from '../../../src/server/chain/readers/chain-readers';
import { AUTOPILOT_DELAY_MS, runAutopilot } from '../../../src/server/operator/autopilot';
import {
  CHAIN_CHECK_LEASE_MS,
  checkChainOnce,
  lookupsPerRound,
  type ChainCheckContext,
} from '../../../src/server/chain/chain-checker';
import type { ChainReader } from '../../../src/server/chain/readers/chain-reader';
import { unmatchedDeposits } from '../../../src/server/operator/incoming-deposits';
import type { NotificationFacts } from '../../../src/server/orders/order-facts';
import { renderNotification } from '../../../src/server/notifications/render';
import { API_PATHS } from '../../../src/shared/api';
import { formatDecimalText } from '../../../src/shared/format';
import { tokenAmountToDecimal, unitsToDecimal } from '../../../src/shared/money';
import type { OperatorOrderResponse } from '../../../src/shared/operator-api';
import { post, statusOf, type TestUser } from '../../helpers/api';
import {
  CONFIRMATIONS,
  amountOf,
  chainTimeNotBefore,
  createChainTestApp,
  pay,
  tokenOf,
  waitingSell,
  type WaitingSell,
  useEvmChainApp,
  chainCheckContext,
  chainCheckOf,
} from '../../helpers/chain-app';
import { type EvmTestChain } from '../../helpers/evm-chain';
import { authHeader, initDataFor } from '../../helpers/identity';
import type { TestApp } from '../../helpers/test-app';

const OPERATOR = { id: 200_000_923, first_name: 'Olga' };

const env = useEvmChainApp({ operatorIds: [OPERATOR.id] });
let chain: EvmTestChain;
let t: TestApp;
let ctx: ChainCheckContext;

beforeAll(() => {
  ({ chain, t } = env);
  // Rounds an hour apart in the ration's terms: every due lookup fits in a round, whatever the
  // rows earlier tests left looking (the ration has its own test below).
  ctx = chainCheckContext(t, { ...t.config, chainCheckIntervalMs: 60 * 60_000 });
});

const sendHash = (user: TestUser, id: string, txHash: string) =>
  post(t, API_PATHS.txHash(id), { txHash }, user);

/** The checker's next round: a second later on the app's clock (rounds never share a time). */
const round = () => {
  t.clock.advance(1_000);
  return checkChainOnce(ctx, t.clock.now());
};

const checkOf = async (id: string) => {
  const check = await chainCheckOf(t, id);
  if (check === undefined) throw new Error(`order ${id} has no deposit check`);
  return check;
};

const versionOf = async (id: string) =>
  (
    await t.database.db
      .selectFrom('orders')
      .select('version')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).version;

const orderOf = (id: string) =>
  t.database.db
    .selectFrom('orders')
    .select(['status', 'needs_attention', 'tx_hash'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const alertsOf = (id: string) =>
  t.database.db
    .selectFrom('notifications')
    .select(['kind', 'payload'])
    .where('order_id', '=', id)
    .where('kind', '=', 'flag_chain_deposit')
    .execute();

/** A paid sell whose right hash was taken: TX_PENDING, its check seen. */
async function seenDeposit(
  network: WaitingSell['network'] = 'ERC20',
  amount?: bigint,
): Promise<{ sell: WaitingSell; hash: Hash }> {
  const sell = await waitingSell(t, network);
  const hash = await pay(chain, t, sell, amount === undefined ? {} : { amount });
  expect((await sendHash(sell.seller, sell.id, hash)).statusCode).toBe(200);
  expect((await checkOf(sell.id)).state).toBe('seen');
  return { sell, hash };
}

/**
 * A transfer broadcast and not mined yet (automine off): the node answers its hash as not
 * found until the next block.
 */
async function broadcast(
  sell: WaitingSell,
  to: Address = chain.deposit,
  amount: bigint = amountOf(chain, sell),
): Promise<Hash> {
  await chainTimeNotBefore(chain, t);
  await chain.rpc('evm_setAutomine', [false]);
  try {
    return (await chain.rpc('eth_sendTransaction', [
      {
        from: chain.customer,
        to: tokenOf(chain, sell.network).token,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [to, amount],
        }),
        gas: '0x30000',
      },
    ])) as Hash;
  } finally {
    await chain.rpc('evm_setAutomine', [true]);
  }
}

describe('a deposit seen counts its confirmations and confirms the order by itself', () => {
  it('1 → 3 → 5 confirmations as blocks are mined; at 5 the order is TX_CONFIRMED by actor chain, the evidence in order_events', async () => {
    const { sell, hash } = await seenDeposit();
    const block = (await checkOf(sell.id)).block_number;
    const answer = async () => (await statusOf(t, sell.seller, sell.id)).chainCheck;
    expect(await answer()).toEqual({ state: 'seen', confirmations: 1, required: CONFIRMATIONS });
    const version = await versionOf(sell.id);
    expect((await round()).outcomes.get(sell.id)).toBe('waiting');
    expect((await checkOf(sell.id)).confirmations).toBe(1);
    // Due again at the next round only: a round never claims a row it has checked (batches
    // and lanes claim until nothing is due at the round's time).
    expect((await checkOf(sell.id)).next_check_at).toBeGreaterThan(t.clock.now());
    // The round's lease and release changed nothing the customer sees: the same version.
    expect(await versionOf(sell.id)).toBe(version);
    await chain.mine(2);
    await round();
    expect((await checkOf(sell.id)).confirmations).toBe(3);
    // The kept status answer was built again: the check's change moved the order's version on.
    expect(await answer()).toEqual({ state: 'seen', confirmations: 3, required: CONFIRMATIONS });
    expect((await orderOf(sell.id)).status).toBe('TX_PENDING');
    await chain.mine(2);
    expect((await round()).outcomes.get(sell.id)).toBe('confirmed');
    expect(await answer()).toEqual({ state: 'confirmed', confirmations: 5, required: 5 });
    expect(await checkOf(sell.id)).toMatchObject({ state: 'confirmed', confirmations: 5 });
    expect(await orderOf(sell.id)).toMatchObject({ status: 'TX_CONFIRMED', needs_attention: 0 });
    const event = await t.database.db
      .selectFrom('order_events')
      .selectAll()
      .where('order_id', '=', sell.id)
      .where('to_status', '=', 'TX_CONFIRMED')
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ actor: 'chain', actor_id: null, from_status: 'TX_PENDING' });
    const check = await checkOf(sell.id);
    for (const part of [
      `block ${block}`,
      `${CONFIRMATIONS} confirmations`,
      `${amountOf(chain, sell)} base units`,
      chain.customer,
      chain.tokens.usdt6,
      hash.toLowerCase(),
      `log ${check.log_index}`,
    ]) {
      expect(event.reason).toContain(part);
    }
    expect(await alertsOf(sell.id)).toEqual([]);
  });

  it('an 18-decimal deposit (BEP20) confirms with its exact amount in the evidence', async () => {
    const { sell } = await seenDeposit('BEP20');
    await chain.mine(CONFIRMATIONS);
    expect((await round()).outcomes.get(sell.id)).toBe('confirmed');
    const event = await t.database.db
      .selectFrom('order_events')
      .select('reason')
      .where('order_id', '=', sell.id)
      .where('to_status', '=', 'TX_CONFIRMED')
      .executeTakeFirstOrThrow();
    expect(event.reason).toContain(`(${BigInt(sell.units) * 10n ** 12n} base units, 18 decimals)`);
  });

  it('more than the exact amount, found after its hash was taken: never confirmed by the chain, flagged for operators with what it sent', async () => {
    const sell = await waitingSell(t, 'ERC20', 14_141);
    const sent = amountOf(chain, sell) + 1_250_000n;
    const hash = await broadcast(sell, chain.deposit, sent);
    expect((await sendHash(sell.seller, sell.id, hash)).statusCode).toBe(200);
    await chain.mine(CONFIRMATIONS);
    t.clock.advance(15_000);
    expect((await round()).outcomes.get(sell.id)).toBe('flagged');
    await round();
    expect(await orderOf(sell.id)).toMatchObject({ status: 'TX_PENDING', needs_attention: 1 });
    expect((await checkOf(sell.id)).state).toBe('wrong');
    const alerts = await alertsOf(sell.id);
    expect(alerts).toHaveLength(1);
    const facts = JSON.parse(alerts[0]?.payload ?? '{}') as NotificationFacts;
    const amount = tokenAmountToDecimal(sent, 6);
    expect(facts).toMatchObject({ chainFlag: 'wrong_amount', chainAmount: amount });
    // What the operators' chat reads, in both languages.
    const options = { botUsername: undefined, supportUrl: t.config.supportUrl };
    expect(renderNotification('flag_chain_deposit', facts, 'en', options).text).toContain(
      `it pays ${formatDecimalText(amount, 'en')} USDT, not the order’s exact amount`,
    );
    expect(renderNotification('flag_chain_deposit', facts, 'ru', options).text).toContain(
      `она переводит ${formatDecimalText(amount, 'ru')} USDT, а не точную сумму заказа`,
    );
  });

  it("a hash pasted by another seller before it is mined reserves nothing: its owner's paste is taken, the chain confirms the owner's order and flags the other with both orders", async () => {
    const owner = await waitingSell(t);
    const thief = await waitingSell(t);
    const hash = await broadcast(owner);
    expect((await sendHash(thief.seller, thief.id, hash)).statusCode).toBe(200);
    expect((await sendHash(owner.seller, owner.id, hash)).json()).toEqual({
      success: true,
      status: 'TX_PENDING',
    });
    await chain.mine(1);
    t.clock.advance(15_000);
    const outcomes = (await round()).outcomes;
    expect(outcomes.get(owner.id)).toBe('seen');
    expect(outcomes.get(thief.id)).toBe('flagged');
    const [alert] = await alertsOf(thief.id);
    expect(JSON.parse(alert?.payload ?? '{}')).toMatchObject({
      chainFlag: 'foreign_amount',
      otherOrderIds: [owner.id],
    });
    await chain.mine(CONFIRMATIONS);
    await round();
    expect((await orderOf(owner.id)).status).toBe('TX_CONFIRMED');
    expect(await orderOf(thief.id)).toMatchObject({ status: 'TX_PENDING', needs_attention: 1 });
  });

  it('a transfer gone before its confirmations (a reorganised block): read once more, then back to looking, flagged', async () => {
    const before = await chain.snapshot();
    const { sell } = await seenDeposit();
    const seenIn = (await checkOf(sell.id)).block_number;
    await chain.revert(before);
    await chain.mine(CONFIRMATIONS + 1);
    // Gone at its final read: nobody is told yet, it is read again at the next round.
    expect((await round()).outcomes.get(sell.id)).toBe('waiting');
    expect(await alertsOf(sell.id)).toEqual([]);
    expect((await round()).outcomes.get(sell.id)).toBe('flagged');
    expect(await checkOf(sell.id)).toMatchObject({
      state: 'looking',
      reorged: 1,
      log_index: null,
      block_number: null,
      confirmations: 0,
    });
    expect(await orderOf(sell.id)).toMatchObject({ status: 'TX_PENDING', needs_attention: 1 });
    expect((await statusOf(t, sell.seller, sell.id)).chainCheck).toEqual({
      state: 'reorged',
      confirmations: 0,
      required: CONFIRMATIONS,
    });
    const alerts = await alertsOf(sell.id);
    expect(alerts.map((a) => (JSON.parse(a.payload) as { chainFlag: string }).chainFlag)).toEqual([
      'reorged',
    ]);
    expect(seenIn).not.toBeNull();
  });
});

describe('a hash not known at the submission is looked for with backoff', () => {
  it('a receipt missing once at the final read (a node behind a balancer) is read again, and the deposit confirms with nobody told of a reorganisation', async () => {
    const { sell } = await seenDeposit();
    await chain.mine(CONFIRMATIONS);
    chain.faults.set({ kind: 'null-result' }, ['eth_getTransactionReceipt']);
    expect((await round()).outcomes.get(sell.id)).toBe('waiting');
    chain.faults.clear();
    expect((await round()).outcomes.get(sell.id)).toBe('confirmed');
    expect(await alertsOf(sell.id)).toEqual([]);
    expect((await checkOf(sell.id)).reorged).toBe(0);
  });

  it('a transfer found at its final read in another block of the same height (another hash): a reorganisation, never confirmed on the block it was seen in', async () => {
    const { sell } = await seenDeposit();
    await t.database.db
      .updateTable('chain_checks')
      .set({ block_hash: `0x${'ab'.repeat(32)}` })
      .where('order_id', '=', sell.id)
      .execute();
    await chain.mine(CONFIRMATIONS);
    expect((await round()).outcomes.get(sell.id)).toBe('flagged');
    expect(await checkOf(sell.id)).toMatchObject({
      state: 'looking',
      reorged: 1,
      block_hash: null,
    });
    const [alert] = await alertsOf(sell.id);
    expect(JSON.parse(alert?.payload ?? '{}')).toMatchObject({ chainFlag: 'reorged' });
    expect((await orderOf(sell.id)).status).toBe('TX_PENDING');
  });

  it("counted deep enough but above the node's safe block: not final until the safe block reaches it", async () => {
    const { sell } = await seenDeposit();
    expect((await checkOf(sell.id)).block_hash).toMatch(/^0x[0-9a-f]{64}$/);
    await chain.mine(CONFIRMATIONS);
    chain.faults.set({ kind: 'safe-behind', blocks: 2 * CONFIRMATIONS });
    expect((await round()).outcomes.get(sell.id)).toBe('waiting');
    expect((await orderOf(sell.id)).status).toBe('TX_PENDING');
    chain.faults.clear();
    expect((await round()).outcomes.get(sell.id)).toBe('confirmed');
  });

  it('broadcast, not mined: taken as looking; once mined, the next due round finds it seen', async () => {
    const sell = await waitingSell(t);
    const hash = await broadcast(sell);
    expect((await sendHash(sell.seller, sell.id, hash)).statusCode).toBe(200);
    expect((await checkOf(sell.id)).state).toBe('looking');
    expect((await statusOf(t, sell.seller, sell.id)).chainCheck).toEqual({
      state: 'looking',
      confirmations: 0,
      required: CONFIRMATIONS,
    });
    // Not due before its first retry: the round makes no call for it.
    expect((await round()).outcomes.has(sell.id)).toBe(false);
    await chain.mine(1);
    t.clock.advance(15_000);
    expect((await round()).outcomes.get(sell.id)).toBe('seen');
    expect(await checkOf(sell.id)).toMatchObject({ state: 'seen', attempts: 2, confirmations: 1 });
  });

  it('not found again: the wait doubles (15 s, 30 s, 60 s) up to 5 minutes', async () => {
    const sell = await waitingSell(t);
    expect(
      (await sendHash(sell.seller, sell.id, `0x${randomBytes(32).toString('hex')}`)).statusCode,
    ).toBe(200);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const due = (await checkOf(sell.id)).next_check_at;
      t.clock.current = due;
      expect((await checkChainOnce(ctx, due)).outcomes.get(sell.id)).toBe('waiting');
      waits.push((await checkOf(sell.id)).next_check_at - due);
    }
    expect(waits).toEqual([30_000, 60_000, 120_000, 240_000, 300_000, 300_000]);
  });

  it('found later and wrong (to another address): flagged for operators, the order stays TX_PENDING', async () => {
    const sell = await waitingSell(t);
    const hash = await broadcast(sell, chain.stranger);
    expect((await sendHash(sell.seller, sell.id, hash)).statusCode).toBe(200);
    await chain.mine(1);
    t.clock.advance(15_000);
    expect((await round()).outcomes.get(sell.id)).toBe('flagged');
    expect((await checkOf(sell.id)).state).toBe('wrong');
    expect(await orderOf(sell.id)).toMatchObject({ status: 'TX_PENDING', needs_attention: 1 });
    const [alert] = await alertsOf(sell.id);
    expect(JSON.parse(alert?.payload ?? '{}')).toMatchObject({ chainFlag: 'wrong_recipient' });
  });

  it('never found within the lookup window: not_found, flagged once', async () => {
    const sell = await waitingSell(t);
    expect(
      (await sendHash(sell.seller, sell.id, `0x${randomBytes(32).toString('hex')}`)).statusCode,
    ).toBe(200);
    t.clock.advance(t.config.chainLookupWindowMs);
    expect((await round()).outcomes.get(sell.id)).toBe('flagged');
    expect((await checkOf(sell.id)).state).toBe('not_found');
    expect((await statusOf(t, sell.seller, sell.id)).chainCheck?.state).toBe('not_found');
    t.clock.advance(3_600_000);
    expect((await round()).outcomes.has(sell.id)).toBe(false);
    expect(await alertsOf(sell.id)).toHaveLength(1);
    expect((await orderOf(sell.id)).status).toBe('TX_PENDING');
  });
});

describe('node faults are retried, never judged', () => {
  it('a hash taken during ten 429s to its lookups (no Retry-After): each fault waits one round and adds nothing to the backoff; once the node answers it is seen at the next round and confirmed within two', async () => {
    const sell = await waitingSell(t);
    const hash = await pay(chain, t, sell);
    chain.faults.set({ kind: 'status', status: 429 }, ['eth_getTransactionReceipt']);
    expect((await sendHash(sell.seller, sell.id, hash)).statusCode).toBe(200);
    expect(await checkOf(sell.id)).toMatchObject({ state: 'looking', attempts: 1 });
    for (let i = 0; i < 10; i++) {
      const before = t.clock.now();
      expect((await round()).outcomes.get(sell.id)).toBe('fault');
      const check = await checkOf(sell.id);
      // Due at the very next round, not after a doubling wait; the lookups count unchanged.
      expect(check.next_check_at - before).toBeLessThanOrEqual(1_001);
      expect(check.attempts).toBe(1);
    }
    await chain.mine(CONFIRMATIONS);
    chain.faults.clear();
    const outcomes = [(await round()).outcomes.get(sell.id), (await round()).outcomes.get(sell.id)];
    expect(outcomes).toContain('confirmed');
    expect((await orderOf(sell.id)).status).toBe('TX_CONFIRMED');
  });

  it('a fault that asks for a wait (Retry-After: 60) waits that, not the not-found backoff', async () => {
    const sell = await waitingSell(t);
    const hash = await pay(chain, t, sell);
    chain.faults.set({ kind: 'status', status: 429, headers: { 'retry-after': '60' } }, [
      'eth_getTransactionReceipt',
    ]);
    expect((await sendHash(sell.seller, sell.id, hash)).statusCode).toBe(200);
    const taken = t.clock.now();
    expect((await checkOf(sell.id)).next_check_at - taken).toBe(60_000);
    t.clock.current = (await checkOf(sell.id)).next_check_at;
    expect((await checkChainOnce(ctx, t.clock.now())).outcomes.get(sell.id)).toBe('fault');
    expect((await checkOf(sell.id)).next_check_at - t.clock.now()).toBe(60_000);
    chain.faults.clear();
  });

  it('a 429 storm past the lookup window: still looking, never not_found, flagged unreadable once per window; answered again, the deposit is found', async () => {
    const sell = await waitingSell(t);
    const hash = await pay(chain, t, sell);
    chain.faults.set({ kind: 'status', status: 429, headers: { 'retry-after': '60' } });
    expect((await sendHash(sell.seller, sell.id, hash)).statusCode).toBe(200);
    // Within the window the faults are only retried.
    t.clock.advance(t.config.chainLookupWindowMs / 2);
    await round();
    expect(await alertsOf(sell.id)).toEqual([]);
    for (let i = 0; i < 3; i++) {
      t.clock.advance(t.config.chainLookupWindowMs);
      expect((await round()).outcomes.get(sell.id)).toBe('flagged');
      // A round soon after tells nobody again.
      t.clock.advance(10 * 60_000);
      expect((await round()).outcomes.get(sell.id)).not.toBe('flagged');
    }
    expect((await checkOf(sell.id)).state).toBe('looking');
    const alerts = await alertsOf(sell.id);
    expect(alerts).toHaveLength(3);
    for (const alert of alerts) {
      expect(JSON.parse(alert.payload)).toMatchObject({ chainFlag: 'unreadable' });
    }
    expect((await orderOf(sell.id)).status).toBe('TX_PENDING');
    chain.faults.clear();
    t.clock.advance(5 * 60_000);
    expect((await round()).outcomes.get(sell.id)).toBe('seen');
  });

  it('a seen deposit whose node stops answering: flagged unreadable a window after its last read, once a window; answered again, it is counted and confirmed', async () => {
    const { sell } = await seenDeposit();
    expect((await round()).outcomes.get(sell.id)).toBe('waiting');
    chain.faults.set({ kind: 'status', status: 503 });
    // Within the window since the last read: only retried.
    t.clock.advance(t.config.chainLookupWindowMs / 2);
    expect((await round()).outcomes.get(sell.id)).toBeUndefined();
    expect(await alertsOf(sell.id)).toEqual([]);
    t.clock.advance(t.config.chainLookupWindowMs / 2 + 1_000);
    expect((await round()).outcomes.get(sell.id)).toBe('flagged');
    t.clock.advance(10 * 60_000);
    expect((await round()).outcomes.get(sell.id)).not.toBe('flagged');
    const alerts = await alertsOf(sell.id);
    expect(alerts).toHaveLength(1);
    expect(JSON.parse(alerts[0]?.payload ?? '{}')).toMatchObject({ chainFlag: 'unreadable' });
    expect(await checkOf(sell.id)).toMatchObject({ state: 'seen' });
    chain.faults.clear();
    await chain.mine(CONFIRMATIONS);
    t.clock.advance(5 * 60_000);
    expect((await round()).outcomes.get(sell.id)).toBe('confirmed');
  });
});

describe('an order moved by other means closes its check', () => {
  it('an operator confirms the transaction by hand: the next round closes the check, no second transition', async () => {
    const { sell } = await seenDeposit();
    // Signed at the app's clock, which earlier tests moved on.
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/operator/orders/${sell.id}/confirm-tx`,
      headers: authHeader(initDataFor(OPERATOR, { authDate: new Date(t.clock.now()) })),
      // On a network read from a node, a confirmation by hand says why.
      payload: { reason: 'the explorer shows it final; our node lags' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await chain.mine(CONFIRMATIONS);
    expect((await round()).outcomes.get(sell.id)).toBe('closed');
    expect((await checkOf(sell.id)).state).toBe('closed');
    const events = await t.database.db
      .selectFrom('order_events')
      .select('actor')
      .where('order_id', '=', sell.id)
      .where('to_status', '=', 'TX_CONFIRMED')
      .execute();
    expect(events).toEqual([{ actor: 'operator' }]);
    // The console knows the network is read from a node, and shows the chain's words.
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/operator/orders/${sell.id}`,
      headers: authHeader(initDataFor(OPERATOR, { authDate: new Date(t.clock.now()) })),
    });
    expect(detail.json<OperatorOrderResponse>()).toMatchObject({
      chainChecked: true,
      order: { chainCheck: null },
    });
  });
});

describe('two instances on the same database split the rows', () => {
  it('a slow instance whose lease ran out never overwrites the verdict of the instance that took the row over: a confirmed check stays confirmed', async () => {
    const { sell } = await seenDeposit();
    await chain.mine(CONFIRMATIONS);
    // Instance A's node answers its final read only when the test lets it.
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const real = ctx.chain.ERC20 as ChainReader;
    const slow: ChainReader = {
      network: real.network,
      transaction: async (hash) => {
        await gate;
        return real.transaction(hash);
      },
      head: () => real.head(),
      decimals: (contract) => real.decimals(contract),
      transfersTo: (...args) => real.transfersTo(...args),
    };
    const startedAt = t.clock.now() + 1_000;
    const a = checkChainOnce({ ...ctx, chain: { ...ctx.chain, ERC20: slow } }, startedAt);
    // A holds the row; once its lease has run out, instance B claims it and confirms the deposit.
    await expect.poll(async () => (await checkOf(sell.id)).lease).not.toBeNull();
    t.clock.current = startedAt + CHAIN_CHECK_LEASE_MS + 1;
    const b = await checkChainOnce(ctx, t.clock.now());
    expect(b.outcomes.get(sell.id)).toBe('confirmed');
    release();
    expect((await a).outcomes.get(sell.id)).toBe('stale');
    expect(await checkOf(sell.id)).toMatchObject({ state: 'confirmed', lease: null });
    expect((await orderOf(sell.id)).status).toBe('TX_CONFIRMED');
    const confirmations = await t.database.db
      .selectFrom('order_events')
      .select('id')
      .where('order_id', '=', sell.id)
      .where('to_status', '=', 'TX_CONFIRMED')
      .execute();
    expect(confirmations).toHaveLength(1);
  });

  it('two checkers in the same round: each looking row is looked up once, with one head per instance at most', async () => {
    const sells: WaitingSell[] = [];
    for (let i = 0; i < 12; i++) {
      const sell = await waitingSell(t);
      expect(
        (await sendHash(sell.seller, sell.id, `0x${randomBytes(32).toString('hex')}`)).statusCode,
      ).toBe(200);
      sells.push(sell);
    }
    t.clock.advance(15_000);
    const other: ChainCheckContext = { ...ctx, chain: createChainReaders(t.config.chain) };
    const before = chain.faults.requests;
    const [a, b] = await Promise.all([
      checkChainOnce(ctx, t.clock.now()),
      checkChainOnce(other, t.clock.now()),
    ]);
    const requests = chain.faults.requests - before;
    for (const sell of sells) {
      expect([a.outcomes.has(sell.id), b.outcomes.has(sell.id)].filter(Boolean)).toHaveLength(1);
      expect((await checkOf(sell.id)).attempts).toBe(2);
    }
    // One eth_getTransactionReceipt per row, one head (eth_blockNumber and the safe block) per
    // instance and network,
    // and one eth_getLogs per contract of the deposit address's scan, by whichever instance
    // claimed it.
    const contracts = [...new Set([...a.heads, ...b.heads])]
      .map((network) => t.config.chain[network])
      .reduce(
        (n, settings) => n + (settings === 'manual' ? 0 : Object.keys(settings.tokens).length),
        0,
      );
    expect(requests).toBeLessThanOrEqual(
      sells.length + 2 * (a.heads.length + b.heads.length) + contracts,
    );
  });
});

describe('deposits without a hash: the deposit address is scanned once a round', () => {
  it("a transfer of a waiting sell's exact amount is attached to it by the chain and confirmed; an amount no sell holds is listed for operators", async () => {
    // Amounts no other test's waiting sell has.
    const sell = await waitingSell(t, 'ERC20', 12_345);
    const hash = await pay(chain, t, sell);
    await round();
    expect(await orderOf(sell.id)).toMatchObject({ status: 'TX_PENDING', tx_hash: hash });
    expect(await checkOf(sell.id)).toMatchObject({ state: 'seen', tx_hash: hash.toLowerCase() });
    const attached = await t.database.db
      .selectFrom('order_events')
      .selectAll()
      .where('order_id', '=', sell.id)
      .where('to_status', '=', 'TX_PENDING')
      .executeTakeFirstOrThrow();
    expect(attached).toMatchObject({ actor: 'chain', from_status: 'WAITING_CRYPTO' });
    expect(attached.reason).toContain(hash.toLowerCase());
    await chain.mine(CONFIRMATIONS);
    await round();
    expect((await orderOf(sell.id)).status).toBe('TX_CONFIRMED');

    // The amount asked for, without its tag: no sell's exact amount.
    const twins = [
      await waitingSell(t, 'ERC20', 13_579),
      await waitingSell(t, 'ERC20', 13_579),
    ] as const;
    const round100 = BigInt(Math.floor(twins[0].units / 1_000_000) * 1_000_000);
    const twin = await pay(chain, t, twins[0], { amount: round100 });
    await round();
    await round();
    for (const one of twins) expect((await orderOf(one.id)).status).toBe('WAITING_CRYPTO');
    const listed = await t.database.db
      .selectFrom('chain_incoming')
      .selectAll()
      .where('tx_hash', '=', twin.toLowerCase())
      .execute();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      network: 'ERC20',
      coin: 'USDT',
      candidates: 0,
      order_id: null,
      amount: round100.toString(),
    });
  });

  it("a transfer under CHAIN_DUST_BELOW that is no sell's amount (an address poisoner's 0.01 USDT) is kept and counted, never listed for operators; 5 USDT of no sell's amount is listed", async () => {
    const sell = await waitingSell(t, 'ERC20', 15_151);
    const dust = (await pay(chain, t, sell, { amount: 10_000n })).toLowerCase();
    const stray = (await pay(chain, t, sell, { amount: 5_000_000n })).toLowerCase();
    await round();
    const listed = (
      await unmatchedDeposits(t.database.db, null, { limit: 100, offset: 0 })
    ).deposits.map((d) => d.txHash);
    expect(listed).toContain(stray);
    expect(listed).not.toContain(dust);
    const kept = await t.database.db
      .selectFrom('chain_incoming')
      .select(['dust', 'order_id'])
      .where('tx_hash', '=', dust)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ dust: 1, order_id: null });
    // The 5 USDT is told in the operators' chat, the sender whole; the dust is not.
    const told = await t.database.db
      .selectFrom('notifications')
      .select('payload')
      .where('kind', '=', 'unmatched_deposit')
      .execute();
    const hashes = told.map((row) => (JSON.parse(row.payload) as { txHash: string }).txHash);
    expect(hashes).toContain(stray);
    expect(hashes).not.toContain(dust);
    expect(told.find((row) => row.payload.includes(stray))?.payload).toContain(chain.customer);
    const res = await t.app.inject({
      method: 'GET',
      url: API_PATHS.metrics,
      remoteAddress: '127.0.0.1',
    });
    const line = /^exchange_chain_dust_transfers\{network="ERC20"\} (\S+)$/m.exec(res.body);
    expect(Number(line?.[1])).toBeGreaterThanOrEqual(1);
    expect((await orderOf(sell.id)).status).toBe('WAITING_CRYPTO');
  });

  it("a late deposit (the exact amount of a sell cancelled before it arrived) is kept as that sell's and flagged for operators, not listed as unmatched", async () => {
    const sell = await waitingSell(t, 'ERC20', 16_161);
    expect((await post(t, API_PATHS.cancel(sell.id), {}, sell.seller)).statusCode).toBe(200);
    t.clock.advance(3_600_000);
    const hash = (await pay(chain, t, sell)).toLowerCase();
    await round();
    const kept = await t.database.db
      .selectFrom('chain_incoming')
      .selectAll()
      .where('tx_hash', '=', hash)
      .executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ order_id: sell.id, candidates: 1 });
    expect(await orderOf(sell.id)).toMatchObject({ status: 'CANCELLED', needs_attention: 1 });
    const [alert] = await alertsOf(sell.id);
    const facts = JSON.parse(alert?.payload ?? '{}') as NotificationFacts;
    expect(facts).toMatchObject({
      chainFlag: 'late_deposit',
      chainHash: hash,
      chainAmount: unitsToDecimal(sell.units),
    });
    const options = { botUsername: undefined, supportUrl: t.config.supportUrl };
    expect(renderNotification('flag_chain_deposit', facts, 'en', options).text).toContain(
      'the seller was late',
    );
  });
});

describe('hash lookups are rationed: calls stay bounded whatever the number waiting', () => {
  it('with more looking hashes due than a round may look up, the oldest due are looked up, the rest wait for the next rounds', async () => {
    const sells: WaitingSell[] = [];
    for (let i = 0; i < 5; i++) {
      const sell = await waitingSell(t);
      expect(
        (await sendHash(sell.seller, sell.id, `0x${randomBytes(32).toString('hex')}`)).statusCode,
      ).toBe(200);
      sells.push(sell);
      t.clock.advance(1_000);
    }
    // At the default interval a round looks up 8 hashes a network: 32 a minute.
    expect(lookupsPerRound(15_000)).toBe(8);
    expect(lookupsPerRound(1_000)).toBe(1);
    // Every row of the file is due; this round may look up two.
    t.clock.advance(60 * 60_000);
    const lookups: string[] = [];
    const counting: ChainCheckContext = {
      ...ctx,
      chain: createChainReaders(t.config.chain, {
        observer: { onCall: (event) => void lookups.push(event.method) },
      }),
    };
    // The backlog the ration works through is its own gauge, two fewer after the round.
    const backlog = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: API_PATHS.metrics,
        remoteAddress: '127.0.0.1',
      });
      return Number(
        /^exchange_chain_lookup_backlog\{network="ERC20"\} (\S+)$/m.exec(res.body)?.[1],
      );
    };
    const before = await backlog();
    expect(before).toBeGreaterThanOrEqual(5);
    const first = await checkChainOnce(counting, t.clock.now(), { lookups: 2 });
    expect(lookups.filter((method) => method === 'getTransactionReceipt')).toHaveLength(2);
    expect(await backlog()).toBe(before - 2);
    // Heads, the scans and two lookups (a receipt and its block each; a contract's decimals once
    // per reader): not one a row.
    const contracts = first.heads.length * 2;
    expect(lookups.length).toBeLessThanOrEqual(first.heads.length + contracts + 2 * 2 + contracts);
    // The oldest due went first; the next rounds take the rest, a few at a time.
    const left = async () =>
      (
        await t.database.db
          .selectFrom('chain_checks')
          .select('order_id')
          .where(
            'order_id',
            'in',
            sells.map((s) => s.id),
          )
          .where('next_check_at', '<=', t.clock.now())
          .execute()
      ).length;
    const due = await left();
    expect(due).toBeGreaterThan(0);
    for (let i = 0; i < 40 && (await left()) > 0; i++) {
      await checkChainOnce(counting, t.clock.now(), { lookups: 2 });
    }
    expect(await left()).toBe(0);
  });
});

describe('a node that takes JSON-RPC batches (CHAIN_RPC_BATCH)', () => {
  it("gets a round's hash lookups of a network as one request", async () => {
    for (let i = 0; i < 4; i++) {
      const sell = await waitingSell(t);
      expect(
        (await sendHash(sell.seller, sell.id, `0x${randomBytes(32).toString('hex')}`)).statusCode,
      ).toBe(200);
    }
    t.clock.advance(60 * 60_000);
    const settings = t.config.chain.ERC20;
    if (settings === 'manual' || settings.family !== 'evm') throw new Error('ERC20 is read');
    const chainConfig = { ...t.config.chain, ERC20: { ...settings, batch: true } };
    const lookups: string[] = [];
    const batching: ChainCheckContext = {
      ...ctx,
      config: { ...ctx.config, chain: chainConfig },
      chain: createChainReaders(chainConfig, {
        observer: { onCall: (event) => void lookups.push(`${event.network} ${event.method}`) },
      }),
    };
    const before = chain.faults.requests;
    const result = await checkChainOnce(batching, t.clock.now());
    const receipts = lookups.filter((call) => call === 'ERC20 getTransactionReceipt').length;
    expect(receipts).toBeGreaterThanOrEqual(4);
    // Unbatched, each call is a request of its own; here the four lookups of this test (and any
    // earlier test left looking) went together: at least three requests fewer than calls.
    expect(chain.faults.requests - before).toBeLessThanOrEqual(lookups.length - 3);
    expect(result.heads).toContain('ERC20');
  });
});

describe('a stopping server checks no further row', () => {
  it('aborted after the first lookup: one row checked, the rest of the claim handed back at once', async () => {
    const mine: string[] = [];
    for (let i = 0; i < 3; i++) {
      const sell = await waitingSell(t);
      const hash = `0x${randomBytes(32).toString('hex')}`;
      expect((await sendHash(sell.seller, sell.id, hash)).statusCode).toBe(200);
      mine.push(sell.id);
    }
    t.clock.advance(15 * 60_000);
    const stop = new AbortController();
    // One lane (SQLite's batch policy, whatever the database): on PostgreSQL lanes side by side
    // could each be in the middle of a lookup when the stop comes, and the count would vary.
    const stopping: ChainCheckContext = {
      ...ctx,
      dialect: 'sqlite',
      chain: createChainReaders(t.config.chain, {
        observer: {
          onCall: (event) => {
            if (event.method === 'getTransactionReceipt') stop.abort();
          },
        },
      }),
    };
    const looking = (
      await t.database.db
        .selectFrom('chain_checks')
        .select('order_id')
        .where('state', '=', 'looking')
        .execute()
    ).map((row) => row.order_id);
    expect(looking).toEqual(expect.arrayContaining(mine));
    const result = await checkChainOnce(stopping, t.clock.now(), { signal: stop.signal });
    // Earlier tests' seen rows are counted first, with no lookup; of the looking rows (these
    // three and any earlier test left), one is looked up.
    expect(looking.filter((id) => result.outcomes.has(id))).toHaveLength(1);
    const leased = await t.database.db
      .selectFrom('chain_checks')
      .select('order_id')
      .where('claimed_until', 'is not', null)
      .execute();
    expect(leased).toEqual([]);
  });
});

describe("the checker's lag is a metric", () => {
  it('exchange_chain_check_lag_seconds: how long the most overdue check waited, 0 once a round ran', async () => {
    const sell = await waitingSell(t);
    const hash = `0x${randomBytes(32).toString('hex')}`;
    expect((await sendHash(sell.seller, sell.id, hash)).statusCode).toBe(200);
    t.clock.advance(15_000 + 60_000);
    const lag = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: API_PATHS.metrics,
        remoteAddress: '127.0.0.1',
      });
      return Number(/^exchange_chain_check_lag_seconds (\S+)$/m.exec(res.body)?.[1]);
    };
    expect(await lag()).toBeGreaterThanOrEqual(60);
    await round();
    expect(await lag()).toBe(0);
  });

  it('the scan runs every round, nothing waiting; a cursor left 20 000 blocks behind (the server was down) catches up in a few rounds, exchange_chain_scan_lag_blocks telling how far it has left', async () => {
    await round();
    await chain.mine(20_000);
    const head = await chain.blockNumber();
    await t.database.db
      .updateTable('chain_scans')
      .set({ next_block: head - 20_000, claimed_until: null })
      .where('network', '=', 'ERC20')
      .execute();
    const scanLag = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: API_PATHS.metrics,
        remoteAddress: '127.0.0.1',
      });
      const line = /^exchange_chain_scan_lag_blocks\{network="ERC20"\} (\S+)$/m.exec(res.body);
      return Number(line?.[1]);
    };
    await round();
    // One round reads 8 ranges of 1 000 blocks; left: from the cursor to the final block.
    const cursor = head - 20_000 + 8_000;
    const final = head - CONFIRMATIONS + 1;
    expect(await scanLag()).toBe(final - cursor + 1);
    // Past SCAN_BEHIND_ALERT_BLOCKS the operators' chat is told, once an hour.
    const told = await t.database.db
      .selectFrom('notifications')
      .select('payload')
      .where('kind', '=', 'scan_behind')
      .execute();
    // (BEP20, on the same test chain, fell as far behind and is told too.)
    const alerts = told.map((row) => JSON.parse(row.payload) as { network: string });
    expect(alerts).toContainEqual({ network: 'ERC20', lagBlocks: final - cursor + 1 });
    await round();
    await round();
    expect(await scanLag()).toBe(0);
    const again = await t.database.db
      .selectFrom('notifications')
      .select('payload')
      .where('kind', '=', 'scan_behind')
      .execute();
    expect(again.filter((row) => row.payload.includes('"ERC20"'))).toHaveLength(1);
  });
});

describe('a row whose check throws is set aside, the others go on', () => {
  it('an order with unreadable requisites: failed, flagged, retried in 10 minutes; the next row is still checked', async () => {
    const broken = await waitingSell(t);
    const fine = await waitingSell(t);
    const hash = await broadcast(broken);
    expect((await sendHash(broken.seller, broken.id, hash)).statusCode).toBe(200);
    await chain.mine(1);
    const unknown = `0x${randomBytes(32).toString('hex')}`;
    expect((await sendHash(fine.seller, fine.id, unknown)).statusCode).toBe(200);
    await t.database.db
      .updateTable('orders')
      .set({ requisites: '{not json' })
      .where('id', '=', broken.id)
      .execute();
    t.clock.advance(15_000);
    const result = await round();
    expect(result.outcomes.get(broken.id)).toBe('failed');
    expect(result.outcomes.get(fine.id)).toBe('waiting');
    const check = await checkOf(broken.id);
    expect(check).toMatchObject({ state: 'looking', claimed_until: null });
    expect(check.next_check_at).toBe(t.clock.now() + 10 * 60_000);
    expect(check.last_fault).toMatch(/^internal: /);
    expect((await orderOf(broken.id)).needs_attention).toBe(1);
  });
});

describe("the demo's autopilot leaves a chain-checked deposit to the chain", () => {
  it('a TX_PENDING sell on a network with a node is not confirmed by the autopilot, but by the chain', async () => {
    const { sell } = await seenDeposit();
    t.clock.advance(AUTOPILOT_DELAY_MS);
    await runAutopilot(t.app, t.app.log);
    expect((await orderOf(sell.id)).status).toBe('TX_PENDING');
    await chain.mine(CONFIRMATIONS);
    await round();
    expect((await orderOf(sell.id)).status).toBe('TX_CONFIRMED');
  });
});

describe('the server runs the checker by itself', () => {
  it('with its jobs on, a deposit goes from seen to TX_CONFIRMED with nobody acting', async () => {
    const live = await createChainTestApp(
      chain,
      { chainCheckIntervalMs: 1_000 },
      { realClock: true, jobs: true },
    );
    try {
      await live.app.ready();
      const sell = await waitingSell(live, 'ERC20');
      const hash = await pay(chain, live, sell);
      expect(
        (await post(live, API_PATHS.txHash(sell.id), { txHash: hash }, sell.seller)).statusCode,
      ).toBe(200);
      await chain.mine(CONFIRMATIONS);
      const deadline = Date.now() + 8_000;
      let status = 'TX_PENDING';
      while (status === 'TX_PENDING' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        status = (
          await live.database.db
            .selectFrom('orders')
            .select('status')
            .where('id', '=', sell.id)
            .executeTakeFirstOrThrow()
        ).status;
      }
      expect(status).toBe('TX_CONFIRMED');
    } finally {
      await live.close();
    }
  }, 15_000);
});
