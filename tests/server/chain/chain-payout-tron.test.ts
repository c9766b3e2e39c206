/**
 * An operator's TRC20 payout checked on Tron through the fake
 * of the TronGrid HTTP API (tests/helpers/trongrid-fake.ts): the payout rule compares Tron's
 * base58 wallets as they are; a right payout completes the buy and is followed until its block
 * is solidified; a payout to another wallet, or from another wallet than PAYOUT_ADDRESS_TRC20
 * (the hot wallet here), is refused.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseChainConfig,
  withPayoutAddresses,
} from '../../../src/server/platform/config/chain-config';
import { checkChainOnce, type ChainCheckContext } from '../../../src/server/chain/chain-checker';
import { OPERATOR_PATHS } from '../../../src/shared/operator-api';
import { expectError, post } from '../../helpers/api';
import { chainCheckContext, insertPaidBuy } from '../../helpers/chain-app';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { startTronGridFake, type TronGridFake } from '../../helpers/trongrid-fake';

/** Tether's USDT on Tron, the default official contract. */
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const HOT_WALLET = 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';
const CUSTOMER_WALLET = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
/** A Tron wallet that is not the exchange's. */
const OTHER_WALLET = 'TENmqTAY51Y4SEmUwZsYhPSeb4uUhrAtXD';
const OPERATOR = { id: 200_000_978, first_name: 'Olga' };
const UNITS = 100_000_000;

let tron: TronGridFake;
let t: TestApp;
let ctx: ChainCheckContext;

beforeAll(async () => {
  tron = await startTronGridFake();
  tron.setDecimals(USDT, 6);
  const parsed = parseChainConfig({ CHAIN_RPC_TRC20: tron.url });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  t = await createTestApp({
    chain: withPayoutAddresses(parsed.config, { trc20: HOT_WALLET }),
    operatorIds: [OPERATOR.id],
  });
  ctx = chainCheckContext(t);
});

afterAll(async () => {
  await t.close();
  await tron.stop();
});

/** A P2P buy of 100 USDT on TRC20 whose payment was confirmed now. */
async function paidTronBuy(): Promise<string> {
  const buy = { network: 'TRC20', wallet: CUSTOMER_WALLET, units: UNITS } as const;
  return (await insertPaidBuy(t, OPERATOR.id, buy)).id;
}

function payout(to: string, blockNumber: number, from = HOT_WALLET): string {
  const hash = randomBytes(32).toString('hex');
  tron.addTransaction({
    id: hash,
    blockNumber,
    blockTimeStamp: t.clock.now() + 5_000,
    transfers: [{ contract: USDT, from, to, amount: BigInt(UNITS) }],
    solidified: false,
  });
  return hash;
}

const complete = (id: string, outgoingTxHash: string) =>
  post(t, OPERATOR_PATHS.complete(id), { outgoingTxHash }, OPERATOR);

const payoutCheckOf = (id: string) =>
  t.database.db
    .selectFrom('chain_checks')
    .selectAll()
    .where('order_id', '=', id)
    .where('kind', '=', 'payout')
    .executeTakeFirst();

describe('TRC20: a payout is checked on Tron before the buy completes', () => {
  it("a payout to the customer's wallet completes and is final once its block is solidified", async () => {
    const id = await paidTronBuy();
    tron.setHeads({ latest: 705, solidified: 690 });
    const hash = payout(CUSTOMER_WALLET, 700);
    expect((await complete(id, hash)).json()).toEqual({ success: true, status: 'COMPLETED' });
    expect(await payoutCheckOf(id)).toMatchObject({
      state: 'seen',
      confirmations: 6,
      contract: USDT,
      amount: String(UNITS),
    });
    tron.setHeads({ latest: 719, solidified: 700 });
    tron.setSolidified(hash, true);
    t.clock.advance(1_000);
    expect((await checkChainOnce(ctx, t.clock.now())).outcomes.get(id)).toBe('confirmed');
    expect(await payoutCheckOf(id)).toMatchObject({ state: 'confirmed' });
  });

  it('a payout to another Tron wallet: 400 TX_WRONG_RECIPIENT, the buy stays', async () => {
    const id = await paidTronBuy();
    tron.setHeads({ latest: 805, solidified: 790 });
    const hash = payout(HOT_WALLET, 800);
    expectError(await complete(id, hash), 'TX_WRONG_RECIPIENT');
    expect(await payoutCheckOf(id)).toBeUndefined();
  });

  it('a payout from another Tron wallet than PAYOUT_ADDRESS_TRC20: 400 TX_WRONG_SENDER, the buy stays', async () => {
    const id = await paidTronBuy();
    tron.setHeads({ latest: 905, solidified: 890 });
    const hash = payout(CUSTOMER_WALLET, 900, OTHER_WALLET);
    expectError(await complete(id, hash), 'TX_WRONG_SENDER');
    expect(await payoutCheckOf(id)).toBeUndefined();
  });
});
