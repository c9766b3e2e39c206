import { describe, expect, it } from 'vitest';
import {
  checkTxHash,
  checkWalletAddress,
  isValidTxHash,
  isValidWalletAddress,
} from '../../src/shared/addresses';
import { EVM_NETWORKS, NETWORK_IDS, type NetworkId } from '../../src/shared/networks';

/** The EIP-55 specification's mixed-case test vectors. */
const EIP55_FIRST = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const EIP55_SECOND = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const EIP55_VECTORS = [
  EIP55_FIRST,
  EIP55_SECOND,
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];
/** Real Tron mainnet addresses: the USDT TRC20 contract and a well-known account. */
const USDT_TRC20_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const TRON_ACCOUNT = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

/** Flips the case of the first letter after `0x`. */
function flipFirstLetter(address: string): string {
  const i = address.slice(2).search(/[a-fA-F]/) + 2;
  const char = address.charAt(i);
  const flipped = char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase();
  return address.slice(0, i) + flipped + address.slice(i + 1);
}

function validAddressFor(network: NetworkId): string {
  return network === 'TRC20' ? USDT_TRC20_CONTRACT : EIP55_FIRST;
}

describe('wallet address per network', () => {
  it.each(NETWORK_IDS.map((network) => [network, validAddressFor(network)]))(
    '%s accepts %s',
    (network, address) => {
      expect(checkWalletAddress(network, address)).toBeNull();
      expect(isValidWalletAddress(network, address)).toBe(true);
    },
  );

  it.each(NETWORK_IDS)('%s refuses an empty address as empty', (network) => {
    expect(checkWalletAddress(network, '')).toBe('empty');
    expect(isValidWalletAddress(network, '')).toBe(false);
  });

  it('does not trim: surrounding spaces are a format error', () => {
    expect(checkWalletAddress('ERC20', ` ${EIP55_FIRST}`)).toBe('format');
    expect(checkWalletAddress('TRC20', `${USDT_TRC20_CONTRACT} `)).toBe('format');
  });

  it('an address of the other kind is the wrong format for the network', () => {
    expect(checkWalletAddress('ERC20', USDT_TRC20_CONTRACT)).toBe('format');
    expect(checkWalletAddress('TRC20', EIP55_FIRST)).toBe('format');
  });
});

describe('EVM address: 0x + 40 hex, EIP-55 checksum when mixed case', () => {
  it.each(EIP55_VECTORS)('accepts the EIP-55 vector %s', (address) => {
    expect(checkWalletAddress('ERC20', address)).toBeNull();
  });

  it.each(EIP55_VECTORS)("refuses %s with one letter's case flipped as checksum", (address) => {
    const typo = flipFirstLetter(address);
    expect(typo).not.toBe(address);
    expect(checkWalletAddress('ERC20', typo)).toBe('checksum');
  });

  it.each(EIP55_VECTORS)('accepts %s in all lowercase without a checksum', (address) => {
    expect(checkWalletAddress('BEP20', address.toLowerCase())).toBeNull();
  });

  it.each(EIP55_VECTORS)('accepts %s in all uppercase hex without a checksum', (address) => {
    expect(checkWalletAddress('POLYGON', `0x${address.slice(2).toUpperCase()}`)).toBeNull();
  });

  it.each(EVM_NETWORKS)('%s holds mixed case to the checksum', (network) => {
    expect(checkWalletAddress(network, flipFirstLetter(EIP55_SECOND))).toBe('checksum');
  });

  it('refuses 39 or 41 hex characters as format', () => {
    expect(checkWalletAddress('ERC20', EIP55_FIRST.slice(0, -1))).toBe('format');
    expect(checkWalletAddress('ERC20', `${EIP55_FIRST}a`)).toBe('format');
  });

  it('refuses 40 hex without 0x, or with 0X, as format', () => {
    const hex = EIP55_FIRST.slice(2);
    expect(checkWalletAddress('ERC20', hex)).toBe('format');
    expect(checkWalletAddress('ERC20', `0X${hex}`)).toBe('format');
  });

  it('refuses a non-hex character as format', () => {
    expect(checkWalletAddress('ARBITRUM', `${EIP55_FIRST.slice(0, -1)}g`)).toBe('format');
  });
});

describe('Tron address: T + 33 base58 characters, prefix 0x41, sha256d checksum', () => {
  it.each([USDT_TRC20_CONTRACT, TRON_ACCOUNT])('accepts the real address %s', (address) => {
    expect(checkWalletAddress('TRC20', address)).toBeNull();
  });

  it.each([
    // the last character, inside the checksum bytes
    'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u',
    // a middle character, inside the account bytes
    'TR7NHqjeKQxGTCi9q8ZY4pL8otSzgjLj6t',
    'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeM',
  ])('refuses %s, a real address with one character changed, as checksum', (typo) => {
    expect(checkWalletAddress('TRC20', typo)).toBe('checksum');
  });

  it.each(['0', 'O', 'I', 'l'])("refuses '%s', outside the base58 alphabet, as format", (char) => {
    const address = `${USDT_TRC20_CONTRACT.slice(0, 10)}${char}${USDT_TRC20_CONTRACT.slice(11)}`;
    expect(address).toHaveLength(34);
    expect(checkWalletAddress('TRC20', address)).toBe('format');
  });

  it('refuses 33 or 35 characters as format', () => {
    expect(checkWalletAddress('TRC20', USDT_TRC20_CONTRACT.slice(0, -1))).toBe('format');
    expect(checkWalletAddress('TRC20', `${USDT_TRC20_CONTRACT}1`)).toBe('format');
  });

  it('refuses a base58check address that does not start with T (Bitcoin genesis) as format', () => {
    expect(checkWalletAddress('TRC20', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe('format');
  });

  it('refuses a T… string whose first byte is not 0x41 as format', () => {
    // 'T' + 33 × 'z' decodes to a first byte of 0x43: the right look, not a Tron address
    expect(checkWalletAddress('TRC20', `T${'z'.repeat(33)}`)).toBe('format');
  });
});

describe('transaction hash: EVM 0x + 64 hex, Tron 64 hex', () => {
  const hex = 'c6ef2fc5426d6ad6fd9e2a26abeab0aa2411b7ab17f30a99d3cb96aed1d1055b';

  it('ERC20 accepts 0x + 64 hex in either case', () => {
    expect(checkTxHash('ERC20', `0x${hex}`)).toBeNull();
    expect(isValidTxHash('ERC20', `0x${hex.toUpperCase()}`)).toBe(true);
  });

  it('ERC20 refuses 64 hex without 0x as format; TRC20 accepts it', () => {
    expect(checkTxHash('ERC20', hex)).toBe('format');
    expect(checkTxHash('TRC20', hex)).toBeNull();
    expect(isValidTxHash('TRC20', hex.toUpperCase())).toBe(true);
  });

  it('TRC20 refuses a 0x prefix as format', () => {
    expect(checkTxHash('TRC20', `0x${hex}`)).toBe('format');
  });

  it.each(NETWORK_IDS)('%s refuses 63 or 65 hex and non-hex as format', (network) => {
    const prefix = network === 'TRC20' ? '' : '0x';
    expect(checkTxHash(network, `${prefix}${hex.slice(1)}`)).toBe('format');
    expect(checkTxHash(network, `${prefix}${hex}0`)).toBe('format');
    expect(checkTxHash(network, `${prefix}${hex.slice(1)}g`)).toBe('format');
    expect(isValidTxHash(network, `${prefix}${hex.slice(1)}`)).toBe(false);
  });

  it.each(NETWORK_IDS)('%s refuses an empty hash as empty', (network) => {
    expect(checkTxHash(network, '')).toBe('empty');
  });
});
