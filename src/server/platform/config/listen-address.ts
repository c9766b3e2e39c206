/**
 * The address the start-up line names: one others can open, since a demo is often shared. A
 * server on a wildcard host (HOST=0.0.0.0 or ::) is reached from other machines at this
 * machine's own address, not at `localhost`, which on their side is themselves.
 */
import os from 'node:os';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const WILDCARD = new Set(['0.0.0.0', '::', '']);

/**
 * `http://<address>:<port>` for a server listening on `host`: `localhost` for a loopback host;
 * for a wildcard host the first non-internal IPv4 address of `interfaces` (the machine's, in the
 * order the system lists them), or `localhost` when it has none; any other host as it is.
 */
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
    // An IPv6 literal is bracketed in a URL.
    shown = `[${host}]`;
  }
  return `http://${shown}:${port}`;
}
