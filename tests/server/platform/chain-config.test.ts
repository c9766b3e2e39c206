import { describe, expect, it } from 'vitest';
import { checkWalletAddress } from '../../../src/shared/addresses';
import { PAYMENT_METHODS } from '../../../src/shared/order-status';
import {
  CRYPTO_CURRENCIES,
  NETWORK_IDS,
  networksFor,
  type NetworkId,
} from '../../../src/shared/networks';
import {
  CHAIN_VARIABLE_NAMES,
  parseChainConfig,
  type ChainConfig,
} from '../../../src/server/platform/config/chain-config';
import {
  DEFAULT_CONFIRMATIONS,
  OFFICIAL_TOKEN_CONTRACTS,
} from '../../../src/server/platform/config/tokens';

function configOf(env: Record<string, string>): ChainConfig {
  const result = parseChainConfig(env);
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.config;
}

function problemsOf(env: Record<string, string>): readonly string[] {
  const result = parseChainConfig(env);
  return result.ok ? [] : result.problems;
}

describe('the official token table', () => {
  it('has a contract for every coin on every network the app offers it on, and no other', () => {
    for (const coin of CRYPTO_CURRENCIES) {
      const offered = new Set<NetworkId>(
        PAYMENT_METHODS.flatMap((method) => networksFor(method, coin)),
      );
      expect(new Set(Object.keys(OFFICIAL_TOKEN_CONTRACTS[coin]))).toEqual(offered);
    }
  });

  it("holds addresses valid on their network (EIP-55 checksums and Tron's base58check)", () => {
    for (const coin of CRYPTO_CURRENCIES) {
      for (const [network, contract] of Object.entries(OFFICIAL_TOKEN_CONTRACTS[coin])) {
        expect(checkWalletAddress(network as NetworkId, contract), `${coin} ${network}`).toBeNull();
      }
    }
  });

  it('holds the well-known USDT contracts of Ethereum, BSC and Tron', () => {
    expect(OFFICIAL_TOKEN_CONTRACTS.USDT.ERC20).toBe('0xdAC17F958D2ee523a2206206994597C13D831ec7');
    expect(OFFICIAL_TOKEN_CONTRACTS.USDT.BEP20).toBe('0x55d398326f99059fF775485246999027B3197955');
    expect(OFFICIAL_TOKEN_CONTRACTS.USDT.TRC20).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
  });
});

describe('chain configuration', () => {
  it('keeps every network manual when no CHAIN_RPC_<NETWORK> is set (demo and today)', () => {
    const config = configOf({});
    for (const network of NETWORK_IDS) expect(config[network]).toBe('manual');
  });

  it("reads an EVM network with the table's confirmations and the issuers' contracts", () => {
    const config = configOf({ CHAIN_RPC_ERC20: ' https://eth.example/v3/key ' });
    expect(config.ERC20).toEqual({
      family: 'evm',
      rpcUrl: 'https://eth.example/v3/key',
      confirmations: DEFAULT_CONFIRMATIONS.ERC20,
      tokens: {
        USDT: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
        USDC: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      },
      batch: false,
    });
    expect(config.BEP20).toBe('manual');
  });

  it('sends JSON-RPC batches only to the EVM nodes CHAIN_RPC_BATCH lists, each with its CHAIN_RPC', () => {
    const config = configOf({
      CHAIN_RPC_ERC20: 'https://eth.example',
      CHAIN_RPC_BEP20: 'https://bsc.example',
      CHAIN_RPC_BATCH: ' BEP20 ',
    });
    expect(config.BEP20).toMatchObject({ family: 'evm', batch: true });
    expect(config.ERC20).toMatchObject({ family: 'evm', batch: false });
    expect(
      problemsOf({ CHAIN_RPC_TRC20: 'https://api.trongrid.io', CHAIN_RPC_BATCH: 'TRC20' })[0],
    ).toMatch(/^CHAIN_RPC_BATCH must list EVM networks/);
    expect(problemsOf({ CHAIN_RPC_BATCH: 'ERC20' })).toEqual([
      'CHAIN_RPC_BATCH lists ERC20, which has no CHAIN_RPC_ERC20: set its node or take it off the list',
    ]);
  });

  it('lists only the coins offered on the network: no USDT on Base, no USDC on Optimism', () => {
    const config = configOf({
      CHAIN_RPC_BASE: 'http://127.0.0.1:8545',
      CHAIN_RPC_OPTIMISM: 'http://127.0.0.1:8546',
    });
    expect(config.BASE !== 'manual' && Object.keys(config.BASE.tokens)).toEqual(['USDC']);
    expect(config.OPTIMISM !== 'manual' && Object.keys(config.OPTIMISM.tokens)).toEqual(['USDT']);
  });

  it('takes CHAIN_CONFIRMATIONS_<NETWORK> and TOKEN_CONTRACT_<COIN>_<NETWORK> over the defaults', () => {
    const config = configOf({
      CHAIN_RPC_POLYGON: 'http://127.0.0.1:8545',
      CHAIN_CONFIRMATIONS_POLYGON: '3',
      TOKEN_CONTRACT_USDT_POLYGON: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    });
    expect(config.POLYGON).toMatchObject({
      confirmations: 3,
      tokens: {
        USDT: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
        USDC: OFFICIAL_TOKEN_CONTRACTS.USDC.POLYGON,
      },
    });
  });

  it('reads Tron as solidified, with the API key and without a trailing slash', () => {
    const config = configOf({
      CHAIN_RPC_TRC20: 'https://api.trongrid.io/',
      TRON_API_KEY: '25f66928-0b70-48cd-9ac6-da6f8247c663',
    });
    expect(config.TRC20).toEqual({
      family: 'tron',
      rpcUrl: 'https://api.trongrid.io',
      confirmations: 'solidified',
      apiKey: '25f66928-0b70-48cd-9ac6-da6f8247c663',
      tokens: {
        USDT: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        USDC: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8',
      },
    });
  });

  it('refuses a URL that is not http(s) without repeating it (it may carry a key)', () => {
    const problems = problemsOf({ CHAIN_RPC_BEP20: 'wss://bsc.example/secret-key' });
    expect(problems).toEqual([
      "CHAIN_RPC_BEP20 must be an http:// or https:// URL of the network's node",
    ]);
  });

  it('refuses confirmations that are not a whole number from 1, naming the variable', () => {
    expect(problemsOf({ CHAIN_CONFIRMATIONS_ERC20: '0' })).toEqual([
      'CHAIN_CONFIRMATIONS_ERC20 must be a whole number of blocks from 1 to 10000, got "0"',
    ]);
    expect(problemsOf({ CHAIN_CONFIRMATIONS_BASE: '2.5' })).toHaveLength(1);
  });

  it('refuses CHAIN_CONFIRMATIONS_TRC20: Tron waits for the solidified block', () => {
    expect(problemsOf({ CHAIN_CONFIRMATIONS_TRC20: '20' })).toEqual([
      'CHAIN_CONFIRMATIONS_TRC20 is not used: a TRC20 transfer counts when its block is solidified. Unset it',
    ]);
  });

  it('refuses a token contract of the wrong shape or checksum for its network', () => {
    expect(
      problemsOf({ TOKEN_CONTRACT_USDT_TRC20: '0xdAC17F958D2ee523a2206206994597C13D831ec7' }),
    ).toEqual([
      'TOKEN_CONTRACT_USDT_TRC20 must be a Tron address (T… base58check), got "0xdAC17F958D2ee523a2206206994597C13D831ec7"',
    ]);
    // One letter's case changed: the EIP-55 checksum no longer matches.
    expect(
      problemsOf({ TOKEN_CONTRACT_USDT_ERC20: '0xDAC17F958D2ee523a2206206994597C13D831ec7' }),
    ).toHaveLength(1);
    // A Tron address with its last character changed fails base58check.
    expect(
      problemsOf({ TOKEN_CONTRACT_USDT_TRC20: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u' }),
    ).toHaveLength(1);
  });

  it('refuses look-alike variable names that would leave a network manual without a word', () => {
    expect(problemsOf({ CHAIN_RPC_ETH: 'https://eth.example' })).toEqual([
      'CHAIN_RPC_ETH names no network: the networks are BEP20, TRC20, ERC20, POLYGON, ARBITRUM, OPTIMISM, BASE',
    ]);
    expect(
      problemsOf({ TOKEN_CONTRACT_USDC_OPTIMISM: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85' }),
    ).toHaveLength(1);
  });

  it('refuses TRON_API_KEY without CHAIN_RPC_TRC20, without printing the key', () => {
    const problems = problemsOf({ TRON_API_KEY: 'secret-key-123' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('CHAIN_RPC_TRC20');
    expect(problems[0]).not.toContain('secret-key-123');
  });

  it('lists every problem at once', () => {
    expect(
      problemsOf({
        CHAIN_RPC_ERC20: 'not a url',
        CHAIN_CONFIRMATIONS_ERC20: '-1',
        TOKEN_CONTRACT_USDC_BASE: '0x123',
      }),
    ).toHaveLength(3);
  });

  it('names each of its variables in CHAIN_VARIABLE_NAMES, family members by their own names', () => {
    expect(CHAIN_VARIABLE_NAMES).toContain('CHAIN_RPC_TRC20');
    expect(CHAIN_VARIABLE_NAMES).toContain('TRON_API_KEY');
    expect(CHAIN_VARIABLE_NAMES).toContain('CHAIN_RPC_BATCH');
    expect(CHAIN_VARIABLE_NAMES).toContain('CHAIN_CONFIRMATIONS_ARBITRUM');
    expect(CHAIN_VARIABLE_NAMES).toContain('TOKEN_CONTRACT_USDC_BASE');
    expect(CHAIN_VARIABLE_NAMES).not.toContain('TOKEN_CONTRACT_USDT_BASE');
  });
});
