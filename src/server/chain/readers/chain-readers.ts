/** A reader per network with a node configured, each behind its chain check (checked-reader.ts). */
import { NETWORK_IDS, type NetworkId } from '../../../shared/networks';
import type { ChainConfig } from '../../platform/config/chain-config';
import type { ChainCallObserver, ChainReader, ChainReaders } from './chain-reader';
import { CheckedReader } from './checked-reader';
import { EvmReader } from './evm-reader';
import { TronReader } from './tron-reader';

export interface ChainReaderOptions {
  readonly observer?: ChainCallObserver;
  readonly timeoutMs?: number;
  /** Times a new ask of a node not verified yet; tests move it. */
  readonly now?: () => number;
}

export function createChainReaders(
  config: ChainConfig,
  options: ChainReaderOptions = {},
): ChainReaders {
  const readers: Partial<Record<NetworkId, ChainReader>> = {};
  const { now, ...callOptions } = options;
  for (const network of NETWORK_IDS) {
    const settings = config[network];
    if (settings === 'manual') continue;
    if (settings.family === 'tron') {
      const reader = new TronReader({
        rpcUrl: settings.rpcUrl,
        apiKey: settings.apiKey,
        ...callOptions,
      });
      readers[network] = new CheckedReader(reader, now);
    } else if (network !== 'TRC20') {
      const reader = new EvmReader({
        network,
        rpcUrl: settings.rpcUrl,
        confirmations: settings.confirmations,
        batch: settings.batch,
        ...callOptions,
      });
      readers[network] = new CheckedReader(reader, now);
    }
  }
  return readers;
}
