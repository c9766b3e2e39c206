/**
 * The P2P buy journey in Chromium against the real server, with an
 * operator acting through the operator API: from /rub-method to COMPLETED, the payment timer
 * running out, a rejection, the receipt checks and the min/max messages in both languages.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR, OperatorClient } from '../helpers/operator';
import { onScreen, screenshot, useBrowserAndServer, withPhone } from './harness';

let operator: OperatorClient;

const e2e = useBrowserAndServer({ operatorIds: [OPERATOR.id], maxActiveOrders: 50 });
beforeAll(() => {
  operator = new OperatorClient(e2e.server.app);
});

const TRON_WALLET = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const orderIdOf = (page: Page) => /\/order\/([0-9a-f-]{36})\//.exec(page.url())?.[1] ?? '';

/** From the currency list to a filled P2P buy form. */
async function fillP2pBuy(page: Page, rub: string, wallet = TRON_WALLET) {
  await page.goto(`${e2e.server.url}/currencies`);
  await page.locator('[data-currency="RUB"]').click();
  await onScreen(page, 'rub-method');
  await page.locator('[data-method="p2p"]').click();
  await onScreen(page, 'p2p');
  await page.locator('[data-direction="buy"]').click();
  await onScreen(page, 'p2p-buy');
  await expect
    .poll(() => page.getByTestId('rate').textContent())
    .toMatch(/1 USDC = (₽[\d,.]+|[\d\s,]+\s₽)/);
  await page.locator('[data-coin="USDT"]').click();
  await page.locator('select[name="network"]').selectOption('TRC20');
  await page.locator('input[name="fiatAmount"]').fill(rub);
  await page.locator('input[name="walletAddress"]').fill(wallet);
}

describe('P2P buy', () => {
  it('goes from /rub-method to COMPLETED with an operator (ru, light)', async () => {
    await withPhone(e2e.browser, { storedLanguage: 'ru' }, async (page, seen) => {
      await fillP2pBuy(page, '10000');
      await expect
        .poll(() => page.locator('input[name="cryptoAmount"]').inputValue())
        .toMatch(/^\d+\.\d{1,4}$/);
      await screenshot(page, 'p2p-buy-form-ru-light');
      await page.getByTestId('continue').click();

      await onScreen(page, 'waiting');
      const id = orderIdOf(page);
      expect(id).not.toBe('');
      expect(
        await page.evaluate((k) => localStorage.getItem(k), `waiting_start_${id}`),
      ).not.toBeNull();
      await page
        .getByTestId('elapsed')
        .getByText(/Прошло: 0:0\d/)
        .waitFor();
      await screenshot(page, 'waiting-ru-light');

      await operator.giveCard(id);
      await onScreen(page, 'payment');
      await page.getByTestId('req-card').getByText('2200 7001 2345 6781').waitFor();
      await page
        .getByTestId('countdown')
        .getByText(/Осталось времени: (30:00|29:5\d)/)
        .waitFor();
      expect(await page.evaluate((k) => localStorage.getItem(k), `waiting_start_${id}`)).toBeNull();
      await screenshot(page, 'payment-ru-light');

      await page.getByTestId('i-have-paid').click();
      await onScreen(page, 'upload-receipt');
      await screenshot(page, 'upload-receipt-empty-ru-light');
      await page
        .getByTestId('receipt-input')
        .setInputFiles({ name: 'чек.png', mimeType: 'image/png', buffer: PNG });
      await page.getByTestId('receipt-preview').locator('img').waitFor();
      await screenshot(page, 'upload-receipt-preview-ru-light');
      await page.getByTestId('send-receipt').click();

      await onScreen(page, 'complete');
      await page.getByText('Проверяем чек').first().waitFor();
      await screenshot(page, 'complete-checking-ru-light');

      await operator.confirmPayment(id);
      await page.getByText('Отправляем криптовалюту').first().waitFor();
      const hash = 'b'.repeat(64);
      await operator.complete(id, hash);
      await page.getByText('Заказ выполнен').waitFor({ timeout: 10_000 });
      await page.getByTestId('outgoing-tx').getByText(hash).waitFor();
      await screenshot(page, 'complete-success-ru-light');

      await page.goto(`${e2e.server.url}/order/${id}/details`);
      await onScreen(page, 'details');
      await page.getByTestId('detail-status').getByText('Выполнен').waitFor();
      await screenshot(page, 'details-completed-ru-light');
      // The only dialog: 'I have paid' asked what counts as paid, naming the exact amount.
      expect(seen.map((s) => s.replace(/\s/g, ' '))).toEqual([
        'Подтвердите: вы перевели ровно 10 000 ₽ со счёта на ваше имя, и таймер ещё не истёк. Платежи с чужих счетов и после срока возвращаются.',
      ]);
    });
  });

  it('shows the payment screen in English in the dark theme', async () => {
    await withPhone(e2e.browser, { storedLanguage: 'en', theme: 'dark' }, async (page) => {
      await fillP2pBuy(page, '25000');
      await screenshot(page, 'p2p-buy-form-en-dark');
      await page.getByTestId('continue').click();
      await onScreen(page, 'waiting');
      await screenshot(page, 'waiting-en-dark');
      await operator.giveCard(orderIdOf(page));
      await onScreen(page, 'payment');
      await page.getByText('I have paid').waitFor();
      await screenshot(page, 'payment-en-dark');
    });
  });

  it.each([
    ['ru', '2999', 'Минимальная сумма 3 000 ₽'],
    ['ru', '500001', 'Максимальная сумма 500 000 ₽'],
    ['en', '2999', 'Minimum amount ₽3,000'],
    ['en', '500001', 'Maximum amount ₽500,000'],
  ] as const)('refuses (%s) %s RUB with "%s"', async (language, amount, expected) => {
    await withPhone(e2e.browser, { storedLanguage: language }, async (page, seen) => {
      await fillP2pBuy(page, amount);
      await page.getByTestId('continue').click();
      const normalize = (s: string | null) => (s ?? '').replace(/\s/g, ' ');
      await expect.poll(() => normalize(seen[0] ?? null)).toBe(expected);
      await expect
        .poll(async () => normalize(await page.getByTestId('fiat-error').textContent()))
        .toBe(expected);
      expect(new URL(page.url()).pathname).toBe('/p2p/buy');
      if (amount === '2999') await screenshot(page, `p2p-buy-min-error-${language}-light`);
    });
  });

  it('catches a wallet with a bad checksum before sending', async () => {
    await withPhone(e2e.browser, { storedLanguage: 'en' }, async (page) => {
      await fillP2pBuy(page, '10000', 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeM');
      await page.getByTestId('continue').click();
      await page
        .getByTestId('wallet-error')
        .getByText('Invalid wallet address for TRC20')
        .waitFor();
      expect(new URL(page.url()).pathname).toBe('/p2p/buy');
    });
  });

  it('cancels the order when the payment time runs out and says so', async () => {
    await withPhone(e2e.browser, { storedLanguage: 'en' }, async (page, seen) => {
      await fillP2pBuy(page, '10000');
      await page.getByTestId('continue').click();
      await onScreen(page, 'waiting');
      const id = orderIdOf(page);
      await operator.giveCard(id);
      await onScreen(page, 'payment');
      // The deadline moves to 6 s from now, as if 29 min 54 s had passed.
      await e2e.server.database.db
        .updateTable('orders')
        .set({ expires_at: Date.now() + 6_000 })
        .where('id', '=', id)
        .execute();
      await page.getByText('Less than 5 minutes left').waitFor({ timeout: 10_000 });
      await screenshot(page, 'payment-warning-en-light');
      await expect
        .poll(() => seen, { timeout: 20_000 })
        .toContain('Payment time expired. Order cancelled.');
      await onScreen(page, 'landing');
      const order = await e2e.server.database.db
        .selectFrom('orders')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(order.status).toBe('CANCELLED');
    });
  });

  it('a rejected order alerts on the payment screen and shows its reason in the details', async () => {
    await withPhone(e2e.browser, { storedLanguage: 'ru' }, async (page, seen) => {
      await fillP2pBuy(page, '15000');
      await page.getByTestId('continue').click();
      await onScreen(page, 'waiting');
      const id = orderIdOf(page);
      await operator.giveCard(id);
      await onScreen(page, 'payment');
      await operator.reject(id, 'Отправитель: Петров П. П.', 'third_party_payment');
      await expect
        .poll(() => seen, { timeout: 10_000 })
        .toContain('Заказ отклонён администратором');
      await onScreen(page, 'landing');
      await page.goto(`${e2e.server.url}/order/${id}/details`);
      await onScreen(page, 'details');
      await page
        .getByTestId('reject-reason')
        .getByText('Оплата пришла со счёта другого человека: Отправитель: Петров П. П.')
        .waitFor();
      const note = page.getByTestId('money-note');
      await note.getByText('Не оплачивайте этот заказ').waitFor();
      // The heading on a line of its own: run into the sentence it reads as one broken sentence.
      expect((await note.innerText()).split(/\n+/)).toEqual([
        'Что с деньгами',
        expect.stringMatching(/^Не оплачивайте этот заказ\./),
      ]);
      await screenshot(page, 'details-rejected-ru-light');
      await page.getByRole('button', { name: 'EN', exact: true }).click();
      await note.getByText('Do not pay for this order').waitFor();
      expect((await note.innerText()).split(/\n+/)).toEqual([
        'Your money',
        expect.stringMatching(/^Do not pay for this order\./),
      ]);
      await screenshot(page, 'details-rejected-en-light');
    });
  });

  it('refuses a receipt that is not an image or PDF, or is over 10 MB', async () => {
    await withPhone(e2e.browser, { storedLanguage: 'en' }, async (page, seen) => {
      await fillP2pBuy(page, '12000');
      await page.getByTestId('continue').click();
      await onScreen(page, 'waiting');
      const id = orderIdOf(page);
      await operator.giveCard(id);
      await onScreen(page, 'payment');
      await page.getByTestId('i-have-paid').click();
      await onScreen(page, 'upload-receipt');

      await page.getByTestId('send-receipt').click();
      await expect.poll(() => seen).toContain('Please select a file');
      await page.getByTestId('receipt-input').setInputFiles({
        name: 'statement.docx',
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        buffer: Buffer.from('PK\u0003\u0004'),
      });
      await expect.poll(() => seen).toContain('Please upload an image or PDF file');
      await page.getByTestId('receipt-input').setInputFiles({
        name: 'scan.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 0x25),
      });
      await expect.poll(() => seen).toContain('File is too large. Maximum size: 10MB');
      await page.getByTestId('receipt-input').setInputFiles({
        name: 'receipt.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF'),
      });
      await page.getByTestId('pdf-placeholder').waitFor();
      await screenshot(page, 'upload-receipt-pdf-en-light');
      await page.getByTestId('remove-receipt').click();
      await page.getByText('Choose a file').waitFor();
    });
  });
});
