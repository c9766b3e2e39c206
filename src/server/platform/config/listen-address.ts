/**
 * The address the start-up line names, one others can open (a demo is often shared): on a
 * wildcard host, this machine's first non-internal IPv4 address, since `localhost` on theirs is
 * themselves.
 */
import os from 'node:os';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const WILDCARD = new Set(['0.0.0.0', '::', '']);

export function listenUrl(
  host: string,
  port: number,
  interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces(),
): string {
  let shown = host;
  if (LOOPBACK.has(host)) {
    shown = 'localhost';
  } else if (WILDCARD.has(host)) {
    const external = Object.values(interfaces)
      .flatMap((addresses) => addresses ?? [])
      .find((address) => address.family === 'IPv4' && !address.internal);
    shown = external?.address ?? 'localhost';
  } else if (host.includes(':')) {
    shown = `[${host}]`;
  }
  return `http://${shown}:${port}`;
}
