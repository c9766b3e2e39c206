/**
 * What a scanned QR code gives the wallet field of a buy form. Wallets show a receiving address
 * as the bare address or as a payment link: EIP-681 for EVM chains
 * (`ethereum:[pay-]<address>[@<chainId>][/<function>][?<parameters>]`, where an ERC-20 request is
 * `ethereum:<token contract>@<chainId>/transfer?address=<recipient>&uint256=<amount>`, so the
 * wallet is its `address` parameter) and `tron:<address>[?<parameters>]` for Tron. Whatever the
 * form, the address must then pass the same check as a typed one (addresses.ts) for the network
 * the form has selected; amounts and other parameters are ignored, the form asks for its own.
 */
import { checkWalletAddress, isValidWalletAddress } from './addresses';
import { EVM_CHAIN_IDS, isEvmNetwork, type NetworkId } from './networks';

/**
 * Why a scanned code is not taken: it names or holds an address of another network than the
 * selected one, or it holds no valid address at all (text, a link, an ENS name, a bad checksum).
 */
export type ScanRefusal = 'other-network' | 'not-address';

export type ScannedWallet =
  | { readonly kind: 'address'; readonly address: string }
  | { readonly kind: 'refused'; readonly reason: ScanRefusal };

/** EIP-681's grammar, with the target restricted to a hex address (an ENS name cannot be checked). */
const ETHEREUM_URI =
  /^ethereum:(?:pay-)?(0x[0-9a-fA-F]{40})(?:@(\d+))?(?:\/([^?]*))?(?:\?(.*))?$/is;
const TRON_URI = /^tron:([^?]*)(?:\?.*)?$/is;

const refused = (reason: ScanRefusal): ScannedWallet => ({ kind: 'refused', reason });

/** The address when it is valid on `network`; otherwise the refusal `otherwise`. */
function checked(network: NetworkId, address: string, otherwise: ScanRefusal): ScannedWallet {
  return checkWalletAddress(network, address) === null
    ? { kind: 'address', address }
    : refused(otherwise);
}

/** An EIP-681 link: its chain id (when it has one) must be the network's, its wallet valid there. */
function fromEthereumUri(network: NetworkId, match: RegExpExecArray): ScannedWallet {
  const [, target = '', chainId, functionName, query = ''] = match;
  if (!isEvmNetwork(network)) return refused('other-network');
  // Without `@<chainId>` the link is for whatever chain the wallet is on (EIP-681, "Semantics"):
  // an EVM address is the same on every EVM chain, so it is taken for the selected one.
  if (chainId !== undefined && Number(chainId) !== EVM_CHAIN_IDS[network]) {
    return refused('other-network');
  }
  if (functionName === undefined) return checked(network, target, 'not-address');
  if (functionName !== 'transfer') return refused('not-address');
  const recipient = new URLSearchParams(query).get('address');
  return recipient === null ? refused('not-address') : checked(network, recipient, 'not-address');
}

/** A bare address: valid on the network, or recognisably another family's (Tron on EVM, or back). */
function fromPlainText(network: NetworkId, text: string): ScannedWallet {
  if (checkWalletAddress(network, text) === null) return { kind: 'address', address: text };
  const otherFamily: NetworkId = isEvmNetwork(network) ? 'TRC20' : 'ERC20';
  return refused(isValidWalletAddress(otherFamily, text) ? 'other-network' : 'not-address');
}

/**
 * Reads the text of a scanned QR code as a wallet for `network`: a bare address, an EIP-681
 * `ethereum:` link (its chain id, when given, must be the network's; a `transfer` request's
 * wallet is its `address` parameter) or a `tron:` link. Refuses a code for another network and
 * one that holds no address valid on the network, by the same rules as a typed address.
 */
export function readScannedWallet(network: NetworkId, scanned: string): ScannedWallet {
  const text = scanned.trim();
  const ethereum = ETHEREUM_URI.exec(text);
  if (ethereum !== null) return fromEthereumUri(network, ethereum);
  if (/^ethereum:/i.test(text))
    return refused(isEvmNetwork(network) ? 'not-address' : 'other-network');
  const tron = TRON_URI.exec(text);
  if (tron !== null) {
    return isEvmNetwork(network)
      ? refused('other-network')
      : checked(network, tron[1] ?? '', 'not-address');
  }
  return fromPlainText(network, text);
}
