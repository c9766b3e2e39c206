/**
 * The customer's steps the browser tests share: a P2P buy and a P2P sell created from the
 * currency list as a customer taps through them, each ending on its first order screen; and the
 * links the app opens, recorded.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { NetworkId } from '../../src/shared/networks';
import { onScreen } from './harness';

export const TRON_WALLET = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

/** The order id of the order screen a page shows ('' on any other page). */
export const orderIdOf = (page: Page) => /\/order\/([0-9a-f-]{36})\//.exec(page.url())?.[1] ?? '';

/** Taps counted: `tap` clicks and counts, `count` says how many so far (the three-tap goal). */
export function tapCounter(): {
  readonly tap: (locator: ReturnType<Page['locator']>) => Promise<void>;
  readonly count: () => number;
} {
  let taps = 0;
  return {
    tap: async (locator) => {
      taps += 1;
      await locator.click();
    },
    count: () => taps,
  };
}

/** RUB → P2P → buy or sell, on the server at `base`. */
async function openP2p(page: Page, base: string, direction: 'buy' | 'sell'): Promise<void> {
  await page.goto(`${base}/currencies`);
  await page.locator('[data-currency="RUB"]').click();
  await page.locator('[data-method="p2p"]').click();
  await page.locator(`[data-direction="${direction}"]`).click();
  await onScreen(page, `p2p-${direction}`);
}

/** A P2P buy of USDT on Tron for `rub` roubles: the page is then on its waiting screen. */
export async function createP2pBuy(page: Page, base: string, rub = '10000'): Promise<string> {
  await openP2p(page, base, 'buy');
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

/** A P2P sell of 100 USDT on `network` (Tron unless said) to a card: the page is then on send-crypto. */
export async function createSell(
  page: Page,
  base: string,
  network: NetworkId = 'TRC20',
): Promise<string> {
  await openP2p(page, base, 'sell');
  await page.locator('[data-coin="USDT"]').click();
  await expect.poll(() => page.getByTestId('rate').textContent()).toMatch(/1 USDT = /);
  await page.locator('select[name="network"]').selectOption(network);
  await page.locator('input[name="cryptoAmount"]').fill('100');
  await page.locator('input[name="cardNumber"]').pressSequentially('2200700123456781');
  await page.locator('input[name="cardHolder"]').fill('ivan petrov');
  await page.locator('input[name="bankName"]').fill('Т-Банк');
  await page.getByTestId('continue').click();
  await onScreen(page, 'send-crypto');
  return orderIdOf(page);
}

/** Outside Telegram a link opens in a new tab: the page records the URL instead; read it later. */
export async function recordOpenedLinks(page: Page): Promise<() => Promise<string>> {
  await page.evaluate(() => {
    window.open = (url?: string | URL) => {
      document.body.dataset['opened'] = String(url);
      return null;
    };
  });
  return () => page.evaluate(() => document.body.dataset['opened'] ?? '');
}
