/**
 * Debian's Chromium through playwright-core, as the browser tests and the benchmarks drive it:
 * talking to 127.0.0.1 only.
 */
import { chromium, type Browser } from 'playwright-core';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Every name but the loopback's is unknown: a page that asks for the internet (the
      // reactjs-template's wallet list, a third-party image) fails at once, on this machine.
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
    ],
  });
}
