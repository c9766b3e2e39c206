/**
 * One reader per network that has a node configured (chain-config.ts); a manual network has
 * none, and the order logic keeps it manual. Each is behind the check of which chain its node
 * is on (checked-reader.ts).
 */
import { NETWORK_IDS, type NetworkId } from '../../../shared/networks';
import type { ChainConfig } from '../../platform/config/chain-config';
import type { ChainCallObserver, ChainReader, ChainReaders } from './chain-reader';
import { CheckedReader } from './checked-reader';
import { EvmReader } from './evm-reader';
import { TronReader } from './tron-reader';

export interface ChainReaderOptions {
  readonly observer?: ChainCallObserver;
  /** Per call; chain-reader.ts's DEFAULT_CALL_TIMEOUT_MS when unset. */
  readonly timeoutMs?: number;
  /** The clock that times a new ask of a node not verified yet; Date.now unless a test moves it. */
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
