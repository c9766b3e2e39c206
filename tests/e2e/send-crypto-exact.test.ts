/**
 * The sell's exact amount on send-crypto, in Chromium against the real server: one deposit
 * address serves every seller, so each sell is given the amount asked for plus a tag in its 4th
 * decimal, unique among open sells, and only a transfer of exactly that amount confirms the order
 * by itself. The screen gives it first and large, with the note that says so, on the first screen
 * of a 360 and a 390 px phone in both languages; screenshots to look at are saved as
 * send-crypto-exact-<language>-light-<width>.png.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_DEPOSIT_ADDRESSES } from '../../src/server/platform/config/config';
import { unitsToDecimal } from '../../src/shared/money';
import { insertOrder } from '../helpers/orders';
import { DEMO_CUSTOMER, onScreen, screenshot, useBrowserAndServer, withPhone } from './harness';
import { createSell } from './journeys';

const e2e = useBrowserAndServer({ maxActiveOrders: 50 });

const HEIGHT = 844;

const WORDS = {
  en: {
    heading: 'Send exactly',
    // 100 and a tag in the 4th decimal: above 100, below 101, its last digit never 0.
    figure: /^100\.\d{3}[1-9] USDT$/,
    note: /^To the last digit, in one transfer:/,
    copy: 'Copy',
  },
  ru: {
    heading: 'Отправьте ровно',
    figure: /^100,\d{3}[1-9] USDT$/,
    note: /^До последней цифры и одним переводом:/,
    copy: 'Копировать',
  },
} as const;

const COMBINATIONS = [
  ['ru', 360],
  ['ru', 390],
  ['en', 360],
  ['en', 390],
] as const;

/** Fails unless `locator` is drawn whole inside a `width` × HEIGHT viewport, with no scrolling. */
async function expectOnFirstScreen(locator: Locator, width: number, what: string): Promise<void> {
  const box = await locator.boundingBox();
  expect(box, what).not.toBeNull();
  if (box === null) return;
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.y, `${what}: top edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right edge`).toBeLessThanOrEqual(width);
  expect(box.y + box.height, `${what}: bottom edge`).toBeLessThanOrEqual(HEIGHT);
}

/** Fails when the figure is wider than its box (cut or overflowing) or the page scrolls sideways. */
async function expectNothingCut(page: Page, width: number): Promise<void> {
  const figure = page.getByTestId('send-amount');
  const { scroll, client } = await figure.evaluate((element) => ({
    scroll: element.scrollWidth,
    client: element.clientWidth,
  }));
  expect(scroll, 'the amount overflows its box').toBeLessThanOrEqual(client);
  await expectOnFirstScreen(figure, width, 'the amount');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );
}

/** The order's exact amount as the server stored it, as a bare decimal. */
async function storedAmount(id: string): Promise<string> {
  const row = await e2e.server.database.db
    .selectFrom('orders')
    .select('amount_units')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return unitsToDecimal(row.amount_units);
}

describe('the exact amount of a sell', () => {
  it('the send-crypto screen gives the exact amount first, in both languages', async () => {
    const copied: string[] = [];
    for (const [language, width] of COMBINATIONS) {
      await withPhone(e2e.browser, { storedLanguage: language, width }, async (page, dialogs) => {
        const id = await createSell(page, e2e.server.url);
        const words = WORDS[language];
        const figure = page.getByTestId('send-amount');
        await figure.waitFor();
        expect(await page.evaluate(() => window.scrollY)).toBe(0);
        expect(await figure.textContent()).toMatch(words.figure);
        const exact = await figure.getAttribute('data-copy-value');
        expect(exact).toMatch(/^100\.\d{3}[1-9]$/);
        expect(exact).toBe(await storedAmount(id));
        copied.push(exact ?? '');

        const heading = page.getByRole('heading', { name: words.heading, exact: true });
        const note = page.getByTestId('exact-amount-note');
        expect(await note.getAttribute('role')).toBe('note');
        expect(await note.isVisible()).toBe(true);
        expect(await note.textContent()).toMatch(words.note);
        await expectOnFirstScreen(heading, width, 'the heading');
        await expectOnFirstScreen(page.getByTestId('copy-amount'), width, 'the copy button');
        await expectOnFirstScreen(note, width, 'the note');
        await expectNothingCut(page, width);
        // Copy where the seller pastes: the amount and the deposit address, nothing else.
        const offers = page.getByText(words.copy, { exact: true });
        expect(await offers.count()).toBe(2);
        for (const row of ['send-network', 'send-receive']) {
          expect(await page.getByTestId(row).getByText(words.copy).count()).toBe(0);
        }
        expect(await page.getByTestId('deposit-address').getByText(words.copy).count()).toBe(1);
        await screenshot(page, `send-crypto-exact-${language}-light-${width}`);
        expect(dialogs).toEqual([]);
      });
    }
    // Four open sells of 100 USDT, four different amounts: each names one order.
    expect(new Set(copied).size).toBe(COMBINATIONS.length);
  }, 120_000);

  it.each(['ru', 'en'] as const)(
    '(%s) 100 000.0437 USDT fits on one line of a 360 px phone, uncut',
    async (language) => {
      const now = Date.now();
      const id = await insertOrder(e2e.server.database.db, DEMO_CUSTOMER, {
        status: 'WAITING_CRYPTO',
        type: 'SELL',
        amount_units: 100_000_043_700,
        total_minor: 950_000_400,
        rate_units: 95_000_000,
        wallet_address: null,
        requisites: JSON.stringify({ walletAddress: DEMO_DEPOSIT_ADDRESSES.trc20 }),
        requisites_ready_at: now,
        expires_at: now + 30 * 60_000,
      });
      await withPhone(e2e.browser, { storedLanguage: language, width: 360 }, async (page) => {
        await page.goto(`${e2e.server.url}/order/${id}/send-crypto`);
        await onScreen(page, 'send-crypto');
        const figure = page.getByTestId('send-amount');
        await figure.waitFor();
        expect((await figure.textContent())?.replace(/\s/g, ' ')).toBe(
          language === 'en' ? '100,000.0437 USDT' : '100 000,0437 USDT',
        );
        expect(await figure.getAttribute('data-copy-value')).toBe('100000.0437');
        const { height } = (await figure.boundingBox()) ?? { height: Infinity };
        const lineHeight = await figure.evaluate((element) =>
          parseFloat(getComputedStyle(element).lineHeight),
        );
        expect(height, 'the amount wraps').toBeLessThan(lineHeight * 1.5);
        await expectNothingCut(page, 360);
        await screenshot(page, `send-crypto-exact-large-${language}-light-360`);
      });
    },
  );
});
