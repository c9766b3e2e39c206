/**
 * The order chat in Chromium against the real server in demo mode, with the autopilot answering
 * a customer's first message once. The demo customer is an operator too: one tab is the
 * customer (in Russian), another the console (in English). They talk about an order with an
 * image, each side's messages told apart by place and name; the chat button's unread count shows
 * on the order screen and clears once the chat is read; the console's list counts the customer's
 * unread messages; a message of emoji, right-to-left script and a 600-character word-less text
 * displays whole at 360 px. Screenshots of the chat at 360 and 390 px, in both languages and
 * both themes (order-chat-<language>-<theme>-<width>).
 */
import { deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { onScreen, openPhone, screenshot, useBrowserAndServer } from './harness';
import { pngChunk } from '../helpers/lifecycle';
import { createP2pBuy } from './journeys';

const e2e = useBrowserAndServer({ maxActiveOrders: 50, demoAutopilot: true });

/** A real 48×48 PNG (a blue square with a lighter band), big enough to see as a thumbnail. */
function squarePng(): Buffer {
  const size = 48;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8;
  header[9] = 2;
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0);
    for (let x = 0; x < size; x++) {
      const band = y > 18 && y < 30;
      rows.push(band ? 180 : 36, band ? 220 : 129, 204);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const PNG = squarePng();
const LONG_WORD = 'Ж'.repeat(600);
const MIXED = `Оплатил 🙂👍🏽🎉 مرحبا، تم الدفع شكرا لكم ${LONG_WORD}`;

async function phone(language: 'ru' | 'en', theme: 'light' | 'dark' = 'light', width = 390) {
  return openPhone(e2e.browser, { storedLanguage: language, theme, width });
}

/** Waits until every image in the chat has loaded its bytes. */
async function imagesLoaded(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLImageElement>('.chat-message__image')].every(
          (image) => image.complete && image.naturalWidth > 0,
        ),
      ),
    )
    .toBe(true);
}

/** Nothing on the page is wider than the screen, and no message is wider than itself. */
async function overflow(page: Page): Promise<{ page: number; messages: number }> {
  return page.evaluate(() => ({
    page: document.documentElement.scrollWidth - window.innerWidth,
    messages: [...document.querySelectorAll<HTMLElement>('.chat-message')].filter(
      (message) =>
        message.scrollWidth > message.clientWidth ||
        message.getBoundingClientRect().right > window.innerWidth,
    ).length,
  }));
}

async function send(page: Page, text: string, file?: Buffer): Promise<void> {
  const before = await page.locator('.chat-message').count();
  await page.getByTestId('chat-field').fill(text);
  if (file !== undefined) {
    await page
      .getByTestId('chat-file-input')
      .setInputFiles({ name: 'чек.png', mimeType: 'image/png', buffer: file });
    await page.getByTestId('chat-picked').waitFor();
  }
  await page.getByTestId('chat-send').click();
  await expect.poll(() => page.locator('.chat-message').count()).toBeGreaterThan(before);
  await expect.poll(() => page.getByTestId('chat-field').inputValue()).toBe('');
}

describe('the order chat', () => {
  it('a customer (ru) and an operator (en) talk about an order with an image; the unread count shows and clears', async () => {
    const customer = await phone('ru');
    const operator = await phone('en');
    try {
      const id = await createP2pBuy(customer.page, e2e.server.url);
      const chatButton = customer.page.getByTestId('order-chat');
      await chatButton.click();
      await onScreen(customer.page, 'chat');
      await expect
        .poll(() => customer.page.getByTestId('verification-code').textContent())
        .toMatch(/^[2-9A-HJ-NP-Z]{6}$/);
      const code = (await customer.page.getByTestId('verification-code').textContent()) ?? '';
      await customer.page
        .getByTestId('chat-notice')
        .getByText('Обменник пишет вам только здесь и в нашем боте', { exact: false })
        .waitFor();

      // An empty message is refused in the customer's language, and nothing is lost.
      await customer.page.getByTestId('chat-field').fill('   ');
      await customer.page.getByTestId('chat-send').click();
      await customer.page
        .getByRole('alert')
        .getByText('Напишите сообщение или прикрепите файл')
        .waitFor();

      await send(customer.page, 'Здравствуйте! Прикладываю чек.', PNG);
      const mine = customer.page.locator('.chat-message--mine').first();
      await mine.getByText('Вы', { exact: true }).waitFor();
      await imagesLoaded(customer.page);

      // The autopilot answers the first message once, as an operator: on the other side, named.
      const answer = customer.page.locator('.chat-message--theirs').first();
      await answer.waitFor({ timeout: 20_000 });
      await answer.getByText('Обменник', { exact: true }).waitFor();
      const sides = await customer.page.evaluate(() => {
        const [a, b] = [...document.querySelectorAll('.chat-message')].map((m) =>
          m.getBoundingClientRect(),
        );
        return { mineRight: a?.right ?? 0, theirsLeft: b?.left ?? 0, width: window.innerWidth };
      });
      expect(sides.mineRight).toBeGreaterThan(sides.width - 40);
      expect(sides.theirsLeft).toBeLessThan(40);

      // The console: the customer's message with its image, and the operator's answer.
      await operator.page.goto(`${e2e.server.url}/console/orders`);
      await onScreen(operator.page, 'console-search');
      await operator.page
        .locator(`[data-console-order="${id}"]`)
        .getByTestId('row-unread')
        .getByText('1 unread in the chat')
        .waitFor({ timeout: 15_000 });
      await operator.page.locator(`[data-console-order="${id}"]`).click();
      await onScreen(operator.page, 'console-order');
      const pane = operator.page.getByTestId('console-chat');
      await pane
        .locator('.chat-message--theirs')
        .getByText('Здравствуйте! Прикладываю чек.')
        .waitFor();
      await pane.locator('.chat-message--theirs').getByText('customer', { exact: true }).waitFor();
      await pane.locator('.chat-message--mine').getByText('demo autopilot').waitFor();
      await imagesLoaded(operator.page);
      await operator.page.getByTestId('order-verification-code').getByText(code).waitFor();

      // The customer leaves the chat; the operator writes; the count shows, then clears on reading.
      await customer.page.getByRole('button', { name: 'Назад' }).click();
      await expect.poll(() => chatButton.getAttribute('data-unread')).toBe('0');
      await send(operator.page, 'Payment received, thank you 👍');
      await screenshot(operator.page, 'order-chat-console-en-light-390');
      await expect
        .poll(() => chatButton.getAttribute('data-unread'), { timeout: 20_000 })
        .toBe('1');
      await customer.page.getByTestId('chat-unread').getByText('1').waitFor();
      await screenshot(customer.page, 'order-chat-button-unread-ru-light-390');
      await chatButton.click();
      await onScreen(customer.page, 'chat');
      await customer.page.getByText('Payment received, thank you 👍').waitFor();
      await customer.page.getByRole('button', { name: 'Назад' }).click();
      await expect.poll(() => chatButton.getAttribute('data-unread')).toBe('0');
      await expect(customer.page.getByTestId('chat-unread').count()).resolves.toBe(0);
    } finally {
      await customer.context.close();
      await operator.context.close();
    }
  });

  it('emoji, right-to-left text and a 600-character word display whole at 360 px; the chat photographed in both languages and themes', async () => {
    const first = await phone('ru', 'light', 360);
    let id: string;
    try {
      id = await createP2pBuy(first.page, e2e.server.url);
      await onScreen(first.page, 'payment');
      await screenshot(first.page, 'order-chat-button-ru-light-360');
      await first.page.getByTestId('order-chat').click();
      await onScreen(first.page, 'chat');
      await send(first.page, 'Добрый день, вот чек', PNG);
      await first.page.locator('.chat-message--theirs').first().waitFor({ timeout: 20_000 });
      await send(first.page, MIXED);
      const long = first.page.locator('.chat-message--mine').last();
      // Whole: every character of it is in the page, none cut off or hidden by an overflow.
      expect(await long.locator('.chat-message__text').textContent()).toBe(MIXED);
      expect(await overflow(first.page)).toEqual({ page: 0, messages: 0 });
    } finally {
      await first.context.close();
    }
    for (const language of ['ru', 'en'] as const) {
      for (const theme of ['light', 'dark'] as const) {
        for (const width of [360, 390]) {
          const { context, page } = await phone(language, theme, width);
          try {
            await page.goto(`${e2e.server.url}/order/${id}/chat`);
            await onScreen(page, 'chat');
            await page
              .locator('.chat-message__text')
              .getByText(LONG_WORD, { exact: false })
              .waitFor();
            await imagesLoaded(page);
            expect(await overflow(page)).toEqual({ page: 0, messages: 0 });
            await screenshot(page, `order-chat-${language}-${theme}-${width}`);
          } finally {
            await context.close();
          }
        }
      }
    }
  });
});
