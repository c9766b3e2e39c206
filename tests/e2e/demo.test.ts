/**
 * The first hour (issue 13): the untouched demo, started the way `npm start` starts it (the
 * compiled server) with no configuration at all (demo mode, the autopilot on), as a newcomer tries
 * it in a browser:
 * - a P2P buy, a bank buy, an office buy and a sell each reach COMPLETED in under a minute with
 *   nobody acting but the customer and the autopilot;
 * - two browsers are two demo customers: neither sees nor reaches the other's orders.
 * The README's tour shows the screens this test saves to tests/e2e/readme/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngFile } from '../helpers/lifecycle';
import { ServerProcess, freePort } from '../helpers/server-process';
import { launchBrowser, onScreen, screenshot, withPhone } from './harness';
import { createP2pBuy, createSell, orderIdOf } from './journeys';

const ROOT = path.resolve(import.meta.dirname, '../..');
const README_SHOTS = path.join(ROOT, 'tests', 'e2e', 'readme');
/** Each journey, end to end, in under this (issue 13). */
const JOURNEY_MS = 60_000;
const EVM_WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

let browser: Browser;
let server: ServerProcess;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exchange-demo-'));
  // Only where the files go: everything else is the demo's own default.
  server = await ServerProcess.start({
    port: await freePort(),
    env: {
      SQLITE_PATH: path.join(dir, 'exchange.db'),
      RECEIPTS_DIR: path.join(dir, 'receipts'),
      STATIC_DIR: path.join(ROOT, 'dist'),
    },
    compiled: true,
  });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser.close();
  await server.kill();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A screenshot for the README's tour, beside the test's own; written into tests/e2e/readme/ only
 * when asked (README_SCREENSHOTS=1), so that a test run leaves the tree as it was.
 */
async function readmeShot(page: Page, name: string, show?: string): Promise<void> {
  await screenshot(page, name);
  if (process.env['README_SCREENSHOTS'] !== '1') return;
  // The part of a long screen the README is about, in view.
  if (show !== undefined) await page.getByTestId(show).scrollIntoViewIfNeeded();
  fs.mkdirSync(README_SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(README_SHOTS, `${name}.png`) });
}

/** The completed screen's title, in the customer's language. */
async function completed(page: Page, language: 'ru' | 'en'): Promise<void> {
  await page
    .getByText(language === 'ru' ? 'Заказ выполнен' : 'Order completed')
    .first()
    .waitFor({ timeout: JOURNEY_MS });
}

async function attachReceipt(page: Page): Promise<void> {
  await page.getByTestId('i-have-paid').click();
  await onScreen(page, 'upload-receipt');
  await page
    .getByTestId('receipt-input')
    .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: pngFile() });
  await page.getByTestId('send-receipt').click();
  await onScreen(page, 'complete');
}

async function pick(page: Page, currency: string, method: string): Promise<void> {
  await page.goto(`${server.url}/currencies`);
  await page.locator(`[data-currency="${currency}"]`).click();
  await page.locator(`[data-method="${method}"]`).click();
}

describe('the untouched demo: the customer and the autopilot, nobody else', () => {
  it('a P2P buy reaches COMPLETED in under a minute', { timeout: 2 * JOURNEY_MS }, async () => {
    await withPhone(browser, { storedLanguage: 'ru' }, async (page) => {
      const started = Date.now();
      await createP2pBuy(page, server.url);
      await readmeShot(page, 'demo-waiting-ru-light');
      await onScreen(page, 'payment');
      await readmeShot(page, 'demo-payment-ru-light');
      await attachReceipt(page);
      await completed(page, 'ru');
      await readmeShot(page, 'demo-completed-ru-light');
      expect(Date.now() - started).toBeLessThan(JOURNEY_MS);
    });
  });

  it('a bank buy reaches COMPLETED in under a minute', { timeout: 2 * JOURNEY_MS }, async () => {
    await withPhone(browser, { storedLanguage: 'en', theme: 'dark' }, async (page) => {
      const started = Date.now();
      await pick(page, 'RUB', 'bankAccount');
      await onScreen(page, 'bank-account');
      await expect.poll(() => page.getByTestId('rate').textContent()).toMatch(/1 USDC =/);
      await page.locator('input[name="fiatAmount"]').fill('600000');
      await page.locator('input[name="walletAddress"]').fill(EVM_WALLET);
      await page.getByTestId('continue').click();
      await onScreen(page, 'bank-requisites');
      await page.getByTestId('i-have-paid').waitFor({ timeout: JOURNEY_MS });
      await attachReceipt(page);
      await completed(page, 'en');
      expect(Date.now() - started).toBeLessThan(JOURNEY_MS);
    });
  });

  it('an office buy reaches COMPLETED in under a minute', { timeout: 2 * JOURNEY_MS }, async () => {
    await withPhone(browser, { storedLanguage: 'en' }, async (page) => {
      const started = Date.now();
      await pick(page, 'AED', 'office');
      await onScreen(page, 'office-exchange');
      await expect.poll(() => page.getByTestId('rate').textContent()).toMatch(/1 USDC =/);
      await page.locator('[data-city="dubai"]').click();
      await page.locator('input[name="fiatAmount"]').fill('25000');
      await page.locator('input[name="walletAddress"]').fill(EVM_WALLET);
      await page.getByTestId('continue').click();
      await onScreen(page, 'office-waiting');
      await page.getByTestId('instructions').waitFor({ timeout: JOURNEY_MS });
      await page.getByTestId('i-received').click();
      await completed(page, 'en');
      expect(Date.now() - started).toBeLessThan(JOURNEY_MS);
    });
  });

  it('a sell reaches COMPLETED in under a minute', { timeout: 2 * JOURNEY_MS }, async () => {
    await withPhone(browser, { storedLanguage: 'ru', theme: 'dark' }, async (page) => {
      const started = Date.now();
      await createSell(page, server.url);
      await page.locator('input[name="txHash"]').fill('e'.repeat(64));
      await page.getByTestId('submit-tx').click();
      await onScreen(page, 'sell-waiting');
      await completed(page, 'ru');
      expect(Date.now() - started).toBeLessThan(JOURNEY_MS);
    });
  });

  it("the console shows what the bot would have sent, and the autopilot's steps", async () => {
    await withPhone(browser, { storedLanguage: 'en' }, async (page) => {
      const id = await createP2pBuy(page, server.url);
      await onScreen(page, 'payment');
      await page.goto(`${server.url}/console/orders/${id}`);
      await onScreen(page, 'console-order');
      await page
        .getByTestId('console-messages')
        .getByText('the payment details are ready')
        .waitFor();
      await page.getByTestId('console-events').getByText('demo autopilot').first().waitFor();
      await readmeShot(page, 'demo-console-order-en-light', 'console-messages');
    });
  });
});

describe('one demo customer per browser', () => {
  it("two browsers never see each other's orders", { timeout: 2 * JOURNEY_MS }, async () => {
    const own = { storedLanguage: 'en', ownDemoCustomer: true } as const;
    await withPhone(browser, own, async (first) => {
      const id = await createP2pBuy(first, server.url);
      await withPhone(browser, own, async (second) => {
        await second.goto(`${server.url}/my-orders`);
        await onScreen(second, 'my-orders');
        await expect.poll(() => second.locator('[data-order-id]').count()).toBe(0);
        // Its link opened in the other browser: not found, as any order not one's own.
        await second.goto(first.url());
        await second.getByText('Order not found').waitFor();
      });
      await first.goto(`${server.url}/my-orders`);
      await first.locator(`[data-order-id="${id}"]`).first().waitFor();
      expect(orderIdOf(first)).toBe('');
    });
  });
});
