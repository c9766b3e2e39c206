/**
 * A sell's refund decided on appeal is checked on the chain like a payout (appeals/refund-check.ts,
 * the payout rule `judgePayout`), but to where the seller's deposit came from, against a real EVM
 * node (Hardhat in process): a transfer of the deposit's amount back to its sender is taken and
 * the order ends REJECTED with the refund's hash; a transfer to anyone else, or a hash the chain
 * does not know, is refused and the appeal stays open; a deposit whose sender the chain never
 * showed cannot be refunded by hash.
 */
import { randomBytes } from 'node:crypto';
import type { Address } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../../src/shared/api';
import { OPERATOR_PATHS } from '../../../src/shared/operator-api';
import { expectError, post, statusOf } from '../../helpers/api';
import { insertFlaggedDeposit } from '../../helpers/appeals';
import {
  amountOf,
  chainTimeNotBefore,
  tokenOf,
  useEvmChainApp,
  waitingSell,
  type WaitingSell,
} from '../../helpers/chain-app';
import type { EvmTestChain } from '../../helpers/evm-chain';
import { eventsOf } from '../../helpers/lifecycle';
import type { TestApp } from '../../helpers/test-app';

const OPERATOR = { id: 200_000_981, first_name: 'Olga' };
const SENIOR = { id: 200_000_982, first_name: 'Sergey' };

const env = useEvmChainApp({
  operatorIds: [OPERATOR.id, SENIOR.id],
  seniorOperatorIds: [SENIOR.id],
});
let chain: EvmTestChain;
let t: TestApp;

beforeAll(() => {
  ({ chain, t } = env);
});

/**
 * A sell whose deposit the chain checker flagged (state `wrong`), sent by `sender` (null: the
 * chain never showed one), with its seller's appeal open.
 */
async function appealedSell(sender: Address | null): Promise<WaitingSell> {
  const sell = await waitingSell(t, 'ERC20');
  const now = t.clock.now();
  const hash = `0x${randomBytes(32).toString('hex')}`;
  await t.database.db
    .updateTable('orders')
    .set({ tx_hash: hash })
    .where('id', '=', sell.id)
    .execute();
  await insertFlaggedDeposit(t.database.db, { id: sell.id, network: 'ERC20', hash }, now, {
    sender,
    amount: sender === null ? null : amountOf(chain, sell).toString(),
    decimals: 6,
    contract: chain.tokens.usdt6,
    block_time: now - 60_000,
  });
  const opened = await post(t, API_PATHS.appeal(sell.id), { reason: 'wrong_amount' }, sell.seller);
  expect(opened.statusCode).toBe(201);
  return sell;
}

const refund = (sell: WaitingSell, refundTxHash: string) =>
  post(
    t,
    OPERATOR_PATHS.appealDecision(sell.id),
    { decision: 'refund', outcome: 'Вернули перевод', refundTxHash },
    SENIOR,
  );

/** The exchange's hot wallet (the chain's funded `customer` account) sends the sell's amount to `to`. */
async function sendBack(sell: WaitingSell, to: Address): Promise<string> {
  await chainTimeNotBefore(chain, t);
  return chain.transfer(tokenOf(chain, 'ERC20').token, chain.customer, to, amountOf(chain, sell));
}

describe("a sell's refund is checked on the chain, to where its deposit came from", () => {
  it('the deposit sent back to its sender: the order ends REJECTED with the refund hash, the check in the audit trail', async () => {
    const sell = await appealedSell(chain.stranger);
    const hash = await sendBack(sell, chain.stranger);
    const res = await refund(sell, hash);
    expect(res.json()).toEqual({ success: true, status: 'REJECTED' });
    const status = await statusOf(t, sell.seller, sell.id);
    expect(status.appeal).toMatchObject({ decision: 'refund', refundTxHash: hash });
    const last = (await eventsOf(t.database.db, sell.id)).at(-1);
    expect(last?.reason).toMatch(/^appeal decided: refund: refund checked on ERC20: /);
    expect(last?.reason?.toLowerCase()).toContain(chain.stranger.toLowerCase());
  });

  it('a transfer to another address is TX_WRONG_RECIPIENT and an unknown hash TX_UNCONFIRMED; the appeal stays open', async () => {
    const sell = await appealedSell(chain.stranger);
    const elsewhere: Address = `0x${randomBytes(20).toString('hex')}`;
    expectError(await refund(sell, await sendBack(sell, elsewhere)), 'TX_WRONG_RECIPIENT');
    expectError(await refund(sell, `0x${randomBytes(32).toString('hex')}`), 'TX_UNCONFIRMED');
    const status = await statusOf(t, sell.seller, sell.id);
    expect({ order: status.status, appeal: status.appeal?.state }).toEqual({
      order: 'WAITING_CRYPTO',
      appeal: 'open',
    });
  });

  it('a deposit whose sender the chain never showed: REFUND_SENDER_UNKNOWN', async () => {
    const sell = await appealedSell(null);
    expectError(await refund(sell, await sendBack(sell, chain.stranger)), 'REFUND_SENDER_UNKNOWN');
  });
});
