/**
 * A newcomer's first hour: the untouched demo, started the way `npm start` starts it (the
 * compiled server) with no configuration at all (demo mode, the autopilot on), as a newcomer tries
 * it in a browser:
 * - a P2P buy, a bank buy, an office buy and a sell each reach COMPLETED in under a minute with
 *   nobody acting but the customer and the autopilot;
 * - two browsers are two demo customers: neither sees nor reaches the other's orders, in the app
 *   or in their consoles;
 * - the README's tour, followed word for word (its wallet, card and hash read from README.md).
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
import { TRON_WALLET, createP2pBuy, createSell, orderIdOf } from './journeys';

const ROOT = path.resolve(import.meta.dirname, '../..');
const README_SHOTS = path.join(ROOT, 'tests', 'e2e', 'readme');
/** Each journey, end to end, in under this. */
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

  it(
    "the tour's steps 6 and 7: a question in the order's chat answered by the autopilot, then the wallet saved and the order repeated",
    { timeout: 3 * JOURNEY_MS },
    async () => {
      await withPhone(browser, { storedLanguage: 'ru' }, async (page) => {
        await createP2pBuy(page, server.url);
        await onScreen(page, 'payment');
        await page.getByTestId('order-chat').click();
        await onScreen(page, 'chat');
        await page.getByTestId('chat-field').fill('Здравствуйте! Перевести можно с любой карты?');
        await page.getByTestId('chat-send').click();
        // In demo mode the autopilot answers a customer's first message once, with a canned line.
        await page.getByText('Демо: это автоответ обменника', { exact: false }).waitFor({
          timeout: JOURNEY_MS,
        });
        await readmeShot(page, 'demo-chat-ru-light');
        await page.getByRole('button', { name: 'Назад' }).click();
        await onScreen(page, 'payment');
        await attachReceipt(page);
        await completed(page, 'ru');
        await page.getByTestId('save-wallet-button').click();
        await page.getByTestId('save-wallet-done').waitFor();
        await page.goto(`${server.url}/my-orders`);
        await page.getByTestId('repeat-last').waitFor();
        await readmeShot(page, 'demo-repeat-ru-light');
        await page.getByTestId('repeat-last').click();
        await onScreen(page, 'p2p-buy');
        expect(await page.locator('input[name="walletAddress"]').inputValue()).toBe(TRON_WALLET);
        expect(await page.locator('input[name="fiatAmount"]').inputValue()).toBe('10000');
      });
    },
  );

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

/** The README's tour of the demo, as written: a step that no longer works as told fails here. */
function tourStep(number: number): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const tour = readme.slice(readme.indexOf('### A tour of the demo'));
  const step = new RegExp(`^${number}\\. ([\\s\\S]*?)(?=^\\d+\\. |^\`\`\`)`, 'm').exec(tour)?.[1];
  if (step === undefined) throw new Error(`README.md's tour has no step ${number}`);
  return step.replace(/\s+/g, ' ');
}

/** What a step of the tour says, by a pattern whose first group is the words to use. */
function said(step: string, pattern: RegExp): string {
  const words = pattern.exec(step)?.[1];
  if (words === undefined)
    throw new Error(`the tour's step does not say ${String(pattern)}: ${step}`);
  return words;
}

describe("the README's tour, followed word for word", () => {
  it(
    '1. buy by card transfer: the amount, the network and the wallet it names are taken, and the order completes',
    { timeout: 2 * JOURNEY_MS },
    async () => {
      const step = tourStep(1);
      const amount = said(step, /Type ([\d ]+),/).replace(/ /g, '');
      const network = said(step, /pick the network \*\*(\w+)\*\*/);
      const wallet = said(step, /give a \w+ wallet \(`([^`]+)` will do\)/);
      await withPhone(browser, { storedLanguage: 'en', ownDemoCustomer: true }, async (page) => {
        await pick(page, 'RUB', 'p2p');
        await page.locator('[data-direction="buy"]').click();
        await onScreen(page, 'p2p-buy');
        await expect.poll(() => page.getByTestId('rate').textContent()).toMatch(/1 USDC = /);
        await page.locator('input[name="fiatAmount"]').fill(amount);
        await page.locator('select[name="network"]').selectOption(network);
        await page.locator('input[name="walletAddress"]').fill(wallet);
        await page.getByTestId('continue').click();
        await onScreen(page, 'waiting');
        await onScreen(page, 'payment');
        await attachReceipt(page);
        await completed(page, 'en');
      });
    },
  );

  it(
    '4. sell: the coin, card, holder, bank and transaction hash it names are taken, and the order completes',
    { timeout: 2 * JOURNEY_MS },
    async () => {
      const step = tourStep(4);
      const coin = said(step, /pick (\w+) \(its network is then/);
      const network = said(step, /its network is then (\w+)\)/);
      const amount = said(step, /(\d+) to a card/);
      const card = said(step, /to a card \(`([^`]+)`/).replace(/ /g, '');
      const holder = said(step, /holder `([^`]+)`/);
      const bank = said(step, /bank `([^`]+)`/);
      const hash = said(step, /\(`(0x[0-9a-f]+)` will do\)/);
      await withPhone(browser, { storedLanguage: 'ru', ownDemoCustomer: true }, async (page) => {
        await pick(page, 'RUB', 'p2p');
        await page.locator('[data-direction="sell"]').click();
        await onScreen(page, 'p2p-sell');
        await page.locator(`[data-coin="${coin}"]`).click();
        await expect.poll(() => page.locator('select[name="network"]').inputValue()).toBe(network);
        await page.locator('input[name="cryptoAmount"]').fill(amount);
        await page.locator('input[name="cardNumber"]').pressSequentially(card);
        await page.locator('input[name="cardHolder"]').fill(holder);
        await page.locator('input[name="bankName"]').fill(bank);
        await page.getByTestId('continue').click();
        await onScreen(page, 'send-crypto');
        await page.locator('input[name="txHash"]').fill(hash);
        await page.getByTestId('submit-tx').click();
        await onScreen(page, 'sell-waiting');
        await completed(page, 'ru');
      });
    },
  );
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

  it(
    "each visitor's console holds their own orders: another browser's search finds nothing and its order is not found",
    { timeout: 2 * JOURNEY_MS },
    async () => {
      const own = { storedLanguage: 'en', ownDemoCustomer: true } as const;
      await withPhone(browser, own, async (first) => {
        const id = await createP2pBuy(first, server.url);
        const number = id.slice(0, 8);
        await withPhone(browser, own, async (second) => {
          // A console of its own: the search by the other's order number finds nothing…
          await second.goto(`${server.url}/console/orders`);
          await onScreen(second, 'console-search');
          await second.locator('input[name="q"]').fill(number);
          await second.getByText('Nothing found').waitFor();
          // …the queue lists none of the other's orders, and its link is not found.
          await second.goto(`${server.url}/console`);
          await onScreen(second, 'console-queue');
          await expect.poll(() => second.locator(`[data-console-order="${id}"]`).count()).toBe(0);
          await second.goto(`${server.url}/console/orders/${id}`);
          await second.getByText('Order not found').waitFor();
        });
        // The visitor's own console finds it, with its customer and wallet, and opens it.
        await first.goto(`${server.url}/console/orders`);
        await onScreen(first, 'console-search');
        await first.locator('input[name="q"]').fill(number);
        await first.locator(`[data-console-order="${id}"]`).click();
        await onScreen(first, 'console-order');
        await first.getByText(TRON_WALLET).first().waitFor();
        await expect
          .poll(() => first.getByTestId('console-customer').textContent())
          .toMatch(/Demo Customer/);
      });
    },
  );
});
