/**
 * The chain checks' part of the configuration (design.md, "Configuration" and "Chain checks"): which
 * networks are read from a node, how many confirmations each waits for, and which contract is the
 * official one of each coin. A pure function of the environment, in config.ts's style (one valibot
 * check per variable, so one message per bad value, every problem listed at once); config.ts adds
 * its problems to its own list.
 *
 * - CHAIN_RPC_<NETWORK>: the node's URL (JSON-RPC for EVM networks, the TronGrid-compatible HTTP
 *   API for TRC20). Unset: the network stays manual, as before the chain checks.
 * - TRON_API_KEY: sent as TRON-PRO-API-KEY to the TRC20 node.
 * - CHAIN_CONFIRMATIONS_<NETWORK>: blocks to wait for on an EVM network, default from tokens.ts.
 *   Not for TRC20: Tron's finality is the solidified block (2/3 of the super representatives
 *   have built on it), which the node reports itself; a count there would only be a weaker
 *   rule, so setting it is refused rather than silently ignored.
 * - TOKEN_CONTRACT_<COIN>_<NETWORK>: replaces the issuer's contract from tokens.ts (a testnet, a
 *   local chain), for the coin and network pairs the app offers.
 * - CHAIN_RPC_BATCH: the EVM networks whose node takes JSON-RPC batches, comma-separated: a
 *   round's hash lookups there go as one request. Off by default: some hosted nodes refuse or
 *   meter batches.
 *
 * Messages never repeat an RPC URL or an API key: URLs of hosted nodes carry their key.
 */
import * as v from 'valibot';
import { checkWalletAddress } from '../../../shared/addresses';
import { PAYMENT_METHODS } from '../../../shared/order-status';
import {
  CRYPTO_CURRENCIES,
  NETWORK_IDS,
  networksFor,
  type CryptoCurrency,
  type EvmNetworkId,
  type NetworkId,
} from '../../../shared/networks';
import { documented, withRange } from './documented';
import { DEFAULT_CONFIRMATIONS, OFFICIAL_TOKEN_CONTRACTS } from './tokens';

/** The token contract per coin on one network: only the coins the app offers there. */
export type NetworkTokens = Readonly<Partial<Record<CryptoCurrency, string>>>;

export interface EvmChainConfig {
  readonly family: 'evm';
  readonly rpcUrl: string;
  readonly confirmations: number;
  readonly tokens: NetworkTokens;
  /** Whether the node takes JSON-RPC batches (CHAIN_RPC_BATCH). */
  readonly batch: boolean;
  /** Where payouts must come from (PAYOUT_ADDRESS_EVM, see {@link withPayoutAddresses}). */
  readonly payoutAddress?: string;
}

export interface TronChainConfig {
  readonly family: 'tron';
  readonly rpcUrl: string;
  /** Tron counts a block final when it is solidified; see the comment at the top. */
  readonly confirmations: 'solidified';
  readonly apiKey: string | undefined;
  readonly tokens: NetworkTokens;
  /** Where payouts must come from (PAYOUT_ADDRESS_TRC20, see {@link withPayoutAddresses}). */
  readonly payoutAddress?: string;
}

export type NetworkChainConfig = EvmChainConfig | TronChainConfig;

/** Each network read from a node, or 'manual' when no node is configured for it. */
export type ChainConfig = Readonly<Record<NetworkId, NetworkChainConfig | 'manual'>>;

export type ChainConfigResult =
  | { readonly ok: true; readonly config: ChainConfig }
  | { readonly ok: false; readonly problems: readonly string[] };

const EVM_IDS = NETWORK_IDS.filter((id): id is EvmNetworkId => id !== 'TRC20');

/** Whether the app offers `coin` on `network` by any method (the lists of src/shared/networks.ts). */
function isOffered(coin: CryptoCurrency, network: NetworkId): boolean {
  return PAYMENT_METHODS.some((method) => networksFor(method, coin).includes(network));
}

const text = v.string();

const rpcUrl = (name: string) =>
  v.optional(
    v.pipe(
      text,
      v.check((raw) => {
        try {
          const url = new URL(raw);
          return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
        } catch {
          return false;
        }
      }, `${name} must be an http:// or https:// URL of the network's node`),
    ),
  );

const MAX_CONFIRMATIONS = 10_000;

const confirmations = (name: string, fallback: number) =>
  withRange(
    v.optional(
      v.pipe(
        text,
        v.check(
          (raw) => /^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= MAX_CONFIRMATIONS,
          (issue) =>
            `${name} must be a whole number of blocks from 1 to ${MAX_CONFIRMATIONS}, got "${issue.input}"`,
        ),
        v.transform(Number),
      ),
      String(fallback),
    ),
    1,
    MAX_CONFIRMATIONS,
  );

const tokenContract = (name: string, network: NetworkId) =>
  v.optional(
    v.pipe(
      text,
      v.check(
        (address) => {
          const problem = checkWalletAddress(network, address);
          return problem === null;
        },
        (issue) =>
          network === 'TRC20'
            ? `${name} must be a Tron address (T… base58check), got "${issue.input}"`
            : `${name} must be a contract address (0x + 40 hex, EIP-55 checksum when mixed case), got "${issue.input}"`,
      ),
    ),
  );

/** The names CHAIN_RPC_BATCH lists. */
const batchNetworks = (raw: string): string[] =>
  raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');

type Entries = Record<string, v.GenericSchema<string | undefined, unknown>>;

/** What the reference says of each family, written once for all its members. */
const RPC_FAMILY = documentedFamily(
  'CHAIN_RPC_<NETWORK>',
  "the node a network's deposits and payouts are read from: a JSON-RPC node (`http(s)://`) for an EVM network, a TronGrid-compatible HTTP API for TRC20 (`https://api.trongrid.io`). Unset, the network stays manual: an operator confirms its deposits and payouts",
  'manual',
);
const CONFIRMATIONS_FAMILY = documentedFamily(
  'CHAIN_CONFIRMATIONS_<NETWORK>',
  'blocks a deposit on an EVM network waits for, its own included, before the order is crypto-confirmed by itself (why each default: `src/server/platform/config/tokens.ts`)',
);
const TOKEN_FAMILY = documentedFamily(
  'TOKEN_CONTRACT_<COIN>_<NETWORK>',
  "the coin's contract on the network, in place of the issuer's (a testnet, a local chain): deposits and payouts must move it. Decimals are read from the contract",
  "the issuer's contract (`src/server/platform/config/tokens.ts`, with its sources)",
);

/** A family's documentation, given to each member's schema. */
function documentedFamily(family: string, description: string, unset?: string) {
  return <TSchema extends v.GenericSchema<string | undefined, unknown>>(schema: TSchema) =>
    documented(schema, description, {
      group: 'chain',
      family,
      ...(unset === undefined ? {} : { unset }),
    });
}

const entries: Entries = {
  CHAIN_RPC_TRC20: RPC_FAMILY(rpcUrl('CHAIN_RPC_TRC20')),
  TRON_API_KEY: documented(
    v.optional(
      v.pipe(
        text,
        v.regex(/^[\x21-\x7e]+$/, 'TRON_API_KEY must be printable characters without spaces'),
      ),
    ),
    'sent as `TRON-PRO-API-KEY` to `CHAIN_RPC_TRC20`, which it needs (TronGrid gives keys)',
    { group: 'chain' },
  ),
  CHAIN_RPC_BATCH: documented(
    v.optional(
      v.pipe(
        text,
        v.check(
          (raw) =>
            batchNetworks(raw).every((name) => (EVM_IDS as readonly string[]).includes(name)),
          (issue) =>
            `CHAIN_RPC_BATCH must list EVM networks (${EVM_IDS.join(', ')}) separated by commas, got "${issue.input}"`,
        ),
      ),
    ),
    "the EVM networks whose node takes JSON-RPC batches, comma-separated (`BEP20,ERC20`): a round's hash lookups there go as one request. Each needs its `CHAIN_RPC_<NETWORK>`. Off by default, as some hosted nodes refuse or meter batches",
    { group: 'chain', unset: 'none' },
  ),
};
for (const network of EVM_IDS) {
  entries[`CHAIN_RPC_${network}`] = RPC_FAMILY(rpcUrl(`CHAIN_RPC_${network}`));
  entries[`CHAIN_CONFIRMATIONS_${network}`] = CONFIRMATIONS_FAMILY(
    confirmations(`CHAIN_CONFIRMATIONS_${network}`, DEFAULT_CONFIRMATIONS[network]),
  );
}
entries['CHAIN_CONFIRMATIONS_TRC20'] = documented(
  v.optional(
    v.pipe(
      text,
      v.check(
        () => false,
        'CHAIN_CONFIRMATIONS_TRC20 is not used: a TRC20 transfer counts when its block is solidified. Unset it',
      ),
    ),
  ),
  'refused: a Tron transfer counts once its block is solidified (two thirds of the super representatives have built on it), which the node reports itself; a number of blocks could only be a weaker rule',
  { group: 'chain' },
);
for (const coin of CRYPTO_CURRENCIES) {
  for (const network of NETWORK_IDS) {
    if (!isOffered(coin, network)) continue;
    const name = `TOKEN_CONTRACT_${coin}_${network}`;
    entries[name] = TOKEN_FAMILY(tokenContract(name, network));
  }
}

/**
 * Every variable of the chain checks, each with its own check and with what
 * docs/configuration.md says of it (documented.ts).
 */
export const ChainVariablesSchema = v.object(entries);

/** The names of the chain checks' variables, each family member by its own name. */
export const CHAIN_VARIABLE_NAMES: readonly string[] = Object.keys(entries);

const FAMILY_PREFIXES = ['CHAIN_RPC_', 'CHAIN_CONFIRMATIONS_', 'TOKEN_CONTRACT_'] as const;

/**
 * Variables that look like ours but name no network or no offered pair: most likely a typo
 * (CHAIN_RPC_ETH, TOKEN_CONTRACT_USDC_OPTIMISM) that would otherwise leave a network manual
 * without a word.
 */
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

/**
 * Reads the chain checks' variables: every value trimmed, a blank one as if unset (as config.ts
 * does). Returns every problem at once, or the configuration of each network.
 */
export function parseChainConfig(
  env: Readonly<Record<string, string | undefined>>,
): ChainConfigResult {
  const present = Object.fromEntries(
    Object.entries(env)
      .map(([name, value]) => [name, value?.trim()] as const)
      .filter(
        (entry): entry is readonly [string, string] => entry[1] !== undefined && entry[1] !== '',
      ),
  );
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

/**
 * The chain configuration with each network read from a node given its family's payout address
 * (PAYOUT_ADDRESS_EVM, PAYOUT_ADDRESS_TRC20, read and checked by config.ts). It is kept on the
 * network's settings rather than beside them because whatever judges a payout (its completion,
 * the chain checker later) reaches the network through these settings: the rule cannot be judged
 * with the address in one place and without it in another. A manual network gets none: nothing
 * reads its payouts.
 */
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
