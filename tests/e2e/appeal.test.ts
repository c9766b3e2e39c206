/**
 * The appeal in Chromium against the real server in demo mode, where the demo visitor is an
 * operator and their own senior: a customer whose order was rejected (written straight into the
 * database) sends a file to the order's chat, opens an appeal with a reason, their words and
 * that file, and reads "under review" on the order; the console shows the appeal with its
 * evidence and a senior operator refunds it with an outcome text; the customer reads the
 * decision in their language. In Russian and in English; screenshots of the form (first sent
 * without a reason, then filled), the under-review note and the decision at 360 and 390 px
 * (appeal-<what>-<language>-<width>), and
 * of the console's appeal (appeal-console-<language>).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { insertOrder } from '../helpers/orders';
import { DEMO_CUSTOMER, onScreen, openPhone, screenshot, useBrowserAndServer } from './harness';

const e2e = useBrowserAndServer();

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The screen as it is, at 360 and at 390 px. */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [360, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await screenshot(page, `${name}-${width}`);
  }
}

const WORDS = {
  ru: {
    reason: 'Заказ отклонён по ошибке',
    chooseReason: 'Выберите причину',
    text: 'Я оплатил вовремя, чек в чате.',
    outcome: 'Деньги вернули на вашу карту.',
    underReview: 'На рассмотрении',
    decided: 'Старший оператор решил вернуть вам деньги',
  },
  en: {
    reason: 'The order was rejected wrongly',
    chooseReason: 'Choose a reason',
    text: 'I paid in time, the receipt is in the chat.',
    outcome: 'The money went back to your card.',
    underReview: 'Under review',
    decided: 'A senior operator decided to return your money',
  },
} as const;

describe('the appeal', () => {
  it.each(['ru', 'en'] as const)(
    '(%s) a rejected order is appealed with a reason, words and a chat file; the console refunds it; the customer reads the decision',
    async (language) => {
      const words = WORDS[language];
      const id = await insertOrder(e2e.server.database.db, DEMO_CUSTOMER, {
        status: 'REJECTED',
        reject_reason_code: 'payment_not_received',
      });
      const customer = await openPhone(e2e.browser, { storedLanguage: language });
      const operator = await openPhone(e2e.browser, { storedLanguage: 'en' });
      operator.page.on('dialog', (dialog) => void dialog.accept());
      try {
        const { page } = customer;
        // A file in the order's chat first: the appeal names it.
        await page.goto(`${e2e.server.url}/order/${id}/chat`);
        await onScreen(page, 'chat');
        await page
          .getByTestId('chat-file-input')
          .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
        await page.getByTestId('chat-picked').waitFor();
        await page.getByTestId('chat-send').click();
        await page.locator('.chat-message').first().waitFor();

        await page.goto(`${e2e.server.url}/order/${id}/details`);
        await onScreen(page, 'details');
        await page.getByTestId('open-appeal').click();
        await onScreen(page, 'appeal');
        // Sent without a reason, the form says so under the reasons and sends nothing.
        await page.getByTestId('appeal-submit').click();
        expect(await page.getByTestId('appeal-reason-error').textContent()).toBe(
          words.chooseReason,
        );
        await shots(page, `appeal-form-no-reason-${language}`);
        await page.locator('[data-reason="rejected_wrongly"]').click();
        await page.getByTestId('appeal-reason-error').waitFor({ state: 'detached' });
        expect(await page.getByLabel(words.reason).isChecked()).toBe(true);
        await page.getByTestId('appeal-text').fill(words.text);
        await page.locator('[data-message]').click();
        expect(await page.getByLabel('receipt.png').isChecked()).toBe(true);
        await shots(page, `appeal-form-${language}`);
        await page.getByTestId('appeal-submit').click();
        await page.getByTestId('appeal-under-review').waitFor();

        await page.goto(`${e2e.server.url}/order/${id}/details`);
        await onScreen(page, 'details');
        const note = page.getByTestId('appeal-under-review');
        expect(await note.textContent()).toContain(words.underReview);
        expect(await page.getByTestId('open-appeal').count()).toBe(0);
        await shots(page, `appeal-under-review-${language}`);

        // The console: the demo visitor is their own senior operator.
        const console = operator.page;
        await console.goto(`${e2e.server.url}/console/orders/${id}`);
        await onScreen(console, 'console-order');
        const appeal = console.getByTestId('console-appeal');
        await appeal.waitFor();
        expect(await console.getByTestId('console-appeal-text').textContent()).toContain(
          words.text,
        );
        await console.getByTestId('console-appeal-evidence').getByRole('link').waitFor();
        await screenshot(console, `appeal-console-${language}`);
        await console.locator('select[name="decision"]').selectOption('refund');
        await console.locator('[name="refundDetails"]').fill('Card 2200 •• 6781, refund 4417');
        await console.locator('[name="outcome"]').fill(words.outcome);
        await console.getByTestId('appeal-decide').click();
        await console.getByTestId('console-appeal-decided').waitFor();
        expect(await console.getByTestId('appeal-decision-form').count()).toBe(0);

        await page.reload();
        await onScreen(page, 'details');
        const decided = page.getByTestId('appeal-decided');
        await decided.waitFor();
        expect(await decided.textContent()).toContain(words.decided);
        expect(await page.getByTestId('appeal-outcome').textContent()).toContain(words.outcome);
        // The decision says what became of the money: no 'contact support' beside it, and the
        // refund's details as the senior wrote them.
        expect(await page.getByTestId('money-note').count()).toBe(0);
        expect(await page.getByTestId('refund-details').textContent()).toContain(
          'Card 2200 •• 6781, refund 4417',
        );
        await shots(page, `appeal-decided-${language}`);
      } finally {
        await customer.context.close();
        await operator.context.close();
      }
    },
  );
});
