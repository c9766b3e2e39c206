/**
 * One reader per network that has a node configured (chain-config.ts); a manual network has
 * none, and the order logic keeps it manual.
 */
import { NETWORK_IDS, type NetworkId } from '../../shared/networks';
import type { ChainConfig } from './chain-config';
import type { ChainCallObserver, ChainReader } from './chain-reader';
import { EvmReader } from './evm-reader';
import { TronReader } from './tron-reader';

export interface ChainReaderOptions {
  readonly observer?: ChainCallObserver;
  /** Per call; chain-reader.ts's DEFAULT_CALL_TIMEOUT_MS when unset. */
  readonly timeoutMs?: number;
}

/** The reader of each network read from a node; a manual network has none. */
export type ChainReaders = Readonly<Partial<Record<NetworkId, ChainReader>>>;

export function createChainReaders(
  config: ChainConfig,
  options: ChainReaderOptions = {},
): ChainReaders {
  const readers: Partial<Record<NetworkId, ChainReader>> = {};
  for (const network of NETWORK_IDS) {
    const settings = config[network];
    if (settings === 'manual') continue;
    if (settings.family === 'tron') {
      readers[network] = new TronReader({
        rpcUrl: settings.rpcUrl,
        apiKey: settings.apiKey,
        ...options,
      });
    } else if (network !== 'TRC20') {
      readers[network] = new EvmReader({
        network,
        rpcUrl: settings.rpcUrl,
        confirmations: settings.confirmations,
        batch: settings.batch,
        ...options,
      });
    }
  }
  return readers;
}
