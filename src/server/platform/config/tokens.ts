/**
 * The official USDT and USDC contract of each network the app offers and how many confirmations
 * a deposit waits for on each. Decimals are deliberately not here: a reader asks the contract
 * once (`decimals()`), because they differ between networks (Binance's pegged USDT and USDC on
 * BSC have 18, the issuers' own tokens 6) and a wrong guess moves an amount by twelve orders of
 * magnitude.
 *
 * TOKEN_CONTRACT_<COIN>_<NETWORK> overrides an entry (chain-config.ts).
 */
import type { CryptoCurrency, EvmNetworkId, NetworkId } from '../../../shared/networks';

/**
 * The issuer's contract per coin and network. Only the pairs the app offers (src/shared/networks.ts,
 * `networksFor`) are listed; tests/server/platform/chain-config.test.ts keeps the two in step.
 *
 * Sources (the issuer's own page first; looked up for this table in November 2026):
 * - USDT: Tether, "Supported Protocols and Integration Guidelines",
 *   https://tether.to/en/supported-protocols/ — Ethereum (ERC20), Tron (TRC20) and Polygon.
 *   Arbitrum One and OP Mainnet carry USD₮0, Tether's omnichain USDT (LayerZero OFT, locked 1:1
 *   against USDT on Ethereum) at the contracts that were the bridged USDT before the migration:
 *   https://docs.usdt0.to/technical-documentation/developer, and the explorers' token pages
 *   https://arbiscan.io/token/0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9 ("USD₮0"); for OP Mainnet
 *   also the Optimism token list (github.com/ethereum-optimism/ethereum-optimism.github.io,
 *   data/USDT/data.json).
 * - USDC: Circle, "USDC Contract Addresses", https://developers.circle.com/stablecoins/usdc-contract-addresses
 *   — native USDC on Ethereum, Polygon PoS, Arbitrum One and Base.
 * - BSC (BEP20): neither issuer mints there. "Binance-Peg BSC-USD" and "Binance-Peg USD Coin" are
 *   Binance's pegged tokens, backed by Binance's holdings of the issuer's token:
 *   https://bscscan.com/token/0x55d398326f99059fF775485246999027B3197955 and
 *   https://bscscan.com/token/0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d (18 decimals each).
 * - USDC on Tron: Circle stopped minting USDC on TRON on 2024-02-21 and ended transfers and
 *   redemptions through Circle in February 2025 (Circle's announcement, February 2024). The
 *   contract still exists and holds old balances, so it stays here because the network lists
 *   still offer USDC on TRC20; the owner should decide whether to drop that pair.
 *   https://tronscan.org/#/token20/TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8
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
 * Blocks a deposit waits for (its own block counts as the first), the default of
 * CHAIN_CONFIRMATIONS_<NETWORK>. Large exchanges publish their numbers per network (Kraken:
 * "Cryptocurrency deposit processing times", support.kraken.com/hc/en-us/articles/203325283;
 * Binance shows its number beside each network on the deposit page). Where the chain has a
 * finality rule we take it instead of a guess:
 * - ERC20 64: two epochs of 32 slots, about 13 minutes, the point where a block is normally
 *   finalized by Casper FFG (undoing it would burn a third of the stake). Exchanges ask 12–64;
 *   12 only protects against ordinary forks, and our deposits are paid out in cash.
 * - BEP20 15: Binance's own number for BSC deposits; BSC's fast finality (BEP-126) finalizes in
 *   2–3 blocks, so 15 (about 45 s at 3 s blocks or less) has margin.
 * - POLYGON 256: Polygon PoS has reorganised up to 157 blocks deep (February 2023); exchanges ask
 *   128–300. 256 blocks is about 9 minutes at 2 s blocks.
 * - ARBITRUM 40: Kraken's number for Arbitrum One. Its blocks are 0.25 s, so this is ~10 s after
 *   the sequencer's ordering; a reorganisation needs the sequencer to equivocate or Ethereum to
 *   reorganise the batch.
 * - OPTIMISM 30, BASE 30: OP Stack chains with 2 s blocks; 30 is Kraken's usual count for tokens
 *   and about a minute, the same reasoning as Arbitrum.
 * The L2 and Polygon numbers are our pick within the published ranges; check them against the
 * exchanges' current pages before going live (they change).
 */
export const DEFAULT_CONFIRMATIONS: Readonly<Record<EvmNetworkId, number>> = {
  ERC20: 64,
  BEP20: 15,
  POLYGON: 256,
  ARBITRUM: 40,
  OPTIMISM: 30,
  BASE: 30,
};
