import { describe, expect, it } from 'vitest';
import { EVM_CHAIN_IDS, EVM_NETWORKS, isEvmNetwork } from '../../src/shared/networks';
import { readScannedWallet } from '../../src/shared/wallet-uri';

/** The EIP-55 specification's first mixed-case vector, and the same address with one letter's case flipped. */
const EVM_WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const EVM_BAD_CHECKSUM = '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** Circle's USDC contract on BSC: the target of an ERC-20 transfer request. */
const USDC_BSC = '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d';
/** A real Tron account, and the same with its last character changed (checksum broken). */
const TRON_WALLET = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const TRON_BAD_CHECKSUM = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeM';

const address = (value: string) => ({ kind: 'address', address: value });
const otherNetwork = { kind: 'refused', reason: 'other-network' };
const notAddress = { kind: 'refused', reason: 'not-address' };

describe('a scanned plain address', () => {
  it.each(EVM_NETWORKS)('an EVM address is taken on %s, surrounding spaces trimmed', (network) => {
    expect(readScannedWallet(network, EVM_WALLET)).toEqual(address(EVM_WALLET));
    expect(readScannedWallet(network, ` ${EVM_WALLET.toLowerCase()}\n`)).toEqual(
      address(EVM_WALLET.toLowerCase()),
    );
  });

  it('a Tron address is taken on TRC20', () => {
    expect(readScannedWallet('TRC20', TRON_WALLET)).toEqual(address(TRON_WALLET));
  });

  it('a Tron address on an EVM network, and an EVM address on TRC20, are for another network', () => {
    expect(readScannedWallet('BEP20', TRON_WALLET)).toEqual(otherNetwork);
    expect(readScannedWallet('TRC20', EVM_WALLET)).toEqual(otherNetwork);
  });

  it('a broken checksum, text, a web link or nothing is not an address', () => {
    expect(readScannedWallet('ERC20', EVM_BAD_CHECKSUM)).toEqual(notAddress);
    expect(readScannedWallet('TRC20', TRON_BAD_CHECKSUM)).toEqual(notAddress);
    expect(readScannedWallet('BASE', 'hello')).toEqual(notAddress);
    expect(readScannedWallet('TRC20', 'https://example.com/pay')).toEqual(notAddress);
    expect(readScannedWallet('POLYGON', '   ')).toEqual(notAddress);
    expect(readScannedWallet('ERC20', `bitcoin:${EVM_WALLET}`)).toEqual(notAddress);
  });
});

describe('a scanned EIP-681 ethereum: link', () => {
  it.each(EVM_NETWORKS.filter(isEvmNetwork))(
    'with the chain id of %s it gives its address',
    (network) => {
      const chainId = EVM_CHAIN_IDS[network];
      expect(readScannedWallet(network, `ethereum:${EVM_WALLET}@${chainId}`)).toEqual(
        address(EVM_WALLET),
      );
    },
  );

  it('takes the pay- prefix, an uppercase scheme and ignores the amount parameters', () => {
    expect(readScannedWallet('BEP20', `ethereum:pay-${EVM_WALLET}@56?value=2.014e18`)).toEqual(
      address(EVM_WALLET),
    );
    expect(readScannedWallet('BASE', `ETHEREUM:${EVM_WALLET}@8453`)).toEqual(address(EVM_WALLET));
  });

  it('without a chain id is for the selected EVM network (the wallet keeps its own chain)', () => {
    expect(readScannedWallet('POLYGON', `ethereum:${EVM_WALLET}`)).toEqual(address(EVM_WALLET));
  });

  it('an ERC-20 transfer request gives its address parameter, not the token contract', () => {
    const uri = `ethereum:${USDC_BSC}@56/transfer?address=${EVM_WALLET}&uint256=1e20`;
    expect(readScannedWallet('BEP20', uri)).toEqual(address(EVM_WALLET));
  });

  it('with another chain id, or on TRC20, is for another network', () => {
    expect(readScannedWallet('BASE', `ethereum:${EVM_WALLET}@1`)).toEqual(otherNetwork);
    expect(readScannedWallet('ERC20', `ethereum:${EVM_WALLET}@11155111`)).toEqual(otherNetwork);
    const transfer = `ethereum:${USDC_BSC}@56/transfer?address=${EVM_WALLET}`;
    expect(readScannedWallet('ARBITRUM', transfer)).toEqual(otherNetwork);
    expect(readScannedWallet('TRC20', `ethereum:${EVM_WALLET}@1`)).toEqual(otherNetwork);
    expect(readScannedWallet('TRC20', `ethereum:${EVM_WALLET}`)).toEqual(otherNetwork);
  });

  it('holds no address when its target is an ENS name, its checksum is broken, its chain id is not decimal, or it calls anything but transfer to an address', () => {
    expect(readScannedWallet('ERC20', 'ethereum:alice.eth@1')).toEqual(notAddress);
    expect(readScannedWallet('ERC20', `ethereum:${EVM_BAD_CHECKSUM}@1`)).toEqual(notAddress);
    expect(readScannedWallet('BEP20', `ethereum:${EVM_WALLET}@0x38`)).toEqual(notAddress);
    expect(
      readScannedWallet('BEP20', `ethereum:${USDC_BSC}@56/approve?address=${EVM_WALLET}`),
    ).toEqual(notAddress);
    expect(readScannedWallet('BEP20', `ethereum:${USDC_BSC}@56/transfer?uint256=1`)).toEqual(
      notAddress,
    );
    expect(
      readScannedWallet('BEP20', `ethereum:${USDC_BSC}@56/transfer?address=${TRON_WALLET}`),
    ).toEqual(notAddress);
  });
});

describe('a scanned tron: link', () => {
  it('gives its address on TRC20, parameters ignored', () => {
    expect(readScannedWallet('TRC20', `tron:${TRON_WALLET}`)).toEqual(address(TRON_WALLET));
    expect(readScannedWallet('TRC20', `TRON:${TRON_WALLET}?amount=100`)).toEqual(
      address(TRON_WALLET),
    );
  });

  it('is for another network on an EVM network', () => {
    expect(readScannedWallet('BEP20', `tron:${TRON_WALLET}`)).toEqual(otherNetwork);
  });

  it('holds no address when the address after it is broken or missing', () => {
    expect(readScannedWallet('TRC20', `tron:${TRON_BAD_CHECKSUM}`)).toEqual(notAddress);
    expect(readScannedWallet('TRC20', 'tron:')).toEqual(notAddress);
    expect(readScannedWallet('TRC20', `tron:${EVM_WALLET}`)).toEqual(notAddress);
  });
});
