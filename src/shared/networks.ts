/**
 * Blockchain networks and the lists each method and coin offers.
 */
import type { PaymentMethod } from './order-status';

export const CRYPTO_CURRENCIES = ['USDT', 'USDC'] as const;
export type CryptoCurrency = (typeof CRYPTO_CURRENCIES)[number];

/** The coin a form starts with (/p2p/buy: USDC default). */
export const DEFAULT_CRYPTO: CryptoCurrency = 'USDC';

export const NETWORK_IDS = [
  'BEP20',
  'TRC20',
  'ERC20',
  'POLYGON',
  'ARBITRUM',
  'OPTIMISM',
  'BASE',
] as const;
export type NetworkId = (typeof NETWORK_IDS)[number];

export interface NetworkOption {
  readonly id: NetworkId;
  readonly name: string;
  readonly fullName: string;
  readonly available: boolean;
}

/** Each network's public block explorer, where a transaction is looked up by its hash. */
const EXPLORER_TX: Readonly<Record<NetworkId, string>> = {
  BEP20: 'https://bscscan.com/tx/',
  TRC20: 'https://tronscan.org/#/transaction/',
  ERC20: 'https://etherscan.io/tx/',
  POLYGON: 'https://polygonscan.com/tx/',
  ARBITRUM: 'https://arbiscan.io/tx/',
  OPTIMISM: 'https://optimistic.etherscan.io/tx/',
  BASE: 'https://basescan.org/tx/',
};

/** The explorer page of the transaction `hash` on `network`. */
export function explorerTxUrl(network: NetworkId, hash: string): string {
  return `${EXPLORER_TX[network]}${encodeURIComponent(hash.trim())}`;
}

/** How a network is shown: short name and the chain's full name. */
export const NETWORKS: Readonly<Record<NetworkId, NetworkOption>> = {
  BEP20: { id: 'BEP20', name: 'BEP20', fullName: 'BNB Smart Chain (BSC)', available: true },
  TRC20: { id: 'TRC20', name: 'TRC20', fullName: 'Tron', available: true },
  ERC20: { id: 'ERC20', name: 'ERC20', fullName: 'Ethereum', available: true },
  POLYGON: { id: 'POLYGON', name: 'Polygon', fullName: 'Polygon PoS', available: true },
  ARBITRUM: { id: 'ARBITRUM', name: 'Arbitrum', fullName: 'Arbitrum One', available: true },
  OPTIMISM: { id: 'OPTIMISM', name: 'Optimism', fullName: 'OP Mainnet', available: true },
  BASE: { id: 'BASE', name: 'Base', fullName: 'Base', available: true },
};

/** Networks whose addresses are EVM (`0x` + 40 hex); TRC20 is the only other kind. */
export const EVM_NETWORKS: readonly NetworkId[] = [
  'BEP20',
  'ERC20',
  'POLYGON',
  'ARBITRUM',
  'OPTIMISM',
  'BASE',
];

export function isEvmNetwork(network: NetworkId): network is EvmNetworkId {
  return EVM_NETWORKS.includes(network);
}

/** The EVM networks: every network but Tron. */
export type EvmNetworkId = Exclude<NetworkId, 'TRC20'>;

/**
 * The chain id (EIP-155) of each EVM network. The server compares its nodes' answers with it at
 * start-up (a CHAIN_RPC_<NETWORK> that points at a testnet, or at Ethereum for BSC, would make
 * every lookup wrong without an error: server/chain/readers/chain-ids.ts, which also decides when
 * a test network's id, Hardhat's 31337 among them, may pass), and the app reads a scanned payment
 * link's `@<chainId>` (EIP-681) with it.
 */
export const EVM_CHAIN_IDS: Readonly<Record<EvmNetworkId, number>> = {
  ERC20: 1,
  BEP20: 56,
  POLYGON: 137,
  ARBITRUM: 42161,
  OPTIMISM: 10,
  BASE: 8453,
};

/** The network lists, each in the order its form offers them: P2P (buy and sell) and bank buy. */
const P2P_NETWORKS: Readonly<Record<CryptoCurrency, readonly NetworkId[]>> = {
  USDC: ['BASE', 'POLYGON', 'BEP20', 'ERC20', 'TRC20', 'ARBITRUM'],
  USDT: ['BEP20', 'TRC20', 'POLYGON', 'ERC20', 'ARBITRUM', 'OPTIMISM'],
};
const BANK_NETWORKS: Readonly<Record<CryptoCurrency, readonly NetworkId[]>> = {
  USDT: ['BEP20', 'TRC20', 'POLYGON', 'ERC20', 'ARBITRUM', 'OPTIMISM'],
  USDC: ['TRC20', 'BEP20', 'POLYGON', 'ERC20', 'BASE', 'ARBITRUM'],
};

/**
 * The networks offered for a method and coin, in the form's order. An office buy pays out to a
 * wallet like a bank buy, so it offers the bank list.
 */
export function networksFor(method: PaymentMethod, crypto: CryptoCurrency): readonly NetworkId[] {
  return method === 'P2P' ? P2P_NETWORKS[crypto] : BANK_NETWORKS[crypto];
}

/** The network a coin starts on, and resets to when the coin changes: BASE for USDC, BEP20 for USDT. */
export const DEFAULT_NETWORK: Readonly<Record<CryptoCurrency, NetworkId>> = {
  USDC: 'BASE',
  USDT: 'BEP20',
};
