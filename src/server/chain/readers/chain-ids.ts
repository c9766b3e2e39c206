/**
 * Which chain a node is on, asked once at start-up (docs/chain-checks.md, "Which chain"): another
 * chain stops the server, since every lookup would be silently wrong; a test network's coins are
 * worth nothing, so it stops a real server unless CHAIN_ALLOW_TEST_NETWORKS=1.
 */
import type { FastifyBaseLogger } from 'fastify';
import { EVM_CHAIN_IDS, NETWORK_IDS, type NetworkId } from '../../../shared/networks';
import { isDemoMode, type AppConfig } from '../../platform/config/config';
import type { ChainReader } from './chain-reader';
import type { ChainReaders } from './chain-reader';
import type { EvmReader } from './evm-reader';
import { TronReader } from './tron-reader';

/** Hardhat's: the in-process test chain and tests/helpers/local-chain.ts. */
export const LOCAL_TEST_CHAIN_ID = 31337;

/** Test networks' ids, named for the messages (chain-ids.test.ts checks them against viem). */
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

/** Tron's HTTP API has no chain id: block 0 names the network. */
export const TRON_MAINNET_GENESIS =
  '00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc';

const TRON_TEST_GENESES: Readonly<Record<string, string>> = {
  '0000000000000000d698d4192c56cb6be724a558448e2684802de4d6cd8690dc': 'Nile testnet',
  '0000000000000000de1aa88295e1fcf982742f773e0419c5a9c134c994a9059e': 'Shasta testnet',
};

/** `refused` when a bot token means real money; `allowed` by CHAIN_ALLOW_TEST_NETWORKS=1. */
export type TestNetworks = 'demo' | 'allowed' | 'refused';

export function testNetworksOf(
  config: Pick<AppConfig, 'botToken' | 'chainAllowTestNetworks'>,
): TestNetworks {
  if (isDemoMode(config)) return 'demo';
  return config.chainAllowTestNetworks ? 'allowed' : 'refused';
}

export class ChainIdMismatch extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ChainIdMismatch';
  }
}

/** Another Tron genesis is a test network, never `wrong`: Tron has no other mainnet to mistake. */
export type ChainIdOutcome =
  | {
      readonly network: NetworkId;
      readonly kind: 'right' | 'test' | 'wrong';
      readonly id: number | string;
    }
  | { readonly network: NetworkId; readonly kind: 'unreachable'; readonly error: unknown };

export type AnsweredChainId = Exclude<ChainIdOutcome, { kind: 'unreachable' }>;

export interface ChainIdVerdict {
  readonly accepted: boolean;
  readonly level: 'info' | 'warn' | 'error';
  readonly message: string;
}

export type ChainIdLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export interface ChainIdChecked {
  readonly network: NetworkId;
  checkAtStart(testNetworks: TestNetworks, log: ChainIdLog): Promise<ChainIdOutcome>;
}

function isChecked(reader: ChainReader): reader is ChainReader & ChainIdChecked {
  return 'checkAtStart' in reader;
}

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

function mainnetOf(network: NetworkId): string {
  return network === 'TRC20'
    ? `Tron mainnet, genesis block ${TRON_MAINNET_GENESIS}`
    : `chain id ${EVM_CHAIN_IDS[network]}`;
}

function answerOf({ id }: AnsweredChainId): string {
  if (typeof id === 'string') {
    return `genesis block ${id}, ${TRON_TEST_GENESES[id] ?? 'not a known network: a private chain or a fake'}`;
  }
  const name = TEST_CHAIN_IDS[id];
  return name === undefined ? `chain id ${id}` : `chain id ${id}, ${name}`;
}

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

/** Throws ChainIdMismatch, one line per node, when a node must not be read. */
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
