import { describe, expect, it } from 'vitest';
import { maskCardNumber, walletKey, walletsFor } from '../../src/shared/saved-details';
import type { NetworkId } from '../../src/shared/networks';

const TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

const saved = (network: NetworkId, address: string) => ({ network, address, label: network });

describe('saved wallets offered by a form', () => {
  const wallets = [
    saved('TRC20', TRON),
    saved('BEP20', EVM),
    saved('POLYGON', EVM),
    // Saved before a rule tightened: a checksum that no longer passes is never offered.
    saved('ERC20', EVM.replace('a', 'A')),
  ];

  it('a saved TRC20 wallet is never offered for an EVM network, nor an EVM one for TRC20', () => {
    expect(walletsFor('BEP20', wallets).map((w) => w.address)).toEqual([EVM]);
    expect(walletsFor('TRC20', wallets).map((w) => w.address)).toEqual([TRON]);
  });

  it('a wallet saved for one EVM network is offered for that network only', () => {
    expect(walletsFor('POLYGON', wallets)).toEqual([saved('POLYGON', EVM)]);
    expect(walletsFor('ARBITRUM', wallets)).toEqual([]);
  });

  it('a saved address that fails the network check as typed today is not offered', () => {
    expect(walletsFor('ERC20', wallets)).toEqual([]);
  });
});

describe('what tells two saved wallets apart', () => {
  it('EVM addresses ignore case; Tron addresses keep it (base58 is case-sensitive)', () => {
    expect(walletKey('BEP20', EVM)).toBe(walletKey('BEP20', EVM.toLowerCase()));
    expect(walletKey('TRC20', TRON)).not.toBe(walletKey('TRC20', TRON.toLowerCase()));
  });
});

describe('a saved card as shown', () => {
  it('shows its last four digits only', () => {
    expect(maskCardNumber('2200700123456781')).toBe('•••• 6781');
    expect(maskCardNumber('2200 7001 2345 6781')).toBe('•••• 6781');
  });
});
