/**
 * Help on the order screens (issue 10) in Chromium against the real server: a P2P buy cancelled
 * from the waiting screen after a confirmation ends on its details showing it cancelled, and the
 * support button of an order screen opens the support chat with the order's number typed.
 * Screenshots at 360 and 390 px.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  onScreen,
  screenshot,
  startServer,
  withPhone,
  type RunningServer,
} from './harness';

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({ maxActiveOrders: 50 });
});
afterAll(async () => {
  await browser.close();
  await server.close();
});

const TRON_WALLET = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

const orderIdOf = (page: Page) => /\/order\/([0-9a-f-]{36})\//.exec(page.url())?.[1] ?? '';

/** A P2P buy of `rub` roubles created from the form: the app is then on its waiting screen. */
async function createP2pBuy(page: Page, rub: string): Promise<string> {
  await page.goto(`${server.url}/p2p/buy`);
  await onScreen(page, 'p2p-buy');
  await expect.poll(() => page.getByTestId('rate').textContent()).toMatch(/1 USDC = /);
  await page.locator('[data-coin="USDT"]').click();
  await page.locator('select[name="network"]').selectOption('TRC20');
  await page.locator('input[name="fiatAmount"]').fill(rub);
  await page.locator('input[name="walletAddress"]').fill(TRON_WALLET);
  await page.getByTestId('continue').click();
  await onScreen(page, 'waiting');
  const id = orderIdOf(page);
  expect(id).not.toBe('');
  return id;
}

describe('help on the order screens', () => {
  it.each([390, 360])(
    'a P2P buy cancelled from the waiting screen ends on its details showing it cancelled (ru, %i px)',
    async (width) => {
      await withPhone(browser, { storedLanguage: 'ru', width }, async (page, dialogs) => {
        await page.goto(`${server.url}/currencies`);
        await page.locator('[data-currency="RUB"]').click();
        const id = await createP2pBuy(page, '10000');
        await page.getByTestId('cancel-order').waitFor();
        await screenshot(page, `waiting-cancel-ru-light-${width}`);
        await page.getByTestId('cancel-order').click();

        await onScreen(page, 'details');
        expect(new URL(page.url()).pathname).toBe(`/order/${id}/details`);
        const status = page.getByTestId('detail-status');
        await expect.poll(() => status.getAttribute('data-status')).toBe('CANCELLED');
        expect(await status.textContent()).toContain('Отменён');
        await screenshot(page, `details-cancelled-ru-light-${width}`);
        expect(dialogs).toEqual([`Отменить заказ №${id.slice(0, 8)}? Вернуть его будет нельзя.`]);
        const order = await server.database.db
          .selectFrom('orders')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(order.status).toBe('CANCELLED');
      });
    },
  );

  it.each([390, 360])(
    'the support button of an order screen opens the chat with the order number (en, %i px)',
    async (width) => {
      await withPhone(browser, { storedLanguage: 'en', width }, async (page, dialogs) => {
        await page.goto(`${server.url}/currencies`);
        await page.locator('[data-currency="RUB"]').click();
        const id = await createP2pBuy(page, '10000');
        const support = page.getByTestId('order-support');
        await support.waitFor();
        expect(await support.textContent()).toBe('Contact support');
        await screenshot(page, `waiting-support-en-light-${width}`);
        // Outside Telegram the link opens in a new tab: record it instead.
        await page.evaluate(() => {
          window.open = (url?: string | URL) => {
            document.body.dataset['opened'] = String(url);
            return null;
          };
        });
        await support.click();
        const opened = await page.evaluate(() => document.body.dataset['opened'] ?? '');
        const supportUrl = new URL(server.config.supportUrl);
        expect(opened).toBe(
          `${supportUrl.href}?text=${encodeURIComponent(`Order #${id.slice(0, 8)}: `)}`,
        );
        expect(dialogs).toEqual([]);
      });
    },
  );
});
