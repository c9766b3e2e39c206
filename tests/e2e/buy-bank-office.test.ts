/**
 * The bank-transfer and office-cash buy journeys in Chromium
 * against the real server, with an operator acting through the operator API.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR, OperatorClient } from '../helpers/operator';
import { onScreen, screenshot, useBrowserAndServer, withPhone, type PhoneOptions } from './harness';

let operator: OperatorClient;

const e2e = useBrowserAndServer({ operatorIds: [OPERATOR.id], maxActiveOrders: 50 });
beforeAll(() => {
  operator = new OperatorClient(e2e.server.app);
});

const EVM_WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF');

/**
 * A phone on which no alert may appear: every step of these journeys succeeds. The only dialogs
 * are the confirmations of 'I have paid' and 'I received', each named here.
 */
async function withPhoneNoAlerts(
  options: PhoneOptions,
  body: (page: Page) => Promise<void>,
  confirmations: readonly RegExp[] = [],
) {
  await withPhone(e2e.browser, options, async (page, dialogs) => {
    await body(page);
    expect(dialogs).toHaveLength(confirmations.length);
    dialogs.forEach((dialog, i) => expect(text(dialog)).toMatch(confirmations[i] ?? /^$/));
  });
}

const orderIdOf = (page: Page) => /\/order\/([0-9a-f-]{36})\//.exec(page.url())?.[1] ?? '';
const text = (s: string | null) => (s ?? '').replace(/\s/g, ' ');

async function openMethod(page: Page, currency: string, method: string) {
  await page.goto(`${e2e.server.url}/currencies`);
  await page.locator(`[data-currency="${currency}"]`).click();
  await onScreen(page, `${currency.toLowerCase()}-method`);
  await page.locator(`[data-method="${method}"]`).click();
}

/** Where the rouble sign stands in an amount: before the digits (en) or after them (ru). */
const signSide = (amount: string) => (/₽\s?\d/.test(amount) ? 'before' : 'after');

describe('bank-transfer buy', () => {
  it.each([
    ['ru', 'Перевод по реквизитам, от 500 000 ₽', 'Минимальная сумма 500 000 ₽'],
    ['en', 'Bank transfer, from ₽500,000', 'Minimum amount ₽500,000'],
  ] as const)(
    '(%s) names its minimum as the rate beside it is written: "%s", "%s"',
    async (language, description, hint) => {
      for (const width of [390, 360]) {
        await withPhoneNoAlerts({ storedLanguage: language, width }, async (page) => {
          await page.goto(`${e2e.server.url}/currencies`);
          await page.locator('[data-currency="RUB"]').click();
          await onScreen(page, 'rub-method');
          expect(text(await page.locator('[data-method="bankAccount"]').textContent())).toContain(
            description,
          );
          await page.locator('[data-method="bankAccount"]').click();
          await onScreen(page, 'bank-account');
          await expect.poll(() => page.getByTestId('rate').textContent()).toMatch(/₽/);
          const rate = text(await page.getByTestId('rate').textContent());
          expect(text(await page.getByTestId('min-hint').textContent())).toBe(hint);
          expect(signSide(hint)).toBe(signSide(rate));
          await screenshot(page, `bank-account-min-hint-${language}-light-${width}`);
        });
      }
    },
  );

  it('takes digits only, says the minimum inline, and goes to COMPLETED with an operator', async () => {
    await withPhoneNoAlerts(
      { storedLanguage: 'ru' },
      async (page) => {
        await openMethod(page, 'RUB', 'bankAccount');
        await onScreen(page, 'bank-account');
        await expect
          .poll(() => page.getByTestId('rate').textContent())
          .toMatch(/1 USDC = (₽[\d,.]+|[\d\s,]+\s₽)/);
        const amount = page.locator('input[name="fiatAmount"]');
        await amount.pressSequentially('49999.9');
        expect(await amount.inputValue()).toBe('499999');
        await page.locator('input[name="walletAddress"]').fill(EVM_WALLET);
        await page.getByTestId('continue').click();
        await expect
          .poll(async () => text(await page.getByTestId('fiat-error').textContent()))
          .toBe('Минимальная сумма 500 000 ₽');
        await screenshot(page, 'bank-account-min-error-ru-light');

        // Above the maximum is not taken at all.
        await amount.fill('');
        await amount.pressSequentially('10000001');
        expect(await amount.inputValue()).toBe('1000000');
        await amount.fill('600000');
        await expect
          .poll(() => page.locator('input[name="cryptoAmount"]').inputValue())
          .toMatch(/^\d+(\.\d{1,4})?$/);
        await screenshot(page, 'bank-account-form-ru-light');
        await page.getByTestId('continue').click();

        await onScreen(page, 'bank-requisites');
        const id = orderIdOf(page);
        // Until an operator gives the details: waiting, with the usual time and the deadline.
        await page
          .getByTestId('requisites-waiting')
          .getByText('Готовим реквизиты для перевода')
          .waitFor();
        await page
          .getByTestId('auto-cancel')
          .getByText(/отменится через (1:00:00|59:5\d)/)
          .waitFor();
        await screenshot(page, 'bank-requisites-waiting-ru-light');
        await operator.giveBankRequisites(id);
        await page.getByText('40702810938000123456').first().waitFor({ timeout: 10_000 });
        await page
          .getByTestId('countdown')
          .getByText(/Осталось времени: (2:00:00|1:59:5\d)/)
          .waitFor();
        await page.getByText(`Оплата по заказу №${id.slice(0, 8)}`).waitFor();
        await screenshot(page, 'bank-requisites-ru-light');
        await page.getByTestId('copy-all').click();
        await page.getByTestId('copy-all').getByText('Скопировано').waitFor();

        await page.getByTestId('i-have-paid').click();
        await onScreen(page, 'upload-receipt');
        await page
          .getByTestId('receipt-input')
          .setInputFiles({ name: 'платёжка.pdf', mimeType: 'application/pdf', buffer: PDF });
        await page.getByTestId('send-receipt').click();
        await onScreen(page, 'complete');
        await operator.confirmPayment(id);
        await operator.complete(id, `0x${'c'.repeat(64)}`);
        await page.getByText('Заказ выполнен').waitFor({ timeout: 10_000 });
      },
      [/^Подтвердите: вы перевели ровно 600 000 ₽ со счёта на ваше имя/],
    );
  });

  it('shows the bank details in English in the dark theme', async () => {
    await withPhoneNoAlerts({ storedLanguage: 'en', theme: 'dark' }, async (page) => {
      await openMethod(page, 'RUB', 'bankAccount');
      await onScreen(page, 'bank-account');
      await expect.poll(() => page.getByTestId('rate').textContent()).toMatch(/1 USDC =/);
      await page.locator('input[name="fiatAmount"]').fill('750000');
      await page.locator('input[name="walletAddress"]').fill(EVM_WALLET);
      await screenshot(page, 'bank-account-form-en-dark');
      await page.getByTestId('continue').click();
      await onScreen(page, 'bank-requisites');
      await operator.giveBankRequisites(orderIdOf(page));
      await page.getByText('Correspondent account').waitFor({ timeout: 10_000 });
      await screenshot(page, 'bank-requisites-en-dark');
    });
  });
});

describe('office cash buy', () => {
  it.each([
    ['USD', '6000', 'dubai', 'en', 'light'],
    ['RUB', '600000', 'moscow', 'ru', 'dark'],
  ] as const)(
    'in %s goes to COMPLETED through /office-details',
    async (currency, amount, city, language, theme) => {
      await withPhoneNoAlerts(
        { storedLanguage: language, theme },
        async (page) => {
          await openMethod(page, currency, 'office');
          await onScreen(page, 'office-exchange');
          await page.getByTestId('office-warning').waitFor();
          await expect.poll(() => page.getByTestId('rate').textContent()).toMatch(/1 USDC =/);
          await page.locator(`[data-city="${city}"]`).click();
          if (currency === 'USD') {
            // The country under the city for USD and EUR.
            await page
              .locator('[data-city="dubai"]')
              .getByText(/United Arab Emirates|UAE/)
              .waitFor();
          }
          await page.locator('input[name="fiatAmount"]').fill(amount);
          await page.locator('input[name="walletAddress"]').fill(EVM_WALLET);
          await screenshot(page, `office-exchange-${currency.toLowerCase()}-${language}-${theme}`);
          await page.getByTestId('continue').click();

          await onScreen(page, 'office-waiting');
          const id = orderIdOf(page);
          await page.getByTestId('elapsed').waitFor();
          await screenshot(page, `office-waiting-pending-${language}-${theme}`);
          await operator.giveOfficeInstructions(
            id,
            language === 'ru'
              ? 'Приходите с паспортом, назовите код бронирования администратору.'
              : 'Bring your passport and give the reservation code at the desk.',
          );
          await page.getByTestId('instructions').waitFor({ timeout: 10_000 });
          await page
            .getByTestId('countdown')
            .getByText(/(3:00:00|2:59:5\d)/)
            .waitFor();
          await screenshot(page, `office-waiting-ready-${language}-${theme}`);

          await page.getByTestId('open-reservation').click();
          await onScreen(page, 'office-details');
          await expect
            .poll(
              async () =>
                (await page.getByTestId('reservation-code').getAttribute('data-copy-value')) ?? '',
            )
            .toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
          await page.getByTestId('map-link').waitFor();
          await screenshot(page, `office-details-${language}-${theme}`);
          await page.getByTestId('i-received-money').click();
          await onScreen(page, 'complete');
          await page
            .getByText(language === 'ru' ? 'Заказ выполнен' : 'Order completed')
            .waitFor({ timeout: 10_000 });
        },
        [
          /^(Подтвердите, что криптовалюта по заказу №\w{8} пришла|Confirm that the crypto of order #\w{8} arrived)/,
        ],
      );
    },
  );

  it('says the bounds of the currency (AED 20 000 minimum) in both languages', async () => {
    for (const [language, expected] of [
      ['ru', 'Минимальная сумма 20 000 AED'],
      ['en', 'Minimum amount AED 20,000'],
    ] as const) {
      await withPhoneNoAlerts({ storedLanguage: language }, async (page) => {
        await openMethod(page, 'AED', 'office');
        await onScreen(page, 'office-exchange');
        await page.locator('[data-city="dubai"]').click();
        await page.locator('input[name="fiatAmount"]').fill('19999');
        await page.locator('input[name="walletAddress"]').fill(EVM_WALLET);
        await page.getByTestId('continue').click();
        await expect
          .poll(async () => text(await page.getByTestId('fiat-error').textContent()))
          .toBe(expected);
      });
    }
  });

  it('/office-details without navigation state returns to /', async () => {
    await withPhoneNoAlerts({}, async (page) => {
      await page.goto(`${e2e.server.url}/office-details`);
      await onScreen(page, 'landing');
    });
  });
});
