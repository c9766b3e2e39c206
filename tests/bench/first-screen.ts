/**
 * The first screen over a phone's network (issue 22, item 1), measured in Chromium: the server
 * started the way `npm start` starts it (from BENCH_SERVER_DIR, built beforehand by `npm run
 * bench`), and, as the yardstick, the same build served by a plain static server that gzips what
 * it sends (level 6, as compression middleware and most static hosts do) and passes /api on to
 * the same server; its index.html is the one the server fills in with the app's configuration.
 * Runs alternate between the two, each in a fresh browser context (nothing cached), throttled as
 * Lighthouse's "Slow 4G" phone: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, the CPU four
 * times slower.
 *
 * For each it prints the bytes on the wire (every response of the page until the network rests,
 * headers included) and the time from navigation until the landing is on screen, medians over
 * BENCH_FIRST_SCREEN_RUNS runs each (9); then the ratio of the two times. Nothing is asserted;
 * the goals: at most 130 KB, and ready no later than from the static server (ratio ≤ 1.0).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium';
import { freePort } from '../helpers/server-process';
import { SERVER_DIR, WORK, removeWork, startServer, stop } from './server-under-test';

const RUNS = Number(process.env['BENCH_FIRST_SCREEN_RUNS'] ?? 9);
const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;
/** The network rests when no response has been pending for this long. */
const QUIET_MS = 1_000;

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json']);

/** The yardstick: dist/ as files, gzipped on the way out, /api passed on to `api`. */
async function startStaticServer(dist: string, api: string, indexHtml: string) {
  const port = await freePort();
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith('/api/')) {
      const upstream = http.request(
        `${api}${url.pathname}${url.search}`,
        { method: request.method, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      request.pipe(upstream);
      return;
    }
    const file = path.join(dist, path.normalize(url.pathname));
    const extension = path.extname(file);
    const isFile = extension !== '' && file.startsWith(dist) && fs.existsSync(file);
    const body = isFile ? fs.readFileSync(file) : Buffer.from(indexHtml);
    const type = isFile ? extension : '.html';
    const gzip =
      COMPRESSIBLE.has(type) && /\bgzip\b/.test(String(request.headers['accept-encoding']));
    response.writeHead(200, {
      'content-type': TYPES[type] ?? 'application/octet-stream',
      ...(gzip ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}),
    });
    response.end(gzip ? gzipSync(body, { level: 6 }) : body);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Load {
  readonly bytes: number;
  readonly readyMs: number;
}

/** One cold load of the landing on a throttled phone. */
async function load(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    locale: 'ru-RU',
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    let bytes = 0;
    const pending = new Set<string>();
    let lastChange = Date.now();
    cdp.on('Network.requestWillBeSent', (event) => {
      pending.add(event.requestId);
      lastChange = Date.now();
    });
    const settle = (requestId: string) => {
      pending.delete(requestId);
      lastChange = Date.now();
    };
    cdp.on('Network.loadingFinished', (event) => {
      bytes += event.encodedDataLength;
      settle(event.requestId);
    });
    cdp.on('Network.loadingFailed', (event) => settle(event.requestId));
    await page.goto(url, { waitUntil: 'commit' });
    // Read in the page, the moment the landing shows: from the navigation's start.
    const ready = await page.waitForFunction(
      () => document.querySelector('[data-screen="landing"]') !== null && performance.now(),
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    const readyMs = Number(await ready.jsonValue());
    while (pending.size > 0 || Date.now() - lastChange < QUIET_MS) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { bytes, readyMs };
  } finally {
    await context.close();
  }
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function main(): Promise<void> {
  const server = await startServer({ kind: 'sqlite', path: path.join(WORK, 'first-screen.db') });
  const indexHtml = await (await fetch(`${server.url}/`)).text();
  const yardstick = await startStaticServer(path.join(SERVER_DIR, 'dist'), server.url, indexHtml);
  const browser = await launchChromium();
  try {
    const own: Load[] = [];
    const plain: Load[] = [];
    // One load of each first, not counted: the processes and Chromium warm up.
    await load(browser, server.url);
    await load(browser, yardstick.url);
    for (let run = 0; run < RUNS; run++) {
      // Alternating which goes first, so that neither always meets a warmer machine.
      if (run % 2 === 0) {
        own.push(await load(browser, server.url));
        plain.push(await load(browser, yardstick.url));
      } else {
        plain.push(await load(browser, yardstick.url));
        own.push(await load(browser, server.url));
      }
    }
    const line = (name: string, loads: readonly Load[]) =>
      `  ${name.padEnd(34)} ${(median(loads.map((l) => l.bytes)) / 1000).toFixed(1).padStart(6)} KB` +
      `   ready ${median(loads.map((l) => l.readyMs))
        .toFixed(0)
        .padStart(5)} ms` +
      `   (each run: ${loads.map((l) => l.readyMs.toFixed(0)).join(' ')})`;
    const ratio = median(own.map((l) => l.readyMs)) / median(plain.map((l) => l.readyMs));
    console.log(
      `first screen, slow 4G and ${CPU_SLOWDOWN}x CPU, medians of ${RUNS} cold loads each:\n` +
        `${line('its own server (npm start)', own)}\n` +
        `${line('the build on a static server, gzip', plain)}\n` +
        `first screen: ${(median(own.map((l) => l.bytes)) / 1000).toFixed(1)} KB on the wire ` +
        `(goal ≤ 130 KB), ready ÷ static server ${ratio.toFixed(2)} (goal ≤ 1.00)`,
    );
  } finally {
    await browser.close();
    await yardstick.close();
    await stop(server);
  }
}

await main().finally(removeWork);
