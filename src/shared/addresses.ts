/**
 * Wallet address and transaction hash checks per network. The form and the server call the same
 * functions, so the customer sees the server's verdict before submitting.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { isEvmNetwork, type NetworkId } from './networks';

/**
 * Why an address is refused: nothing typed, not the network's shape, or the right shape with a
 * checksum that does not match (most likely a typo, so it gets its own message).
 */
export type AddressProblem = 'empty' | 'format' | 'checksum';

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
const TRON_PREFIX = 0x41;
const TRON_PAYLOAD_BYTES = 21;
const TRON_DECODED_BYTES = TRON_PAYLOAD_BYTES + 4;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const EVM_TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const TRON_TX_HASH = /^[0-9a-fA-F]{64}$/;

/**
 * Decodes base58 (Bitcoin alphabet) into exactly `size` bytes, or null when the value does not fit.
 * Callers check the alphabet first; leading '1's are leading zero bytes, which the padding gives.
 */
function base58Decode(text: string, size: number): Uint8Array | null {
  let value = 0n;
  for (const char of text) {
    value = value * 58n + BigInt(BASE58_ALPHABET.indexOf(char));
  }
  const bytes = new Uint8Array(size);
  for (let i = size - 1; i >= 0; i--) {
    bytes[i] = Number(value & 0xffn);
    value >>= 8n;
  }
  return value === 0n ? bytes : null;
}

/** Tron: `T` + 33 base58 characters, decoding to 0x41 + 20 bytes + sha256d checksum. */
function checkTronAddress(address: string): AddressProblem | null {
  if (!TRON_ADDRESS.test(address)) return 'format';
  const bytes = base58Decode(address, TRON_DECODED_BYTES);
  if (bytes?.[0] !== TRON_PREFIX) return 'format';
  const payload = bytes.subarray(0, TRON_PAYLOAD_BYTES);
  const expected = sha256(sha256(payload)).subarray(0, 4);
  const actual = bytes.subarray(TRON_PAYLOAD_BYTES);
  return expected.every((byte, i) => byte === actual[i]) ? null : 'checksum';
}

/**
 * EVM: `0x` + 40 hex. A single-case address carries no checksum (wallets still emit lowercase),
 * so only mixed case is held to EIP-55.
 */
function checkEvmAddress(address: string): AddressProblem | null {
  if (!EVM_ADDRESS.test(address)) return 'format';
  const hex = address.slice(2);
  const lower = hex.toLowerCase();
  if (hex === lower || hex === hex.toUpperCase()) return null;
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  for (let i = 0; i < hex.length; i++) {
    const char = hex.charAt(i);
    if (char >= '0' && char <= '9') continue;
    const wantUpper = parseInt(hash.charAt(i), 16) >= 8;
    if ((char === char.toUpperCase()) !== wantUpper) return 'checksum';
  }
  return null;
}

/**
 * Checks a wallet address for the network: TRC20 is base58check (`T…`, 34 characters, prefix 0x41,
 * checksum verified); EVM networks are `0x` + 40 hex, EIP-55 checksum when mixed case.
 * Returns null when valid. Does not trim: callers trim what the customer typed.
 */
export function checkWalletAddress(network: NetworkId, address: string): AddressProblem | null {
  if (address === '') return 'empty';
  return isEvmNetwork(network) ? checkEvmAddress(address) : checkTronAddress(address);
}

/**
 * Checks a transaction hash for the network: EVM `0x` + 64 hex, Tron 64 hex without `0x`
 * (either case: hashes carry no checksum). Returns null when valid. Does not trim.
 */
export function checkTxHash(network: NetworkId, hash: string): 'empty' | 'format' | null {
  if (hash === '') return 'empty';
  const pattern = isEvmNetwork(network) ? EVM_TX_HASH : TRON_TX_HASH;
  return pattern.test(hash) ? null : 'format';
}

/** True when {@link checkWalletAddress} finds no problem. */
export function isValidWalletAddress(network: NetworkId, address: string): boolean {
  return checkWalletAddress(network, address) === null;
}

/** True when {@link checkTxHash} finds no problem. */
export function isValidTxHash(network: NetworkId, hash: string): boolean {
  return checkTxHash(network, hash) === null;
}
