/**
 * The start-up line names an address others can open: with HOST=0.0.0.0 the
 * machine's first non-internal IPv4 address, not `localhost`.
 */
import type os from 'node:os';
import { describe, expect, it } from 'vitest';
import { listenUrl } from '../../../src/server/platform/config/listen-address';

const iface = (
  address: string,
  family: 'IPv4' | 'IPv6',
  internal: boolean,
): os.NetworkInterfaceInfo =>
  ({
    address,
    family,
    internal,
    netmask: family === 'IPv4' ? '255.255.255.0' : 'ffff:ffff:ffff:ffff::',
    mac: '02:42:ac:11:00:02',
    cidr: null,
    ...(family === 'IPv6' ? { scopeid: 0 } : {}),
  }) as os.NetworkInterfaceInfo;

const MACHINE = {
  lo: [iface('127.0.0.1', 'IPv4', true), iface('::1', 'IPv6', true)],
  eth0: [iface('fe80::42:acff:fe11:2', 'IPv6', false), iface('192.168.1.23', 'IPv4', false)],
  wlan0: [iface('10.0.0.7', 'IPv4', false)],
};

describe('listenUrl: the address the start-up line names', () => {
  it('HOST=0.0.0.0 or :: names the first non-internal IPv4 address, which others can open', () => {
    expect(listenUrl('0.0.0.0', 3000, MACHINE)).toBe('http://192.168.1.23:3000');
    expect(listenUrl('::', 8080, MACHINE)).toBe('http://192.168.1.23:8080');
  });

  it('a wildcard host on a machine with no outside address names localhost', () => {
    expect(listenUrl('0.0.0.0', 3000, { lo: MACHINE.lo })).toBe('http://localhost:3000');
  });

  it('a loopback host names localhost; any other host is named as it is, IPv6 in brackets', () => {
    expect(listenUrl('127.0.0.1', 3000, MACHINE)).toBe('http://localhost:3000');
    expect(listenUrl('::1', 3000, MACHINE)).toBe('http://localhost:3000');
    expect(listenUrl('10.0.0.7', 3000, MACHINE)).toBe('http://10.0.0.7:3000');
    expect(listenUrl('fd00::5', 3000, MACHINE)).toBe('http://[fd00::5]:3000');
  });

  it("reads this machine's interfaces by default", () => {
    expect(listenUrl('0.0.0.0', 3000)).toMatch(/^http:\/\/[\w.]+:3000$/);
  });
});
