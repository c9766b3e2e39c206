/**
 * Tron addresses as the node's logs give them and as people read them. The TVM logs an address
 * as 20 bytes of hex, like the EVM (developers.tron.network, gettransactioninfobyid: "add 41 to
 * the beginning of the log address, and then convert it to Base58"); wallets, TronGrid's v1 API
 * and our configuration use base58check `T…` of 0x41 followed by those 20 bytes.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';

const base58check = createBase58check(sha256);
const TRON_PREFIX = 0x41;

/**
 * `T…` from 20 bytes of hex (a log's address, or a 32-byte topic's last 20 bytes), with or
 * without `0x` or the `41` prefix. Throws on anything else: a log that does not hold an address.
 */
export function tronAddressFromHex(hex: string): string {
  let digits = hex.toLowerCase().replace(/^0x/, '');
  if (digits.length === 42 && digits.startsWith('41')) digits = digits.slice(2);
  if (!/^[0-9a-f]{40}$/.test(digits)) throw new TypeError(`not a 20-byte address: ${hex}`);
  const payload = new Uint8Array(21);
  payload[0] = TRON_PREFIX;
  payload.set(hexToBytes(digits), 1);
  return base58check.encode(payload);
}

/** The `41…` hex form (21 bytes) of a `T…` address; throws when its checksum is wrong. */
export function tronAddressToHex(address: string): string {
  const bytes = base58check.decode(address);
  if (bytes.length !== 21 || bytes[0] !== TRON_PREFIX) {
    throw new TypeError(`not a Tron address: ${address}`);
  }
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
