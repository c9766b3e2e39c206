/**
 * The official USDT and USDC contracts and the confirmations a deposit waits for. Decimals are
 * read from the contract, never kept here: they differ by network (BSC's pegged tokens have 18,
 * the issuers' 6), and a wrong guess is twelve orders of magnitude. TOKEN_CONTRACT_<COIN>_<NETWORK>
 * overrides an entry.
 */
import type { CryptoCurrency, EvmNetworkId, NetworkId } from '../../../shared/networks';

/**
 * The issuer's contract for each pair the app offers (chain-config.test.ts keeps them in step).
 * Sources, looked up in November 2026:
 * - USDT: https://tether.to/en/supported-protocols/; on Arbitrum and OP Mainnet, USD₮0
 *   (https://docs.usdt0.to/technical-documentation/developer) at the old bridged USDT's address.
 * - USDC: https://developers.circle.com/stablecoins/usdc-contract-addresses (native USDC).
 * - BEP20: neither issuer mints on BSC; these are Binance's pegged tokens (bscscan token pages).
 * - USDC on TRC20: Circle stopped minting in 2024 and ended transfers through Circle in February
 *   2025; the contract still holds balances and stays while the network lists offer the pair.
 */
export const OFFICIAL_TOKEN_CONTRACTS: Readonly<
  Record<CryptoCurrency, Readonly<Partial<Record<NetworkId, string>>>>
> = {
  USDT: {
    ERC20: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    TRC20: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    POLYGON: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
    ARBITRUM: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9',
    OPTIMISM: '0x94b008aA00579c1307B0EF2c499aD98a8ce58e58',
    BEP20: '0x55d398326f99059fF775485246999027B3197955',
  },
  USDC: {
    ERC20: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    POLYGON: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
    ARBITRUM: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    BASE: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    BEP20: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d',
    TRC20: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8',
  },
};

/**
 * Blocks a deposit waits for (its own first), the default of CHAIN_CONFIRMATIONS_<NETWORK>: the
 * chain's finality rule where it has one, else a pick within what large exchanges publish (check
 * their pages before going live). ERC20 64: two epochs, Casper FFG finality. BEP20 15: Binance's
 * own count, well past BEP-126's fast finality. POLYGON 256: it has reorganised 157 blocks deep
 * (2023). ARBITRUM 40, OPTIMISM 30, BASE 30: Kraken's counts for these L2s.
 */
export const DEFAULT_CONFIRMATIONS: Readonly<Record<EvmNetworkId, number>> = {
  ERC20: 64,
  BEP20: 15,
  POLYGON: 256,
  ARBITRUM: 40,
  OPTIMISM: 30,
  BASE: 30,
};
