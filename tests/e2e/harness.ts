/**
 * Browser tests: the real built app (dist/) served by the real server on a temporary database,
 * driven in Debian's Chromium through playwright-core. Screenshots of the screens go to
 * test-artifacts/screenshots/ to be looked at. Every test file starts with
 * `const e2e = useBrowserAndServer(overrides)` and reads `e2e.browser` and `e2e.server`; phones
 * open as a browser in demo mode (`openPhone`, `withPhone`) or as a Telegram client
 * (`openInTelegram`, with a server on a real bot configuration).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { DARK_THEME, LIGHT_THEME } from '../../src/app/telegram/default-themes';
import { loadConfig, type AppConfig } from '../../src/server/platform/config/config';
import { launchChromium } from '../helpers/chromium';
import {
  fakeTelegramClient,
  launchParameters,
  type FakeTelegramWindow,
} from '../helpers/telegram-client';
import { initDataFor } from '../helpers/identity';
import { demoCustomer } from '../../src/server/platform/identity/demo-session';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectAccessible } from './accessibility';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST = path.join(ROOT, 'dist');
export const SCREENSHOTS = path.join(ROOT, 'test-artifacts', 'screenshots');

export interface RunningServer extends TestApp {
  readonly url: string;
}

/**
 * The real server on a temporary database, serving the built app. `jobs: false` leaves the
 * sweeper off, so that an order past its deadline stays as written (the gallery's expired states).
 */
export async function startServer(
  overrides: Partial<AppConfig> = {},
  options: { readonly jobs?: boolean } = {},
): Promise<RunningServer> {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) {
    throw new Error('dist/ has no build: run `npm run build` first (npm run test:e2e does)');
  }
  const t = await createTestApp(
    { staticDir: DIST, ...overrides },
    { realClock: true, jobs: options.jobs ?? true },
  );
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...t, url: address };
}

export const launchBrowser = launchChromium;

/** Chromium and the real server of a test file, there from its first test to its last. */
export interface BrowserAndServer {
  readonly browser: Browser;
  readonly server: RunningServer;
}

/**
 * The set-up every browser test file shares: launches Chromium and starts the server
 * (`startServer(overrides, options)`) before the file's tests, and closes both after them.
 * Call it at the top of the file; read `.browser` and `.server` inside hooks and tests (they are
 * getters: before the file's first hook has run there is nothing to read).
 */
export function useBrowserAndServer(
  overrides: Partial<AppConfig> = {},
  options: { readonly jobs?: boolean } = {},
): BrowserAndServer {
  let browser: Browser | undefined;
  let server: RunningServer | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
    server = await startServer(overrides, options);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    get browser() {
      if (browser === undefined)
        throw new Error('the browser is there only inside hooks and tests');
      return browser;
    },
    get server() {
      if (server === undefined) throw new Error('the server is there only inside hooks and tests');
      return server;
    },
  };
}

/** The demo identity every phone keeps unless it asks for its own. */
const E2E_DEMO_BROWSER = 'e2e-demo-browser-0000000000000001';
/**
 * The demo customer the phones sign in as (each browser is its own demo customer): tests write
 * its orders straight into the database.
 */
export const DEMO_CUSTOMER = demoCustomer(E2E_DEMO_BROWSER);

export interface PhoneOptions {
  /** A demo customer of its own, as a new visitor's browser makes; DEMO_CUSTOMER otherwise. */
  readonly ownDemoCustomer?: boolean;
  readonly theme?: 'light' | 'dark';
  /** `selectedLanguage` already in local storage, as for a returning customer. */
  readonly storedLanguage?: 'ru' | 'en';
  /** The screen width in CSS pixels: 390 (a common handset) unless said, 360 for a narrow one. */
  readonly width?: number;
}

/** A phone-sized browser context, as Telegram's in-app browser on a common handset. */
export async function openPhone(
  browser: Browser,
  options: PhoneOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 390, height: 844 },
    deviceScaleFactor: 1,
    colorScheme: options.theme ?? 'light',
    locale: 'ru-RU',
  });
  if (options.storedLanguage !== undefined) {
    // Only before the very first document of the context: later reloads keep what the app stored.
    await context.addInitScript((language) => {
      if (sessionStorage.getItem('e2e-seeded') === null) {
        localStorage.setItem('selectedLanguage', language);
        sessionStorage.setItem('e2e-seeded', '1');
      }
    }, options.storedLanguage);
  }
  if (options.ownDemoCustomer !== true) {
    await context.addInitScript((browser) => {
      if (localStorage.getItem('demoBrowserId') === null) {
        localStorage.setItem('demoBrowserId', browser);
      }
    }, E2E_DEMO_BROWSER);
  }
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    console.error('page error:', error.message);
  });
  return { context, page };
}

/**
 * Runs `body` on a fresh phone and closes it afterwards. Alerts and confirmations (window.alert
 * and window.confirm outside Telegram) are accepted and their texts collected in `dialogs`.
 */
export async function withPhone(
  browser: Browser,
  options: PhoneOptions,
  body: (page: Page, dialogs: string[]) => Promise<void>,
): Promise<void> {
  const { context, page } = await openPhone(browser, options);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  try {
    await body(page, dialogs);
  } finally {
    await context.close();
  }
}

/**
 * Waits for a screen by its `data-screen` name, and checks it is usable by everyone
 * (accessibility.ts): every screen a test reaches is checked without the test asking.
 */
export async function onScreen(page: Page, name: string): Promise<void> {
  await page.locator(`[data-screen="${name}"]`).waitFor({ state: 'visible', timeout: 15_000 });
  await expectAccessible(page, name);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // The page photographed is the one in front: a test holding two phones (a customer and an
  // operator) would otherwise ask a page in the back for a frame its compositor never draws.
  await page.bringToFront();
  // Let fonts and the kit's transitions settle so the picture is what a customer sees.
  // From the top, so the sticky header is drawn where a customer sees it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  await expectAccessible(page, name);
  // A title that does not fit is shortened in the dictionary, never cut off.
  const cut = await page.evaluate(() => {
    const title = document.querySelector<HTMLElement>('.app-header__title');
    return title !== null && title.scrollWidth > title.clientWidth ? title.textContent : null;
  });
  if (cut !== null) throw new Error(`${name}: the title "${cut}" is cut off at this width`);
}

/** A bot token shaped like @BotFather's: the server is out of demo mode with it. */
export const TEST_BOT_TOKEN = '7000000001:AAHk3rZ9mQx2VbT8nP4sLw6yJcD1eFgH0iK';

/**
 * The server's configuration with a real bot, read from the environment variables an operator
 * sets (README, "Connect a real Telegram bot"), so it is one the server accepts: the token, the
 * operators and the deposit addresses a token requires.
 */
export function realBotConfig(operatorIds: readonly number[]): Partial<AppConfig> {
  const config = loadConfig({
    BOT_TOKEN: TEST_BOT_TOKEN,
    OPERATOR_IDS: operatorIds.join(','),
    DEPOSIT_ADDRESS_TRC20: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    DEPOSIT_ADDRESS_EVM: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  });
  return {
    botToken: config.botToken,
    operatorIds: config.operatorIds,
    depositAddresses: config.depositAddresses,
  };
}

/** The user a Telegram client puts into the init data it signs. */
export interface TelegramUser {
  readonly id: number;
  readonly first_name: string;
  readonly username?: string;
  readonly language_code?: string;
}

export interface TelegramLaunchOptions extends PhoneOptions {
  /** The path the app opens at: `/` unless said. */
  readonly path?: string;
  readonly platform?: 'android' | 'ios';
  /** The Mini Apps version the client announces: 8.0 unless said (6.3 has no QR scanner). */
  readonly version?: string;
}

export interface OpenedInTelegram {
  readonly context: BrowserContext;
  readonly page: Page;
  /** The init data the client signed with the server's bot token, as the app sends it. */
  readonly initData: string;
  /** `path` on the server with the launch parameters in the hash, as the client opens it. */
  readonly url: (path: string) => string;
  /** Every call the page made to `/api/…`, with its answer's status, in order. */
  readonly apiCalls: readonly { readonly path: string; readonly status: number }[];
  /** The events the app posted to the client (`web_app_ready`, …), in order. */
  readonly posted: () => Promise<string[]>;
  /** The code the client's QR scanner reads the next time the app opens it. */
  readonly nextQrCode: (text: string) => Promise<void>;
}

/**
 * Opens the app the way a Telegram client opens a mini app: a phone-sized page with the client's
 * bridge (`TelegramWebviewProxy`) and the launch parameters in the URL's hash, the init data
 * signed for `user` with the server's bot token. The server must have one (`realBotConfig`):
 * in demo mode the app signs its own customer in instead.
 */
export async function openInTelegram(
  browser: Browser,
  server: RunningServer,
  user: TelegramUser,
  options: TelegramLaunchOptions = {},
): Promise<OpenedInTelegram> {
  const token = server.config.botToken;
  if (token === undefined) throw new Error('openInTelegram needs a server with a bot token');
  const initData = initDataFor(user, { token });
  const theme = options.theme === 'dark' ? DARK_THEME : LIGHT_THEME;
  const launch = launchParameters(initData, theme, options.platform, options.version);
  const url = (path: string) => `${server.url}${path}#${launch}`;
  const { context, page } = await openPhone(browser, options);
  await context.addInitScript(fakeTelegramClient, theme);
  const apiCalls: { path: string; status: number }[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/api/')) apiCalls.push({ path: pathname, status: response.status() });
  });
  await page.goto(url(options.path ?? '/'));
  // Both run in the page, where the fake client keeps its records on `window`.
  const posted = () =>
    page.evaluate(() => (window as unknown as FakeTelegramWindow).__telegramPosted);
  const nextQrCode = (text: string) =>
    page.evaluate((code) => {
      (window as unknown as FakeTelegramWindow).__telegramQrCodes.push(code);
    }, text);
  return { context, page, initData, url, apiCalls, posted, nextQrCode };
}
