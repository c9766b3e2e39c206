/**
 * The first screen over a phone's network, measured in Chromium: the server
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
 *
 * With BENCH_TEMPLATE_DIST, the build (`dist/`, built with base `/`) of Telegram's official
 * reactjs-template (github.com/Telegram-Mini-Apps/reactjs-template) is loaded too, from the same
 * kind of static server, and so is the landing from its own server, both opened as a Telegram
 * client opens a mini-app (launch parameters in the address, the client's bridge in the page),
 * in turn with the others; the template is ready when its first page shows. The bar: the landing
 * in Telegram ready in at most 0.75 of the template's time.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { LIGHT_THEME } from '../../src/app/telegram/default-themes';
import {
  DEMO_BOT_TOKEN,
  DEMO_USER,
  signInitData,
} from '../../src/server/platform/identity/telegram-auth';
import { launchChromium } from '../helpers/chromium';
import { freePort } from '../helpers/server-process';
import { fakeTelegramClient, launchParameters } from '../helpers/telegram-client';
import { SERVER_DIR, WORK, removeWork, startServer, stop } from './server-under-test';

const RUNS = Number(process.env['BENCH_FIRST_SCREEN_RUNS'] ?? 9);
const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;
const TEMPLATE_DIST = process.env['BENCH_TEMPLATE_DIST'];
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
  /** The scripts' bytes on the wire, by file name. */
  readonly scripts: ReadonlyMap<string, number>;
  readonly readyMs: number;
}

/** What is loaded: where, and the element whose text shows that its first screen is ready. */
interface Site {
  readonly url: string;
  readonly ready: { readonly selector: string; readonly text?: string };
  /** The theme of the Telegram client whose bridge is put in the page, if opened in Telegram. */
  readonly telegramTheme?: Readonly<Record<string, string>>;
}

const LANDING_READY = { selector: '[data-screen="landing"]' };

/** The landing, from its own server or from the static one, in the demo outside Telegram. */
const landingAt = (url: string): Site => ({ url, ready: LANDING_READY });

/**
 * A mini-app at `url`, opened as Telegram's Android client opens it: the launch parameters in
 * the address, with init data signed for the demo's customer with the demo's bot token (the
 * server under test runs the demo), and the client's bridge in the page, answering what the SDK
 * asks at start-up (tests/helpers/telegram-client.ts).
 */
function inTelegram(url: string, ready: Site['ready']): Site {
  const initData = signInitData(DEMO_BOT_TOKEN, DEMO_USER);
  return {
    url: `${url}/#${launchParameters(initData, LIGHT_THEME)}`,
    ready,
    telegramTheme: LIGHT_THEME,
  };
}

/** The reactjs-template's first page is ready when its second section's title shows. */
const TEMPLATE_READY = { selector: '#root', text: 'Application Launch Data' };

/** One cold load of a first screen on a throttled phone. */
async function load(browser: Browser, site: Site): Promise<Load> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    locale: 'ru-RU',
  });
  try {
    if (site.telegramTheme !== undefined) {
      // tsx keeps functions' names through a helper, `__name`, that the page lacks.
      await context.addInitScript('globalThis.__name = (target) => target;');
      await context.addInitScript(fakeTelegramClient, site.telegramTheme);
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    let bytes = 0;
    const scripts = new Map<string, number>();
    const scriptNames = new Map<string, string>();
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
    cdp.on('Network.responseReceived', (event) => {
      if (event.type === 'Script') {
        scriptNames.set(
          event.requestId,
          new URL(event.response.url).pathname.split('/').at(-1) ?? '',
        );
      }
    });
    cdp.on('Network.loadingFinished', (event) => {
      bytes += event.encodedDataLength;
      const script = scriptNames.get(event.requestId);
      if (script !== undefined) scripts.set(script, event.encodedDataLength);
      settle(event.requestId);
    });
    cdp.on('Network.loadingFailed', (event) => settle(event.requestId));
    await page.goto(site.url, { waitUntil: 'commit' });
    // Read in the page, the moment the first screen shows: from the navigation's start.
    const ready = await page.waitForFunction(
      ({ selector, text }) => {
        const shown = document.querySelector(selector);
        const done = shown !== null && (text === undefined || shown.textContent.includes(text));
        return done && performance.now();
      },
      site.ready,
      { polling: 'raf', timeout: 60_000 },
    );
    const readyMs = Number(await ready.jsonValue());
    while (pending.size > 0 || Date.now() - lastChange < QUIET_MS) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { bytes, scripts, readyMs };
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
  const template =
    TEMPLATE_DIST === undefined
      ? undefined
      : await startStaticServer(
          TEMPLATE_DIST,
          server.url,
          fs.readFileSync(path.join(TEMPLATE_DIST, 'index.html'), 'utf8'),
        );
  const sites = [
    { name: 'its own server (npm start)', site: landingAt(server.url) },
    { name: 'the build on a static server, gzip', site: landingAt(yardstick.url) },
    ...(template === undefined
      ? []
      : [
          { name: 'its own server, in Telegram', site: inTelegram(server.url, LANDING_READY) },
          { name: 'reactjs-template, in Telegram', site: inTelegram(template.url, TEMPLATE_READY) },
        ]),
  ];
  const loads = sites.map((): Load[] => []);
  const browser = await launchChromium();
  try {
    // One load of each first, not counted: the processes and Chromium warm up.
    for (const { site } of sites) await load(browser, site);
    for (let run = 0; run < RUNS; run++) {
      // Taken in turn, each run starting with the next, so that none always meets a warmer machine.
      for (let i = 0; i < sites.length; i++) {
        const which = (run + i) % sites.length;
        const site = sites[which]?.site;
        if (site !== undefined) loads[which]?.push(await load(browser, site));
      }
    }
    const readyOf = (i: number) => median((loads[i] ?? []).map((l) => l.readyMs));
    const line = (name: string, runs: readonly Load[]) =>
      `  ${name.padEnd(34)} ${(median(runs.map((l) => l.bytes)) / 1000).toFixed(1).padStart(6)} KB` +
      `   ready ${median(runs.map((l) => l.readyMs))
        .toFixed(0)
        .padStart(5)} ms` +
      `   (each run: ${runs.map((l) => l.readyMs.toFixed(0)).join(' ')})`;
    const own = loads[0] ?? [];
    const scriptKb = (load: Load) => [...load.scripts.values()].reduce((a, b) => a + b, 0) / 1000;
    const scriptsOf = own[0]?.scripts ?? new Map<string, number>();
    console.log(
      `first screen, slow 4G and ${CPU_SLOWDOWN}x CPU, medians of ${RUNS} cold loads each:\n` +
        `${sites.map(({ name }, i) => line(name, loads[i] ?? [])).join('\n')}\n` +
        `first screen: ${(median(own.map((l) => l.bytes)) / 1000).toFixed(1)} KB on the wire ` +
        `(goal ≤ 130 KB), of which JavaScript ${median(own.map(scriptKb)).toFixed(1)} KB ` +
        `(${[...scriptsOf].map(([name, size]) => `${name} ${(size / 1000).toFixed(1)}`).join(', ')}), ` +
        `ready ÷ static server ${(readyOf(0) / readyOf(1)).toFixed(2)} (goal ≤ 1.00)` +
        (template === undefined
          ? ''
          : `; in Telegram, ready ÷ reactjs-template ${(readyOf(2) / readyOf(3)).toFixed(2)} ` +
            `(bar ≤ 0.75; the demo outside Telegram ${(readyOf(0) / readyOf(3)).toFixed(2)})`),
    );
  } finally {
    await browser.close();
    await yardstick.close();
    await template?.close();
    await stop(server);
  }
}

await main().finally(removeWork);
