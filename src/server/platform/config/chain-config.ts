/** The chain checks' configuration: nodes, confirmations, contracts, deposit and payout wallets. */
import * as v from 'valibot';
import {
  CRYPTO_CURRENCIES,
  NETWORK_IDS,
  type CryptoCurrency,
  type NetworkId,
} from '../../../shared/networks';
import {
  CHAIN_VARIABLE_NAMES,
  ChainVariablesSchema,
  EVM_IDS,
  batchNetworks,
  isOffered,
  type CHAIN_CHECK_VARIABLES,
} from './chain-variables';
import { DEMO_DEPOSIT_ADDRESSES } from './demo-config';
import { DEFAULT_CONFIRMATIONS, OFFICIAL_TOKEN_CONTRACTS } from './tokens';
import { presentVariables, type CheckedVariables, type Env, type ParsedVariables } from './values';

export { CHAIN_VARIABLE_NAMES, ChainVariablesSchema };

export type NetworkTokens = Readonly<Partial<Record<CryptoCurrency, string>>>;

export interface EvmChainConfig {
  readonly family: 'evm';
  readonly rpcUrl: string;
  readonly confirmations: number;
  readonly tokens: NetworkTokens;
  readonly batch: boolean;
  readonly payoutAddress?: string;
}

export interface TronChainConfig {
  readonly family: 'tron';
  readonly rpcUrl: string;
  /** Tron's finality is the solidified block, which the node reports itself. */
  readonly confirmations: 'solidified';
  readonly apiKey: string | undefined;
  readonly tokens: NetworkTokens;
  readonly payoutAddress?: string;
}

export type NetworkChainConfig = EvmChainConfig | TronChainConfig;

export type ChainConfig = Readonly<Record<NetworkId, NetworkChainConfig | 'manual'>>;

export type ChainConfigResult =
  | { readonly ok: true; readonly config: ChainConfig }
  | { readonly ok: false; readonly problems: readonly string[] };

const FAMILY_PREFIXES = ['CHAIN_RPC_', 'CHAIN_CONFIRMATIONS_', 'TOKEN_CONTRACT_'] as const;

/** Names like ours naming no network or offered pair: a typo would leave a network manual. */
function unknownVariables(names: readonly string[]): string[] {
  const known = new Set(CHAIN_VARIABLE_NAMES);
  return names
    .filter((name) => FAMILY_PREFIXES.some((prefix) => name.startsWith(prefix)))
    .filter((name) => !known.has(name))
    .map((name) =>
      name.startsWith('TOKEN_CONTRACT_')
        ? `${name} names no coin and network the app offers: use TOKEN_CONTRACT_<USDT|USDC>_<NETWORK> for a pair of src/shared/networks.ts`
        : `${name} names no network: the networks are ${NETWORK_IDS.join(', ')}`,
    );
}

export function parseChainConfig(env: Env): ChainConfigResult {
  const present = presentVariables(env);
  const problems = unknownVariables(Object.keys(present));
  const result = v.safeParse(ChainVariablesSchema, present);
  if (!result.success) problems.push(...result.issues.map((issue) => issue.message));
  if (present['TRON_API_KEY'] !== undefined && present['CHAIN_RPC_TRC20'] === undefined) {
    problems.push(
      'TRON_API_KEY is set but CHAIN_RPC_TRC20 is not: set CHAIN_RPC_TRC20 (https://api.trongrid.io for TronGrid) or unset the key',
    );
  }
  const batched = new Set(batchNetworks(present['CHAIN_RPC_BATCH'] ?? ''));
  for (const network of batched) {
    if (present[`CHAIN_RPC_${network}`] === undefined && EVM_IDS.some((id) => id === network)) {
      problems.push(
        `CHAIN_RPC_BATCH lists ${network}, which has no CHAIN_RPC_${network}: set its node or take it off the list`,
      );
    }
  }
  if (!result.success || problems.length > 0) return { ok: false, problems };

  // Each entry's schema checked its value; only strings and numbers come out of them.
  const value = (name: string): string | undefined => {
    const raw: unknown = result.output[name];
    return typeof raw === 'string' ? raw : undefined;
  };
  const tokensOf = (network: NetworkId): NetworkTokens => {
    const tokens: Partial<Record<CryptoCurrency, string>> = {};
    for (const coin of CRYPTO_CURRENCIES) {
      const contract =
        value(`TOKEN_CONTRACT_${coin}_${network}`) ?? OFFICIAL_TOKEN_CONTRACTS[coin][network];
      if (contract !== undefined && isOffered(coin, network)) tokens[coin] = contract;
    }
    return tokens;
  };

  const config = {} as Record<NetworkId, NetworkChainConfig | 'manual'>;
  for (const network of EVM_IDS) {
    const url = value(`CHAIN_RPC_${network}`);
    const count: unknown = result.output[`CHAIN_CONFIRMATIONS_${network}`];
    config[network] =
      url === undefined
        ? 'manual'
        : {
            family: 'evm',
            rpcUrl: url,
            confirmations: typeof count === 'number' ? count : DEFAULT_CONFIRMATIONS[network],
            tokens: tokensOf(network),
            batch: batched.has(network),
          };
  }
  const tronUrl = value('CHAIN_RPC_TRC20');
  config.TRC20 =
    tronUrl === undefined
      ? 'manual'
      : {
          family: 'tron',
          rpcUrl: tronUrl.replace(/\/+$/, ''),
          confirmations: 'solidified',
          apiKey: value('TRON_API_KEY'),
          tokens: tokensOf('TRC20'),
        };
  return { ok: true, config };
}

/** The exchange's own wallets operators pay buys from, per network family; unset: any sender. */
export interface PayoutAddresses {
  readonly evm?: string | undefined;
  readonly trc20?: string | undefined;
}

/** Set on each network's settings, so nothing that judges a payout can miss the address. */
export function withPayoutAddresses(config: ChainConfig, addresses: PayoutAddresses): ChainConfig {
  const result = { ...config };
  for (const network of NETWORK_IDS) {
    const settings = config[network];
    if (settings === 'manual') continue;
    const payoutAddress = settings.family === 'evm' ? addresses.evm : addresses.trc20;
    result[network] = payoutAddress === undefined ? settings : { ...settings, payoutAddress };
  }
  return result;
}

export interface ChainChecksConfig {
  readonly depositAddresses: { readonly trc20: string; readonly evm: string };
  readonly chain: ChainConfig;
  readonly chainCheckIntervalMs: number;
  /** With a bot token, a node on a test network passes with a warning (chain-ids.ts). */
  readonly chainAllowTestNetworks: boolean;
}

export function chainCheckProblems(
  env: CheckedVariables<'BOT_TOKEN' | 'DEPOSIT_ADDRESS_TRC20' | 'DEPOSIT_ADDRESS_EVM'>,
): string[] {
  if (env.BOT_TOKEN === undefined) return [];
  return (['DEPOSIT_ADDRESS_TRC20', 'DEPOSIT_ADDRESS_EVM'] as const)
    .filter((name) => env[name] === undefined)
    .map((name) => `${name} must be set when BOT_TOKEN is set: customers send real funds to it`);
}

export function chainChecksConfigOf(
  variables: ParsedVariables<typeof CHAIN_CHECK_VARIABLES>,
  chain: ChainConfig,
): ChainChecksConfig {
  return {
    depositAddresses: {
      trc20: variables.DEPOSIT_ADDRESS_TRC20 ?? DEMO_DEPOSIT_ADDRESSES.trc20,
      evm: variables.DEPOSIT_ADDRESS_EVM ?? DEMO_DEPOSIT_ADDRESSES.evm,
    },
    chain: withPayoutAddresses(chain, {
      evm: variables.PAYOUT_ADDRESS_EVM,
      trc20: variables.PAYOUT_ADDRESS_TRC20,
    }),
    chainCheckIntervalMs: variables.CHAIN_CHECK_INTERVAL_MS,
    chainAllowTestNetworks: variables.CHAIN_ALLOW_TEST_NETWORKS === '1',
  };
}
