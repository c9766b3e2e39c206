/**
 * The start-up check of the EVM nodes (issue 23, "Reading the chains"): each network's node is
 * asked its chain id once, and a node of another chain (CHAIN_RPC_BEP20 pointing at Ethereum, a
 * testnet's URL) stops the server, since every lookup on it would be wrong without an error. A
 * node that cannot be reached does not: it may be down for a while, and the chain checker asks
 * again. The local test chain (Hardhat) is let through with a warning: tests and the README's
 * local chain run on it.
 */
import type { FastifyBaseLogger } from 'fastify';
import { NETWORK_IDS } from '../../shared/networks';
import type { ChainReaders } from './chain-readers';
import { EvmReader } from './evm-reader';
import { EVM_CHAIN_IDS, type EvmNetworkId } from './tokens';

/** Hardhat's chain id: the in-process test chain and tests/helpers/local-chain.ts. */
export const LOCAL_TEST_CHAIN_ID = 31337;

/** Nodes answering another chain's id: the server must not start. */
export class ChainIdMismatch extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ChainIdMismatch';
  }
}

/** What one network's node answered. */
export type ChainIdOutcome =
  | {
      readonly network: EvmNetworkId;
      readonly kind: 'right' | 'local' | 'wrong';
      readonly id: number;
    }
  | { readonly network: EvmNetworkId; readonly kind: 'unreachable'; readonly error: unknown };

/**
 * Asks every EVM network's node its chain id, side by side (one eth_chainId each, within the
 * readers' call timeout), logs what a person should know, and throws ChainIdMismatch, one line
 * per node, when one answered another chain's id. The outcomes otherwise.
 */
export async function checkEvmChainIds(
  readers: ChainReaders,
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): Promise<readonly ChainIdOutcome[]> {
  const evm = NETWORK_IDS.flatMap((network) => {
    const reader = readers[network];
    return reader instanceof EvmReader ? [reader] : [];
  });
  const outcomes = await Promise.all(
    evm.map(async (reader): Promise<ChainIdOutcome> => {
      const { network } = reader;
      try {
        const id = await reader.chainId();
        if (id === EVM_CHAIN_IDS[network]) return { network, kind: 'right', id };
        return { network, kind: id === LOCAL_TEST_CHAIN_ID ? 'local' : 'wrong', id };
      } catch (error) {
        return { network, kind: 'unreachable', error };
      }
    }),
  );
  const problems: string[] = [];
  for (const outcome of outcomes) {
    const variable = `CHAIN_RPC_${outcome.network}`;
    const expected = EVM_CHAIN_IDS[outcome.network];
    if (outcome.kind === 'right') {
      log.info({ network: outcome.network, chainId: outcome.id }, 'chain node answers its chain');
    } else if (outcome.kind === 'local') {
      log.warn(
        { network: outcome.network, chainId: outcome.id },
        `${variable} is a local test chain (chain id ${outcome.id}), not ${outcome.network}'s ${expected}: fine for tests and a demo, never for real money`,
      );
    } else if (outcome.kind === 'unreachable') {
      log.warn(
        { network: outcome.network, err: outcome.error },
        `${variable} could not be asked its chain id at start-up: starting anyway without that check; the chain checker keeps trying the node`,
      );
    } else {
      problems.push(
        `${variable} answers chain id ${outcome.id}, but ${outcome.network} is chain id ${expected}: the URL points at another chain`,
      );
    }
  }
  if (problems.length > 0) throw new ChainIdMismatch(problems);
  return outcomes;
}
