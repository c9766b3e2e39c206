/**
 * Deposits without a hash that the scan could not match to one order, listed for operators as
 * unmatched deposits with a button to attach one to an order (chain/chain-scan.ts,
 * operator/incoming-deposits.ts, chain/deposit-attach.ts), against a real EVM node (Hardhat in
 * process): listed for operators, on the order too, and attached by one to the order they choose,
 * checked by the deposit rule and followed by the chain to its confirmations; refused with what is
 * wrong, in the console's language.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  OPERATOR_PATHS,
  type OperatorIncomingResponse,
  type OperatorOrderResponse,
} from '../../../src/shared/operator-api';
import { checkChainOnce, type ChainCheckContext } from '../../../src/server/chain/chain-checker';
import { tokenAmountToDecimal } from '../../../src/shared/money';
import { expectError, get, headersFor, type TestUser } from '../../helpers/api';
import {
  CONFIRMATIONS,
  amountOf,
  chainCheckOf,
  pay,
  tokenOf,
  waitingSell,
  type WaitingSell,
  useEvmChainApp,
} from '../../helpers/chain-app';
import { type EvmTestChain } from '../../helpers/evm-chain';
import type { TestApp } from '../../helpers/test-app';

const OPERATOR: TestUser = { id: 200_000_979, first_name: 'Olga', language_code: 'en' };

const env = useEvmChainApp({ operatorIds: [OPERATOR.id] });
let chain: EvmTestChain;
let t: TestApp;
let ctx: ChainCheckContext;

beforeAll(() => {
  ({ chain, t, ctx } = env);
});

/** The checker's next round: a second later on the app's clock. */
const round = () => {
  t.clock.advance(1_000);
  return checkChainOnce(ctx, t.clock.now());
};

const attach = (id: string, txHash: string, language: 'ru' | 'en' = 'en') =>
  t.app.inject({
    method: 'POST',
    url: OPERATOR_PATHS.attachDeposit(id),
    headers: { ...headersFor(OPERATOR), 'accept-language': language },
    payload: { txHash },
  });

const listed = async () =>
  (await get(t, `${OPERATOR_PATHS.incoming}?limit=100`, OPERATOR)).json<OperatorIncomingResponse>()
    .deposits;

const orderOf = (id: string) =>
  t.database.db
    .selectFrom('orders')
    .select(['status', 'tx_hash'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/**
 * Two sells of the same amount asked and a transfer of one coin more than the first one's exact
 * amount: an amount no sell holds, so the scan cannot tell whose it is.
 */
async function twinsAndTransfer(total: number): Promise<{ twins: WaitingSell[]; hash: string }> {
  const twins = [await waitingSell(t, 'ERC20', total), await waitingSell(t, 'ERC20', total)];
  const first = twins[0] as WaitingSell;
  const amount = amountOf(chain, first) + 1_000_000n;
  const hash = (await pay(chain, t, first, { amount })).toLowerCase();
  await round();
  return { twins, hash };
}

describe('an unmatched deposit is listed and attached by an operator', () => {
  it('listed (network, coin, exact amount, sender, candidates) and on each sell of its coin; attached to the sell chosen, more than its amount accepted, followed by the chain to TX_CONFIRMED', async () => {
    const { twins, hash } = await twinsAndTransfer(11_111);
    const [a, b] = twins as [WaitingSell, WaitingSell];
    for (const twin of twins) expect((await orderOf(twin.id)).status).toBe('WAITING_CRYPTO');
    const deposit = (await listed()).find((d) => d.txHash === hash);
    expect(deposit).toMatchObject({
      network: 'ERC20',
      coin: 'USDT',
      amount: tokenAmountToDecimal(
        amountOf(chain, a) + 1_000_000n,
        tokenOf(chain, 'ERC20').decimals,
      ),
      sender: chain.customer,
      candidates: 0,
    });
    const view = (await get(t, OPERATOR_PATHS.order(b.id), OPERATOR)).json<OperatorOrderResponse>();
    expect(view.incoming.map((d) => d.txHash)).toContain(hash);

    const res = await attach(b.id, hash);
    expect(res.json(), res.body).toMatchObject({ success: true, status: 'TX_PENDING' });
    expect(await orderOf(b.id)).toMatchObject({ status: 'TX_PENDING' });
    expect((await orderOf(b.id)).tx_hash?.toLowerCase()).toBe(hash);
    const event = await t.database.db
      .selectFrom('order_events')
      .selectAll()
      .where('order_id', '=', b.id)
      .where('to_status', '=', 'TX_PENDING')
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ actor: 'operator', actor_id: OPERATOR.id });
    expect(event.reason).toContain(hash);
    // The operator, shown both amounts, accepted the transfer's: every later read holds it to that.
    expect((await chainCheckOf(t, b.id))?.accepted_amount).toBe(
      (amountOf(chain, a) + 1_000_000n).toString(),
    );
    // Taken: no longer listed, nor on the other sell; attaching it again is refused.
    expect((await listed()).map((d) => d.txHash)).not.toContain(hash);
    const other = (
      await get(t, OPERATOR_PATHS.order(a.id), OPERATOR)
    ).json<OperatorOrderResponse>();
    expect(other.incoming.map((d) => d.txHash)).not.toContain(hash);
    expectError(await attach(a.id, hash), 'DEPOSIT_NOT_LISTED');

    await chain.mine(CONFIRMATIONS);
    await round();
    expect((await orderOf(b.id)).status).toBe('TX_CONFIRMED');
    expect((await orderOf(a.id)).status).toBe('WAITING_CRYPTO');
  });

  it("a transfer of less than the order: TX_UNDERPAID with the shortfall, in the console's language; the order keeps waiting", async () => {
    const sell = await waitingSell(t, 'ERC20', 22_222);
    const short = amountOf(chain, sell) - 1_000_000n;
    const hash = (await pay(chain, t, sell, { amount: short })).toLowerCase();
    await round();
    expect((await listed()).find((d) => d.txHash === hash)).toMatchObject({ candidates: 0 });
    const refused = expectError(await attach(sell.id, hash), 'TX_UNDERPAID');
    expect(refused).toMatchObject({ coin: 'USDT', shortfall: '1' });
    expectError(await attach(sell.id, hash, 'ru'), 'TX_UNDERPAID');
    expect((await orderOf(sell.id)).status).toBe('WAITING_CRYPTO');
    expect((await listed()).map((d) => d.txHash)).toContain(hash);
  });

  it('a hash that is not listed, or an order not waiting for its deposit: refused, nothing changes', async () => {
    const sell = await waitingSell(t, 'ERC20', 33_333);
    const missing = `0x${'ab'.repeat(32)}`;
    const refused = expectError(await attach(sell.id, missing), 'DEPOSIT_NOT_LISTED');
    expect(refused.error).toMatch(/not among the unmatched deposits/);
    expect(expectError(await attach(sell.id, missing, 'ru'), 'DEPOSIT_NOT_LISTED').error).toMatch(
      /неопознанных поступлений/,
    );
    expect((await orderOf(sell.id)).status).toBe('WAITING_CRYPTO');
  });

  it("dust (under CHAIN_DUST_BELOW, no sell's amount) is never listed, so it cannot be attached by its hash either", async () => {
    const sell = await waitingSell(t, 'ERC20', 34_343);
    const dust = (await pay(chain, t, sell, { amount: 10_000n })).toLowerCase();
    await round();
    expect((await listed()).map((d) => d.txHash)).not.toContain(dust);
    expectError(await attach(sell.id, dust), 'DEPOSIT_NOT_LISTED');
    expect((await orderOf(sell.id)).status).toBe('WAITING_CRYPTO');
  });

  it('a node that does not answer: TX_UNCONFIRMED, the transfer stays listed', async () => {
    const { twins, hash } = await twinsAndTransfer(44_444);
    chain.faults.set({ kind: 'status', status: 503 });
    expectError(await attach((twins[1] as WaitingSell).id, hash), 'TX_UNCONFIRMED');
    chain.faults.clear();
    expect((await listed()).map((d) => d.txHash)).toContain(hash);
    expect((await orderOf((twins[1] as WaitingSell).id)).status).toBe('WAITING_CRYPTO');
  });

  it('the list pages, newest first: 20 by default, the next page from its offset, never a row twice; a bad page is 400', async () => {
    const page = async (query: string) =>
      (
        await get(t, `${OPERATOR_PATHS.incoming}${query}`, OPERATOR)
      ).json<OperatorIncomingResponse>();
    const all = await listed();
    expect(all.length).toBeGreaterThanOrEqual(2);
    const first = await page('?limit=1');
    expect(first).toMatchObject({ hasMore: true });
    expect(first.deposits.map((d) => d.txHash)).toEqual([all[0]?.txHash]);
    const second = await page('?limit=1&offset=1');
    expect(second.deposits.map((d) => d.txHash)).toEqual([all[1]?.txHash]);
    expect((await page('')).deposits.length).toBe(Math.min(20, all.length));
    expectError(await get(t, `${OPERATOR_PATHS.incoming}?limit=0`, OPERATOR), 'VALIDATION_FAILED');
  });
});
