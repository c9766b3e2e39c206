/**
 * Which chain a node is on ("Reading the chains"). Each network's node is asked once at
 * start-up: an EVM node its chain id, a TronGrid endpoint its genesis block (block 0, whose id
 * names the network). A node of another chain (CHAIN_RPC_BEP20 pointing at Ethereum) stops the
 * server, since every lookup on it would be wrong without an error. A node of a test network
 * (a local chain, a public testnet, a Tron network other than mainnet) would confirm deposits of
 * coins worth nothing: with a real BOT_TOKEN it stops the server too, unless
 * CHAIN_ALLOW_TEST_NETWORKS=1 says this server is a test; in demo mode it passes with a warning,
 * as tests and the README's local chain need. A node that cannot be reached does not stop the
 * start (it may be down for a while): its network is not read until it has answered right
 * (checked-reader.ts asks it again).
 */
import type { FastifyBaseLogger } from 'fastify';
import { EVM_CHAIN_IDS, NETWORK_IDS, type NetworkId } from '../../../shared/networks';
import { isDemoMode, type AppConfig } from '../../platform/config/config';
import type { ChainReader } from './chain-reader';
import type { ChainReaders } from './chain-reader';
import type { EvmReader } from './evm-reader';
import { TronReader } from './tron-reader';

/** Hardhat's chain id: the in-process test chain and tests/helpers/local-chain.ts. */
export const LOCAL_TEST_CHAIN_ID = 31337;

/**
 * The chain ids of test networks, named for the messages: the local development chains and the
 * public testnets of the networks the exchange reads (ids as chainlist.org and viem's
 * `viem/chains` give them; tests/server/chain/chain-ids.test.ts compares them with viem's). Coins on
 * these are worth nothing, so a real exchange must never count a deposit made on one.
 */
export const TEST_CHAIN_IDS: Readonly<Record<number, string>> = {
  [LOCAL_TEST_CHAIN_ID]: "Hardhat's local chain",
  1337: 'a local development chain',
  11155111: "Sepolia, Ethereum's testnet",
  17000: "Holesky, Ethereum's testnet",
  97: 'BNB Smart Chain testnet',
  80002: "Amoy, Polygon's testnet",
  421614: 'Arbitrum Sepolia',
  11155420: 'OP Sepolia',
  84532: 'Base Sepolia',
};

/**
 * The id of Tron mainnet's block 0, as `/wallet/getblockbynum {"num": 0}` answers it. Tron's
 * HTTP API has no chain id; the genesis block names the network as well.
 */
export const TRON_MAINNET_GENESIS =
  '00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc';

/** Tron's public testnets by their genesis block id, named for the messages. */
const TRON_TEST_GENESES: Readonly<Record<string, string>> = {
  '0000000000000000d698d4192c56cb6be724a558448e2684802de4d6cd8690dc': 'Nile testnet',
  '0000000000000000de1aa88295e1fcf982742f773e0419c5a9c134c994a9059e': 'Shasta testnet',
};

/**
 * What a node on a test network meets: `demo` and `allowed` (CHAIN_ALLOW_TEST_NETWORKS=1 with a
 * bot token) let it through with a warning; `refused` (a bot token, so real money) does not.
 */
export type TestNetworks = 'demo' | 'allowed' | 'refused';

export function testNetworksOf(
  config: Pick<AppConfig, 'botToken' | 'chainAllowTestNetworks'>,
): TestNetworks {
  if (isDemoMode(config)) return 'demo';
  return config.chainAllowTestNetworks ? 'allowed' : 'refused';
}

/** Nodes of another chain, or of a test network where money is real: the server must not start. */
export class ChainIdMismatch extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ChainIdMismatch';
  }
}

/**
 * What one network's node answered: an EVM chain id (a number) or a Tron genesis block id (hex).
 * Another Tron genesis than mainnet's is a test network, never `wrong`: Tron has no other
 * mainnet for a URL to point at by mistake.
 */
export type ChainIdOutcome =
  | {
      readonly network: NetworkId;
      readonly kind: 'right' | 'test' | 'wrong';
      readonly id: number | string;
    }
  | { readonly network: NetworkId; readonly kind: 'unreachable'; readonly error: unknown };

export type AnsweredChainId = Exclude<ChainIdOutcome, { kind: 'unreachable' }>;

/** Whether an outcome lets the network be read, and what to tell a person about it. */
export interface ChainIdVerdict {
  readonly accepted: boolean;
  readonly level: 'info' | 'warn' | 'error';
  readonly message: string;
}

export type ChainIdLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** The readers whose node's chain is checked: chain-readers.ts wraps every reader in one. */
export interface ChainIdChecked {
  readonly network: NetworkId;
  /** Asks the node, remembers what the answer allows, and gives the outcome. */
  checkAtStart(testNetworks: TestNetworks, log: ChainIdLog): Promise<ChainIdOutcome>;
}

function isChecked(reader: ChainReader): reader is ChainReader & ChainIdChecked {
  return 'checkAtStart' in reader;
}

/** Asks a node which chain it is on (one call, within the reader's timeout). */
export async function askChainId(reader: EvmReader | TronReader): Promise<ChainIdOutcome> {
  const { network } = reader;
  try {
    if (reader instanceof TronReader) {
      const id = await reader.genesisBlockId();
      return { network, kind: id === TRON_MAINNET_GENESIS ? 'right' : 'test', id };
    }
    const id = await reader.chainId();
    if (id === EVM_CHAIN_IDS[reader.network]) return { network, kind: 'right', id };
    return { network, kind: id in TEST_CHAIN_IDS ? 'test' : 'wrong', id };
  } catch (error) {
    return { network, kind: 'unreachable', error };
  }
}

/** What `network`'s node must answer: "chain id 56", or Tron mainnet's genesis block. */
function mainnetOf(network: NetworkId): string {
  return network === 'TRC20'
    ? `Tron mainnet, genesis block ${TRON_MAINNET_GENESIS}`
    : `chain id ${EVM_CHAIN_IDS[network]}`;
}

/** "chain id 31337, Hardhat's local chain", or a genesis block and the testnet it names. */
function answerOf({ id }: AnsweredChainId): string {
  if (typeof id === 'string') {
    return `genesis block ${id}, ${TRON_TEST_GENESES[id] ?? 'not a known network: a private chain or a fake'}`;
  }
  const name = TEST_CHAIN_IDS[id];
  return name === undefined ? `chain id ${id}` : `chain id ${id}, ${name}`;
}

/** The rule of this file, for one answer. */
export function judgeChainId(outcome: AnsweredChainId, testNetworks: TestNetworks): ChainIdVerdict {
  const { network } = outcome;
  const variable = `CHAIN_RPC_${network}`;
  if (outcome.kind === 'right') {
    return { accepted: true, level: 'info', message: 'chain node answers its chain' };
  }
  if (outcome.kind === 'wrong') {
    return {
      accepted: false,
      level: 'error',
      message: `${variable} answers chain id ${outcome.id}, but ${network} is ${mainnetOf(network)}: the URL points at another chain`,
    };
  }
  const what = `${variable} is a test network (${answerOf(outcome)}), not ${network} (${mainnetOf(network)})`;
  if (testNetworks === 'refused') {
    return {
      accepted: false,
      level: 'error',
      message: `${what}: with a BOT_TOKEN this is a real exchange, which never counts coins of a test network; set CHAIN_ALLOW_TEST_NETWORKS=1 if this server is a test`,
    };
  }
  return {
    accepted: true,
    level: 'warn',
    message:
      testNetworks === 'demo'
        ? `${what}: fine for tests and a demo, never for real money`
        : `${what}: let through by CHAIN_ALLOW_TEST_NETWORKS=1 for a test, never for real money`,
  };
}

/**
 * Asks every network's node which chain it is on, side by side, logs what a person should know,
 * and throws ChainIdMismatch, one line per node, when one answered another chain, or a test
 * network where money is real. The outcomes otherwise.
 */
export async function checkChainIds(
  readers: ChainReaders,
  testNetworks: TestNetworks,
  log: ChainIdLog,
): Promise<readonly ChainIdOutcome[]> {
  const checked = NETWORK_IDS.flatMap((network) => {
    const reader = readers[network];
    return reader !== undefined && isChecked(reader) ? [reader] : [];
  });
  const outcomes = await Promise.all(
    checked.map((reader) => reader.checkAtStart(testNetworks, log)),
  );
  const problems: string[] = [];
  for (const outcome of outcomes) {
    const { network } = outcome;
    if (outcome.kind === 'unreachable') {
      const asked = network === 'TRC20' ? 'its genesis block' : 'its chain id';
      log.warn(
        { network, err: outcome.error },
        `CHAIN_RPC_${network} could not be asked ${asked} at start-up: starting anyway; ${network} is not read until the node has answered it, asked again at most once a minute`,
      );
      continue;
    }
    const verdict = judgeChainId(outcome, testNetworks);
    if (verdict.accepted) log[verdict.level]({ network, chainId: outcome.id }, verdict.message);
    else problems.push(verdict.message);
  }
  if (problems.length > 0) throw new ChainIdMismatch(problems);
  return outcomes;
}
