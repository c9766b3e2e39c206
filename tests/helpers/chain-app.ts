/**
 * A test app whose sells on ERC20 and BEP20 are checked on a real EVM chain (Hardhat, in
 * process): ERC20's USDT is the chain's 6-decimal token, BEP20's the 18-decimal one (as Binance's
 * on BSC), 5 confirmations each; the deposit address is the chain's `deposit` account. POLYGON
 * stays manual. Helpers to create a sell waiting for its crypto and to pay it.
 */
import type { Address, Hash } from 'viem';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { ChainCheckContext } from '../../src/server/chain/chain-checker';
import { parseChainConfig, type ChainConfig } from '../../src/server/platform/config/chain-config';
import type { AppConfig } from '../../src/server/platform/config/config';
import { unitsToTokenAmount } from '../../src/shared/money';
import type { NetworkId } from '../../src/shared/networks';
import { createOrder, newCustomer, type TestUser } from './api';
import { insertOrder, insertPaidEvent } from './orders';
import { startEvmChain, type EvmTestChain } from './evm-chain';
import { createTestApp, type TestApp } from './test-app';
import { testDatabaseKind } from './test-database';

export const CONFIRMATIONS = 5;

/** The chain checks of an app reading `rpcUrl` (the chain's, or a dead port's). */
export function evmChainConfig(chain: EvmTestChain, rpcUrl = chain.url): ChainConfig {
  const parsed = parseChainConfig({
    CHAIN_RPC_ERC20: rpcUrl,
    CHAIN_CONFIRMATIONS_ERC20: String(CONFIRMATIONS),
    TOKEN_CONTRACT_USDT_ERC20: chain.tokens.usdt6,
    CHAIN_RPC_BEP20: rpcUrl,
    CHAIN_CONFIRMATIONS_BEP20: String(CONFIRMATIONS),
    TOKEN_CONTRACT_USDT_BEP20: chain.tokens.usdt18,
  });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return parsed.config;
}

/** A test file's chain, its app and the chain checker's context of that app. */
export interface EvmChainApp {
  chain: EvmTestChain;
  t: TestApp;
  ctx: ChainCheckContext;
}

/**
 * The set-up of a test file on the EVM chain: the chain and a chain-checked app on it
 * (`createChainTestApp` with `overrides`) before its tests, both stopped after them, and the
 * node's faults cleared before each test. The fields are set once the file's tests start.
 */
export function useEvmChainApp(overrides: Partial<AppConfig> = {}): EvmChainApp {
  const env = {} as EvmChainApp;
  beforeAll(async () => {
    env.chain = await startEvmChain();
    env.t = await createChainTestApp(env.chain, overrides);
    env.ctx = chainCheckContext(env.t);
  }, 60_000);
  afterAll(async () => {
    await env.t.close();
    await env.chain.stop();
  });
  beforeEach(() => {
    env.chain.faults.clear();
  });
  return env;
}

/** The chain checker's context of a test app: its database, configuration and readers. */
export function chainCheckContext(t: TestApp, config: AppConfig = t.config): ChainCheckContext {
  return { db: t.database.db, config, chain: t.app.chain, dialect: testDatabaseKind() };
}

/** The chain check of an order (`kind`, deposit by default), if it has one. */
export function chainCheckOf(t: TestApp, orderId: string, kind: 'deposit' | 'payout' = 'deposit') {
  return t.database.db
    .selectFrom('chain_checks')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('kind', '=', kind)
    .executeTakeFirst();
}

export function createChainTestApp(
  chain: EvmTestChain,
  overrides: Partial<AppConfig> = {},
  options: { realClock?: boolean; jobs?: boolean } = {},
): Promise<TestApp> {
  return createTestApp(
    {
      depositAddresses: { trc20: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', evm: chain.deposit },
      chain: evmChainConfig(chain),
      ...overrides,
    },
    options,
  );
}

export interface WaitingSell {
  readonly id: string;
  readonly seller: TestUser;
  readonly network: NetworkId;
  /** The order's amount in millionths. */
  readonly units: number;
}

/** A P2P sell of USDT on `network`, WAITING_CRYPTO. */
export async function waitingSell(
  t: TestApp,
  network: NetworkId = 'ERC20',
  total = 10_000,
): Promise<WaitingSell> {
  const seller = newCustomer('Seller');
  const id = await createOrder(t, seller, { type: 'SELL', total, network });
  const row = await t.database.db
    .selectFrom('orders')
    .select(['amount_units', 'status'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  expect(row.status).toBe('WAITING_CRYPTO');
  return { id, seller, network, units: row.amount_units };
}

/** The token an order's network reads as USDT on the test chain, and its decimals. */
export function tokenOf(
  chain: EvmTestChain,
  network: NetworkId,
): { token: Address; decimals: number } {
  return network === 'BEP20'
    ? { token: chain.tokens.usdt18, decimals: 18 }
    : { token: chain.tokens.usdt6, decimals: 6 };
}

/** The order's amount in the base units of its network's token. */
export function amountOf(chain: EvmTestChain, sell: WaitingSell): bigint {
  return unitsToTokenAmount(sell.units, tokenOf(chain, sell.network).decimals);
}

/**
 * Hardhat stamps blocks with the wall clock (or one second after the last block); a test that
 * moved the app's clock forward moves the chain's with it, so that a transfer made after an order
 * is not stamped before the order's creation.
 */
export async function chainTimeNotBefore(chain: EvmTestChain, t: TestApp): Promise<void> {
  const latest = (await chain.rpc('eth_getBlockByNumber', ['latest', false])) as {
    timestamp: string;
  };
  const want = Math.ceil(t.clock.now() / 1000) + 1;
  if (Number(BigInt(latest.timestamp)) < want) {
    await chain.rpc('evm_setNextBlockTimestamp', [want]);
  }
}

/** Pays the order from the customer's account: `amount` (the order's by default) to `to`. */
export async function pay(
  chain: EvmTestChain,
  t: TestApp,
  sell: WaitingSell,
  options: { amount?: bigint; to?: Address; token?: Address } = {},
): Promise<Hash> {
  await chainTimeNotBefore(chain, t);
  return chain.transfer(
    options.token ?? tokenOf(chain, sell.network).token,
    chain.customer,
    options.to ?? chain.deposit,
    options.amount ?? amountOf(chain, sell),
  );
}

/**
 * A P2P buy whose payment `operatorId` confirmed at `paidAt`: PAYMENT_CONFIRMED, its event into
 * that status written as the transition writes it (the payout check reads when it was paid).
 */
export async function insertPaidBuy(
  t: TestApp,
  operatorId: number,
  fields: { readonly network: NetworkId; readonly wallet: string; readonly units: number },
  paidAt: number = t.clock.now(),
): Promise<{ readonly id: string; readonly customer: TestUser }> {
  const customer = newCustomer('Buyer');
  const id = await insertOrder(t.database.db, customer, {
    status: 'PAYMENT_CONFIRMED',
    network: fields.network,
    wallet_address: fields.wallet,
    amount_units: fields.units,
    created_at: paidAt - 60_000,
  });
  await insertPaidEvent(t.database.db, id, operatorId, paidAt);
  return { id, customer };
}
