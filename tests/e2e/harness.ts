/**
 * Browser tests: the real built app (dist/) served by the real server on a temporary database,
 * driven in Debian's Chromium through playwright-core. Screenshots of the screens go to
 * test-artifacts/screenshots/ to be looked at.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { AppConfig } from '../../src/server/config';
import { createTestApp, type TestApp } from '../helpers/test-app';

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

export async function launchBrowser(): Promise<Browser> {
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
    ],
  });
}

export interface PhoneOptions {
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

/** Waits for a screen by its `data-screen` name. */
export async function onScreen(page: Page, name: string): Promise<void> {
  await page.locator(`[data-screen="${name}"]`).waitFor({ state: 'visible', timeout: 15_000 });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // Let fonts and the kit's transitions settle so the picture is what a customer sees.
  // From the top, so the sticky header is drawn where a customer sees it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  // A title that does not fit is shortened in the dictionary, never cut off (conventions, 16).
  const cut = await page.evaluate(() => {
    const title = document.querySelector<HTMLElement>('.app-header__title');
    return title !== null && title.scrollWidth > title.clientWidth ? title.textContent : null;
  });
  if (cut !== null) throw new Error(`${name}: the title "${cut}" is cut off at this width`);
}
