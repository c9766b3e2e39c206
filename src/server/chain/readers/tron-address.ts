/** Tron addresses: logs give 20 bytes of hex; wallets and TronGrid, base58check of 41 + those. */
import { sha256 } from '@noble/hashes/sha2.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';

const base58check = createBase58check(sha256);
const TRON_PREFIX = 0x41;

/** `T…` from 20 bytes of hex, with or without `0x` or `41`; throws on anything else. */
export function tronAddressFromHex(hex: string): string {
  let digits = hex.toLowerCase().replace(/^0x/, '');
  if (digits.length === 42 && digits.startsWith('41')) digits = digits.slice(2);
  if (!/^[0-9a-f]{40}$/.test(digits)) throw new TypeError(`not a 20-byte address: ${hex}`);
  const payload = new Uint8Array(21);
  payload[0] = TRON_PREFIX;
  payload.set(hexToBytes(digits), 1);
  return base58check.encode(payload);
}

export function tronAddressToHex(address: string): string {
  const bytes = base58check.decode(address);
  if (bytes.length !== 21 || bytes[0] !== TRON_PREFIX) {
    throw new TypeError(`not a Tron address: ${address}`);
  }
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
