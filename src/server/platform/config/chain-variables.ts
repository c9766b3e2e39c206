/** The chain checks' variables. No message repeats an RPC URL or API key: a URL may carry a key. */
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
import { DEMO_DEPOSIT_ADDRESSES } from './demo-config';
import { documented, withRange } from './documented';
import { DEFAULT_CONFIRMATIONS } from './tokens';
import { text, walletAddress, wholeNumber, type VariableEntries } from './values';

export const EVM_IDS = NETWORK_IDS.filter((id): id is EvmNetworkId => id !== 'TRC20');

/** Whether the app offers `coin` on `network` by any method. */
export function isOffered(coin: CryptoCurrency, network: NetworkId): boolean {
  return PAYMENT_METHODS.some((method) => networksFor(method, coin).includes(network));
}

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

export const batchNetworks = (raw: string): string[] =>
  raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');

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

function documentedFamily(family: string, description: string, unset?: string) {
  return <TSchema extends v.GenericSchema<string | undefined, unknown>>(schema: TSchema) =>
    documented(schema, description, {
      group: 'chain',
      family,
      ...(unset === undefined ? {} : { unset }),
    });
}

const entries: VariableEntries = {
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

export const ChainVariablesSchema = v.object(entries);

export const CHAIN_VARIABLE_NAMES: readonly string[] = Object.keys(entries);

/** The chain's variables checked with the rest of the environment (EnvVariablesSchema). */
export const CHAIN_CHECK_VARIABLES = {
  DEPOSIT_ADDRESS_TRC20: documented(
    walletAddress('DEPOSIT_ADDRESS_TRC20', 'TRC20'),
    'where sellers send USDT and USDC on Tron; required with `BOT_TOKEN`',
    {
      group: 'deposits',
      unset: `a burn address in demo mode (\`${DEMO_DEPOSIT_ADDRESSES.trc20}\`)`,
    },
  ),
  DEPOSIT_ADDRESS_EVM: documented(
    walletAddress('DEPOSIT_ADDRESS_EVM', 'ERC20'),
    'where sellers send on every EVM network (BEP20, ERC20, POLYGON, ARBITRUM, OPTIMISM, BASE); required with `BOT_TOKEN`',
    { group: 'deposits', unset: `a burn address in demo mode (\`${DEMO_DEPOSIT_ADDRESSES.evm}\`)` },
  ),
  // The exchange's hot wallets (chain/deposit-rules.ts, judgePayout).
  PAYOUT_ADDRESS_TRC20: documented(
    walletAddress('PAYOUT_ADDRESS_TRC20', 'TRC20'),
    'the exchange\'s Tron wallet buys are paid from: a TRC20 payout checked on the chain must come from it (`TX_WRONG_SENDER`). Unset, a customer who paid themselves could be "paid" by their own transfer',
    { group: 'deposits', unset: "any sender, the customer's own included" },
  ),
  PAYOUT_ADDRESS_EVM: documented(
    walletAddress('PAYOUT_ADDRESS_EVM', 'ERC20'),
    'the same for the EVM networks: a payout checked on the chain there must come from it',
    { group: 'deposits', unset: "any sender, the customer's own included" },
  ),
  // Milliseconds, not seconds: tests and the local chain (a block every 2 s) want less than one.
  CHAIN_CHECK_INTERVAL_MS: documented(
    wholeNumber('CHAIN_CHECK_INTERVAL_MS', 15_000, 1_000, 600_000),
    "how often, in milliseconds, the chain checker reads each network's head, scans the deposit address and looks at the deposits due",
    { group: 'chain' },
  ),
  CHAIN_ALLOW_TEST_NETWORKS: documented(
    v.optional(
      v.picklist(
        ['1', '0'],
        (issue) => `CHAIN_ALLOW_TEST_NETWORKS must be 1 or 0, got "${String(issue.input)}"`,
      ),
      '0',
    ),
    '`1` when this server is a test: with `BOT_TOKEN`, a node on a test network (a local chain, a public testnet, a Tron network other than mainnet) passes with a warning instead of stopping the start. Demo mode lets them pass anyway; a node of another chain always stops it',
    { group: 'chain' },
  ),
};
