/**
 * An operator confirms a seller's transaction by hand, with a reason the audit trail keeps, when
 * the chain cannot be read (operator/operator-orders.ts `confirmIncomingTx`), against a real EVM
 * node (Hardhat in process): on a network read from a node the confirmation needs a reason (the
 * payout override's rule: trimmed, 1–500 characters), kept in the audit trail with what the chain
 * check had seen; a network without a node is confirmed as before, with no reason.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../../src/shared/api';
import { OPERATOR_PATHS, type OperatorOrderResponse } from '../../../src/shared/operator-api';
import { expectError, get, headersFor, post, statusOf, type TestUser } from '../../helpers/api';
import {
  CONFIRMATIONS,
  pay,
  waitingSell,
  type WaitingSell,
  useEvmChainApp,
} from '../../helpers/chain-app';
import { type EvmTestChain } from '../../helpers/evm-chain';
import type { TestApp } from '../../helpers/test-app';

const OPERATOR: TestUser = { id: 200_000_978, first_name: 'Oleg', language_code: 'en' };

const env = useEvmChainApp({ operatorIds: [OPERATOR.id] });
let chain: EvmTestChain;
let t: TestApp;

beforeAll(() => {
  ({ chain, t } = env);
});

/** The operator's confirmation, from a console in `language` (its Accept-Language). */
const confirmTx = (id: string, body: unknown, language: 'ru' | 'en' = 'en') =>
  t.app.inject({
    method: 'POST',
    url: OPERATOR_PATHS.confirmTx(id),
    headers: { ...headersFor(OPERATOR), 'accept-language': language },
    payload: body as Record<string, unknown>,
  });

/** A sell on `network` whose seller sent `hash`: TX_PENDING. */
async function pendingSell(network: WaitingSell['network'], hash: string): Promise<WaitingSell> {
  const sell = await waitingSell(t, network);
  const res = await post(t, API_PATHS.txHash(sell.id), { txHash: hash }, sell.seller);
  expect(res.json()).toMatchObject({ success: true, status: 'TX_PENDING' });
  return sell;
}

const evmHash = () => `0x${randomBytes(32).toString('hex')}`;

const confirmation = (id: string) =>
  t.database.db
    .selectFrom('order_events')
    .select(['actor', 'actor_id', 'reason'])
    .where('order_id', '=', id)
    .where('to_status', '=', 'TX_CONFIRMED')
    .execute();

describe('a network read from a node: a reason is required', () => {
  it('without a reason: 400 CONFIRM_REASON_REQUIRED, told in the console’s language; the order keeps waiting', async () => {
    const sell = await pendingSell('ERC20', evmHash());
    const refused = expectError(await confirmTx(sell.id, {}), 'CONFIRM_REASON_REQUIRED');
    expect(refused.error).toBe(
      'This transaction is checked on the chain and the order confirms itself. To confirm it by hand, give the reason.',
    );
    const inRussian = expectError(await confirmTx(sell.id, null, 'ru'), 'CONFIRM_REASON_REQUIRED');
    expect(inRussian.error).toMatch(/^Эта транзакция проверяется в сети/);
    expect((await statusOf(t, sell.seller, sell.id)).status).toBe('TX_PENDING');
    expect(await confirmation(sell.id)).toEqual([]);
  });

  it('a reason of blanks or longer than 500 characters is no reason: 400 VALIDATION_FAILED', async () => {
    const sell = await pendingSell('BEP20', evmHash());
    expectError(await confirmTx(sell.id, { reason: ' \n\t ' }), 'VALIDATION_FAILED');
    expectError(await confirmTx(sell.id, { reason: 'x'.repeat(501) }), 'VALIDATION_FAILED');
    expect((await statusOf(t, sell.seller, sell.id)).status).toBe('TX_PENDING');
  });

  it('with a reason while the node is down: TX_CONFIRMED, the trimmed reason in the audit trail and in the console', async () => {
    chain.faults.set({ kind: 'status', status: 503 });
    const sell = await pendingSell('ERC20', evmHash());
    const res = await confirmTx(sell.id, {
      expectedStatus: 'TX_PENDING',
      reason: '  The node is down; the deposit is in the explorer  ',
    });
    expect(res.json()).toEqual({ success: true, status: 'TX_CONFIRMED' });
    const evidence =
      'deposit confirmed by hand (chain check looking, 0/5 confirmations): The node is down; the deposit is in the explorer';
    expect(await confirmation(sell.id)).toEqual([
      { actor: 'operator', actor_id: OPERATOR.id, reason: evidence },
    ]);
    const view = (
      await get(t, `/api/operator/orders/${sell.id}`, OPERATOR)
    ).json<OperatorOrderResponse>();
    expect(view.chainChecked).toBe(true);
    expect(view.events.at(-1)).toMatchObject({
      to: 'TX_CONFIRMED',
      actor: 'operator',
      reason: evidence,
    });
  });

  it('a deposit seen before its confirmations: confirmed with a reason, the confirmations seen so far kept', async () => {
    const sell = await waitingSell(t, 'ERC20');
    const hash = await pay(chain, t, sell);
    const sent = await post(t, API_PATHS.txHash(sell.id), { txHash: hash }, sell.seller);
    expect(sent.json()).toMatchObject({ status: 'TX_PENDING' });
    const res = await confirmTx(sell.id, { reason: 'The customer showed the exchange’s receipt' });
    expect(res.json()).toEqual({ success: true, status: 'TX_CONFIRMED' });
    expect((await confirmation(sell.id))[0]?.reason).toBe(
      `deposit confirmed by hand (chain check seen, 1/${CONFIRMATIONS} confirmations): The customer showed the exchange’s receipt`,
    );
  });

  it('an order no longer waiting answers 409 INVALID_STATUS with its status, not a reason to give', async () => {
    const sell = await pendingSell('ERC20', evmHash());
    expect((await confirmTx(sell.id, { reason: 'Seen in the explorer' })).statusCode).toBe(200);
    const stale = expectError(await confirmTx(sell.id, {}), 'INVALID_STATUS');
    expect(stale.status).toBe('TX_CONFIRMED');
  });
});

describe('a network without a node stays manual', () => {
  it('a POLYGON sell is confirmed with no reason, as before: no reason in the audit trail', async () => {
    const sell = await pendingSell('POLYGON', evmHash());
    const res = await confirmTx(sell.id, {});
    expect(res.json()).toEqual({ success: true, status: 'TX_CONFIRMED' });
    expect(await confirmation(sell.id)).toEqual([
      { actor: 'operator', actor_id: OPERATOR.id, reason: null },
    ]);
    const view = (
      await get(t, `/api/operator/orders/${sell.id}`, OPERATOR)
    ).json<OperatorOrderResponse>();
    expect(view.chainChecked).toBe(false);
  });

  it('no body at all confirms it too', async () => {
    const sell = await pendingSell('POLYGON', evmHash());
    const res = await t.app.inject({
      method: 'POST',
      url: OPERATOR_PATHS.confirmTx(sell.id),
      headers: headersFor(OPERATOR),
    });
    // (No payload: no content type either, as a script's bare POST.)
    expect(res.json()).toEqual({ success: true, status: 'TX_CONFIRMED' });
  });
});
