/**
 * The operator console in Chromium against the real server in demo mode, where the
 * demo customer is an operator too: one tab is the customer, another the console. An operator
 * takes a P2P buy from the queue to COMPLETED while the customer's tab follows; a rejection with
 * a catalogue reason given in English is read by the customer in Russian; two operators on one
 * order: the second is told what happened instead of acting. The console's words (a dictionary
 * namespace) load with the console only, and again after a language switch. Screenshots of the
 * console screens.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_BOT_TOKEN, signInitData } from '../../src/server/platform/identity/telegram-auth';
import { DEMO_CUSTOMER, onScreen, openPhone, screenshot, useBrowserAndServer } from './harness';
import { TRON_WALLET, createP2pBuy, orderIdOf } from './journeys';

const e2e = useBrowserAndServer({ maxActiveOrders: 50 });

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A phone whose dialogs (the console's confirmations) are accepted and recorded. */
async function phone(language: 'ru' | 'en', theme: 'light' | 'dark' = 'light', width = 390) {
  const opened = await openPhone(e2e.browser, { storedLanguage: language, theme, width });
  const dialogs: string[] = [];
  opened.page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  return { ...opened, dialogs };
}

/** The console from its entry on /currencies, then the order from its queue group. */
async function openFromQueue(page: Page, group: string, id: string): Promise<void> {
  await page.goto(`${e2e.server.url}/currencies`);
  await page.getByTestId('console-entry').click();
  await onScreen(page, 'console-queue');
  const row = page.locator(`[data-queue-group="${group}"] [data-console-order="${id}"]`);
  await row.waitFor({ timeout: 15_000 });
  await row.click();
  await onScreen(page, 'console-order');
}

describe('the operator console', () => {
  it('an operator takes a P2P buy from the queue to COMPLETED while the customer follows (en console, ru customer)', async () => {
    const customer = await phone('ru');
    const operator = await phone('en');
    try {
      const id = await createP2pBuy(customer.page, e2e.server.url);
      await openFromQueue(operator.page, 'requisites', id);
      await screenshot(operator.page, 'console-order-requisites-en-light');

      // A card number that fails the Luhn check is refused in the form.
      await operator.page.locator('input[name="cardNumber"]').fill('2200 7001 2345 6780');
      await operator.page.locator('input[name="bankName"]').fill('T-Bank');
      await operator.page.locator('input[name="cardHolder"]').fill('IVAN PETROV');
      await operator.page.getByTestId('give-card').click();
      await operator.page.getByTestId('error-cardNumber').waitFor();
      await operator.page.locator('input[name="cardNumber"]').fill('2200 7001 2345 6781');
      await operator.page.getByTestId('give-card').click();
      await operator.page
        .getByTestId('console-notice')
        .getByText('Done: the order is now “Details ready”')
        .waitFor();

      await onScreen(customer.page, 'payment');
      await customer.page.getByTestId('req-card').getByText('2200 7001 2345 6781').waitFor();
      await customer.page.getByTestId('i-have-paid').click();
      await onScreen(customer.page, 'upload-receipt');
      await customer.page
        .getByTestId('receipt-input')
        .setInputFiles({ name: 'чек.png', mimeType: 'image/png', buffer: PNG });
      await customer.page.getByTestId('send-receipt').click();
      await onScreen(customer.page, 'complete');

      await openFromQueue(operator.page, 'receipts', id);
      await operator.page.locator('.console-receipt__image').waitFor();
      await screenshot(operator.page, 'console-order-receipt-en-light');
      await operator.page.getByTestId('confirm-payment').click();
      await operator.page.getByTestId('complete-form').waitFor();
      await operator.page.locator('input[name="txHash"]').fill('0x' + 'a'.repeat(64));
      await operator.page.getByTestId('complete').click();
      await operator.page.getByTestId('error-txHash').waitFor();
      const hash = 'b'.repeat(64);
      await operator.page.locator('input[name="txHash"]').fill(hash);
      await operator.page.getByTestId('complete').click();
      await expect
        .poll(() => operator.page.getByTestId('console-status').getAttribute('data-status'))
        .toBe('COMPLETED');
      expect(operator.dialogs).toHaveLength(2);
      expect(operator.dialogs[0]).toBe(
        `Did the money of order #${id.slice(0, 8)} (₽10,000) arrive? The customer then gets the crypto.`,
      );
      // The last money action is asked too: what was sent, on which network, to whom.
      expect(operator.dialogs[1]).toMatch(
        new RegExp(
          `^Complete order #${id.slice(0, 8)}\\? You sent [\\d.,]+ USDT on TRC20 to the customer’s wallet ${TRON_WALLET}\\.$`,
        ),
      );
      await customer.page.getByText('Заказ выполнен').waitFor({ timeout: 10_000 });
      await customer.page.getByTestId('outgoing-tx').getByText(hash).waitFor();
      await operator.page
        .getByTestId('console-events')
        .getByText(`operator ${DEMO_CUSTOMER.id}`)
        .first()
        .waitFor();
      await screenshot(operator.page, 'console-order-completed-en-light');
    } finally {
      await customer.context.close();
      await operator.context.close();
    }
  });

  it('a bank buy, an office buy and a sell go from the queue to COMPLETED (ru console, en customer)', async () => {
    const customer = await phone('en');
    const operator = await phone('ru', 'dark');
    const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    const pick = async (currency: string, method: string) => {
      await customer.page.goto(`${e2e.server.url}/currencies`);
      await customer.page.locator(`[data-currency="${currency}"]`).click();
      await customer.page.locator(`[data-method="${method}"]`).click();
    };
    try {
      // Bank: the operator types the account (no default one is configured here).
      await pick('RUB', 'bankAccount');
      await onScreen(customer.page, 'bank-account');
      await expect.poll(() => customer.page.getByTestId('rate').textContent()).toMatch(/1 USDC =/);
      await customer.page.locator('input[name="fiatAmount"]').fill('600000');
      await customer.page.locator('input[name="walletAddress"]').fill(EVM);
      await customer.page.getByTestId('continue').click();
      await onScreen(customer.page, 'bank-requisites');
      const bank = orderIdOf(customer.page);
      await openFromQueue(operator.page, 'requisites', bank);
      const fill = (name: string, value: string) =>
        operator.page.locator(`input[name="${name}"]`).fill(value);
      await fill('recipientName', 'ООО «Криптообмен»');
      await fill('accountNumber', '40702810938000123456');
      await fill('bankName', 'ПАО Сбербанк');
      await fill('bik', '044525225');
      await fill('correspondentAccount', '30101810400000000225');
      await fill('inn', '7707083893');
      await screenshot(operator.page, 'console-order-bank-ru-dark');
      await operator.page.getByTestId('give-bank').click();
      await operator.page.getByTestId('console-notice').waitFor();
      await customer.page.getByText('40702810938000123456').first().waitFor({ timeout: 10_000 });
      await customer.page.getByTestId('i-have-paid').click();
      await onScreen(customer.page, 'upload-receipt');
      await customer.page
        .getByTestId('receipt-input')
        .setInputFiles({ name: 'bank.png', mimeType: 'image/png', buffer: PNG });
      await customer.page.getByTestId('send-receipt').click();
      await onScreen(customer.page, 'complete');
      await openFromQueue(operator.page, 'receipts', bank);
      await operator.page.getByTestId('confirm-payment').click();
      await operator.page.getByTestId('complete-form').waitFor();
      await operator.page.locator('input[name="txHash"]').fill(`0x${'c'.repeat(64)}`);
      await operator.page.getByTestId('complete').click();
      await customer.page.getByText('Order completed').waitFor({ timeout: 10_000 });

      // Office: instructions for an office of the order's city, then the customer's receipt.
      await pick('AED', 'office');
      await onScreen(customer.page, 'office-exchange');
      await expect.poll(() => customer.page.getByTestId('rate').textContent()).toMatch(/1 USDC =/);
      await customer.page.locator('[data-city="dubai"]').click();
      await customer.page.locator('input[name="fiatAmount"]').fill('25000');
      await customer.page.locator('input[name="walletAddress"]').fill(EVM);
      await customer.page.getByTestId('continue').click();
      await onScreen(customer.page, 'office-waiting');
      const office = orderIdOf(customer.page);
      await openFromQueue(operator.page, 'officeInstructions', office);
      await operator.page
        .locator('textarea[name="instructions"]')
        .fill('Bring your passport and give the code at the desk.');
      await screenshot(operator.page, 'console-order-office-ru-dark');
      await operator.page.getByTestId('give-office').click();
      await customer.page.getByTestId('instructions').waitFor({ timeout: 10_000 });
      await customer.page.getByTestId('i-received').click();
      await customer.page.getByText('Order completed').waitFor({ timeout: 10_000 });

      // Sell: the customer's hash, the operator's confirmation of it, then the payout.
      await customer.page.goto(`${e2e.server.url}/currencies`);
      await customer.page.locator('[data-currency="RUB"]').click();
      await customer.page.locator('[data-method="p2p"]').click();
      await customer.page.locator('[data-direction="sell"]').click();
      await onScreen(customer.page, 'p2p-sell');
      await customer.page.locator('[data-coin="USDT"]').click();
      await expect.poll(() => customer.page.getByTestId('rate').textContent()).toMatch(/1 USDT =/);
      await customer.page.locator('select[name="network"]').selectOption('TRC20');
      await customer.page.locator('input[name="cryptoAmount"]').fill('100');
      await customer.page.locator('input[name="cardNumber"]').pressSequentially('2200700123456781');
      await customer.page.locator('input[name="cardHolder"]').fill('ivan petrov');
      await customer.page.locator('input[name="bankName"]').fill('T-Bank');
      await customer.page.getByTestId('continue').click();
      await onScreen(customer.page, 'send-crypto');
      const sell = orderIdOf(customer.page);
      await customer.page.locator('input[name="txHash"]').fill('d'.repeat(64));
      await customer.page.getByTestId('submit-tx').click();
      await onScreen(customer.page, 'sell-waiting');
      await openFromQueue(operator.page, 'transactions', sell);
      await operator.page.getByText('2200700123456781').first().waitFor();
      await operator.page.getByTestId('confirm-tx').click();
      await openFromQueue(operator.page, 'payouts', sell);
      await screenshot(operator.page, 'console-order-payout-ru-dark');
      await operator.page.getByTestId('complete').click();
      await customer.page.getByText('Order completed').waitFor({ timeout: 10_000 });
      // Asked where money moves: the bank payment, the seller's transaction, the card payout.
      expect(operator.dialogs).toHaveLength(4);
      expect(operator.dialogs[0]).toMatch(
        /^Деньги по заказу №\w{8} \(600\s000\s₽\) пришли на счёт\?/,
      );
      expect(operator.dialogs[1]).toMatch(
        new RegExp(
          `^Завершить заказ №${bank.slice(0, 8)}\\? Вы отправили [\\d\\s,]+ USDC в сети [^ ]+ на кошелёк клиента ${EVM}\\.$`,
        ),
      );
      // The sell's exact amount: 100 asked, plus its tag in the 4th decimal.
      expect(operator.dialogs[2]).toMatch(
        /^Транзакция по заказу №\w{8} \(100,\d{3}[1-9] USDT\) подтверждена/,
      );
      expect(operator.dialogs[3]).toMatch(/^Выплата [\d\s]+₽ на карту по заказу №\w{8} сделана\?$/);
    } finally {
      await customer.context.close();
      await operator.context.close();
    }
  });

  it('a rejection with a catalogue reason given in English is read by the customer in Russian', async () => {
    const customer = await phone('ru');
    const operator = await phone('en', 'dark');
    try {
      const id = await createP2pBuy(customer.page, e2e.server.url);
      await openFromQueue(operator.page, 'requisites', id);
      await operator.page.locator('select[name="reasonCode"]').selectOption('limits_or_checks');
      await operator.page.locator('textarea[name="reason"]').fill('KYC: documents needed');
      await screenshot(operator.page, 'console-order-reject-en-dark');
      await operator.page.getByTestId('reject').click();
      await expect
        .poll(() => operator.page.getByTestId('console-status').getAttribute('data-status'))
        .toBe('REJECTED');
      await onScreen(customer.page, 'my-orders');
      await customer.page.goto(`${e2e.server.url}/order/${id}/details`);
      await customer.page
        .getByTestId('reject-reason')
        .getByText('Заказ не прошёл проверку: KYC: documents needed')
        .waitFor();
    } finally {
      await customer.context.close();
      await operator.context.close();
    }
  });

  it('two operators on one order: the second is told what happened instead of acting (ru, 360 px)', async () => {
    const customer = await phone('ru');
    const first = await phone('ru', 'light', 360);
    const second = await phone('ru', 'light', 360);
    try {
      const id = await createP2pBuy(customer.page, e2e.server.url);
      await openFromQueue(first.page, 'requisites', id);
      await openFromQueue(second.page, 'requisites', id);
      await screenshot(second.page, 'console-queue-order-ru-light-360');
      for (const page of [first.page, second.page]) {
        await page.locator('input[name="cardNumber"]').fill('2200 7001 2345 6781');
        await page.locator('input[name="bankName"]').fill('Т-Банк');
        await page.locator('input[name="cardHolder"]').fill('IVAN PETROV');
      }
      await first.page.getByTestId('give-card').click();
      await first.page.getByTestId('console-notice').waitFor();
      await second.page.getByTestId('give-card').click();
      const notice = second.page.getByTestId('console-notice');
      await notice.waitFor();
      expect(await notice.getAttribute('data-kind')).toBe('stale');
      expect(await notice.textContent()).toBe(
        'Другой оператор уже изменил заказ: теперь он «Реквизиты готовы». Данные обновлены.',
      );
      await screenshot(second.page, 'console-order-stale-ru-light-360');
      const events = await e2e.server.database.db
        .selectFrom('order_events')
        .select('to_status')
        .where('order_id', '=', id)
        .execute();
      expect(events.map((e) => e.to_status)).toEqual(['WAITING_REQUISITES', 'REQUISITES_READY']);
    } finally {
      await customer.context.close();
      await first.context.close();
      await second.context.close();
    }
  });

  it('init data an hour old cannot complete: the typed hash stays, the console asks to be reopened in Russian, and the reopened console has the hash and completes', async () => {
    const customer = await phone('ru');
    const operator = await phone('ru');
    try {
      const id = await createP2pBuy(customer.page, e2e.server.url);
      await e2e.server.database.db
        .updateTable('orders')
        .set({ status: 'PAYMENT_CONFIRMED' })
        .where('id', '=', id)
        .execute();
      // This console was opened 61 minutes ago: its demo session is as old.
      const old = signInitData(DEMO_BOT_TOKEN, DEMO_CUSTOMER, {
        authDate: new Date(Date.now() - 61 * 60_000),
      });
      await operator.page.route('**/api/demo/session**', (route) =>
        route.fulfill({ json: { initData: old } }),
      );
      await operator.page.goto(`${e2e.server.url}/console/orders/${id}`);
      await onScreen(operator.page, 'console-order');
      const hash = 'e'.repeat(64);
      await operator.page.locator('input[name="txHash"]').fill(hash);
      await operator.page.getByTestId('complete').click();
      const notice = operator.page.getByTestId('console-notice');
      await notice
        .getByText(
          'Консоль открыта слишком давно для действий с деньгами. Закройте её и откройте заново, затем повторите: введённое сохранится.',
        )
        .waitFor();
      expect(await notice.getAttribute('data-kind')).toBe('reopen');
      await screenshot(operator.page, 'console-order-reopen-ru-light');
      // The order's next poll (reads still take day-old init data) keeps the typed hash.
      await operator.page.waitForTimeout(5_500);
      expect(await operator.page.locator('input[name="txHash"]').inputValue()).toBe(hash);
      expect(operator.dialogs).toHaveLength(1);
      expect(operator.dialogs[0]).toContain(`на кошелёк клиента ${TRON_WALLET}`);

      // Reopened (a new page with a fresh session): the hash is there again, and completes.
      const reopened = await operator.context.newPage();
      reopened.on('dialog', (dialog) => void dialog.accept());
      await reopened.goto(`${e2e.server.url}/console/orders/${id}`);
      await onScreen(reopened, 'console-order');
      expect(await reopened.locator('input[name="txHash"]').inputValue()).toBe(hash);
      await reopened.getByTestId('complete').click();
      await expect
        .poll(() => reopened.getByTestId('console-status').getAttribute('data-status'))
        .toBe('COMPLETED');
      // A final order says when it ended, with no countdown.
      await reopened.getByTestId('console-ended').getByText('Закрыт').waitFor();
      expect(await reopened.getByTestId('console-deadline').count()).toBe(0);
      await screenshot(reopened, 'console-order-closed-ru-light');
    } finally {
      await customer.context.close();
      await operator.context.close();
    }
  });

  it('search finds an order by its number and opens it (ru, 360 px)', async () => {
    const customer = await phone('ru');
    const operator = await phone('ru', 'light', 360);
    try {
      const id = await createP2pBuy(customer.page, e2e.server.url);
      await operator.page.goto(`${e2e.server.url}/console`);
      await operator.page.getByTestId('console-search-entry').click();
      await onScreen(operator.page, 'console-search');
      await operator.page.locator('input[name="q"]').fill(id.slice(0, 8));
      const found = operator.page.locator(`[data-testid="search-results"] [data-console-order]`);
      await expect.poll(() => found.count()).toBe(1);
      await screenshot(operator.page, 'console-search-ru-light-360');
      await found.click();
      await onScreen(operator.page, 'console-order');
      expect(new URL(operator.page.url()).pathname).toBe(`/console/orders/${id}`);
    } finally {
      await customer.context.close();
      await operator.context.close();
    }
  });

  it("a rate change reaches a customer's quote at once; more than 5% is asked twice", async () => {
    const customer = await phone('en');
    const operator = await phone('ru');
    try {
      await customer.page.goto(`${e2e.server.url}/currencies`);
      await customer.page.locator('[data-currency="RUB"]').click();
      await customer.page.locator('[data-method="p2p"]').click();
      await customer.page.locator('[data-direction="buy"]').click();
      await onScreen(customer.page, 'p2p-buy');
      await expect.poll(() => customer.page.getByTestId('rate').textContent()).toMatch(/1 USDC = /);

      await operator.page.goto(`${e2e.server.url}/console`);
      await operator.page.getByTestId('console-rates-entry').click();
      await onScreen(operator.page, 'console-rates');
      const row = operator.page.getByTestId('rate-RUB-USDC');
      await row.locator('input').fill('99');
      await operator.page.getByTestId('rate-RUB-USDC-save').click();
      await row.getByText(`Изменил оператор ${DEMO_CUSTOMER.id}`).waitFor();
      expect(operator.dialogs).toEqual([]);
      // The customer's form asks again as they type: 99 × (1 + 2.5%) = 101.475 ≈ 101.48.
      await customer.page.locator('input[name="fiatAmount"]').fill('5000');
      await expect
        .poll(() => customer.page.getByTestId('rate').textContent(), { timeout: 10_000 })
        .toContain('101.48');

      await operator.page.getByTestId('rate-RUB-USDC').locator('input').fill('120');
      await operator.page.getByTestId('rate-RUB-USDC-save').click();
      await expect.poll(() => operator.dialogs.length).toBe(1);
      await expect
        .poll(async () => {
          const rate = await e2e.server.database.db
            .selectFrom('rates')
            .select('base_rate_units')
            .where('fiat', '=', 'RUB')
            .where('crypto', '=', 'USDC')
            .executeTakeFirstOrThrow();
          return rate.base_rate_units;
        })
        .toBe(120_000_000);
      expect(operator.dialogs[0]?.replace(/\s/g, ' ')).toBe(
        'Курс RUB/USDC меняется с 99 на 120 (+21,2%). Это больше 5%: подтвердите ещё раз.',
      );
      await screenshot(operator.page, 'console-rates-ru-light');
    } finally {
      await customer.context.close();
      await operator.context.close();
    }
  });

  it("the console's words load with it, in the language shown and again after a switch in its header; the customer's screens never load them", async () => {
    const customer = await phone('ru');
    const operator = await phone('ru');
    const wordsLoaded = (page: Page) => {
      const loaded: string[] = [];
      page.on('request', (request) => {
        const words = /\/(\w+)-console-[\w-]+\.js$/.exec(request.url())?.[1];
        if (words !== undefined) loaded.push(words);
      });
      return loaded;
    };
    try {
      const customerWords = wordsLoaded(customer.page);
      await customer.page.goto(`${e2e.server.url}/currencies`);
      await onScreen(customer.page, 'currencies');
      await customer.page.getByTestId('console-entry').getByText('Консоль оператора').waitFor();
      await customer.page.locator('[data-currency="RUB"]').click();
      await onScreen(customer.page, 'rub-method');
      expect(customerWords).toEqual([]);

      const operatorWords = wordsLoaded(operator.page);
      await operator.page.goto(`${e2e.server.url}/console`);
      await onScreen(operator.page, 'console-queue');
      await operator.page.locator('.app-header__title').getByText('Очередь').waitFor();
      expect(operatorWords).toEqual(['ru']);
      await operator.page.getByRole('button', { name: 'EN', exact: true }).click();
      await operator.page.locator('.app-header__title').getByText('Queue').waitFor();
      await operator.page.getByTestId('console-rates-entry').getByText('Rates').waitFor();
      expect(operatorWords).toEqual(['ru', 'en']);
    } finally {
      await customer.context.close();
      await operator.context.close();
    }
  });

  it.each([
    ['ru', 'light', 390],
    ['en', 'dark', 390],
    ['ru', 'dark', 360],
    ['en', 'light', 360],
  ] as const)('the queue and the rates (%s, %s, %i px)', async (language, theme, width) => {
    const operator = await phone(language, theme, width);
    try {
      await operator.page.goto(`${e2e.server.url}/console`);
      await onScreen(operator.page, 'console-queue');
      await operator.page.locator('[data-queue-group="flagged"]').waitFor();
      await screenshot(operator.page, `console-queue-${language}-${theme}-${width}`);
      await operator.page.getByTestId('console-rates-entry').click();
      await onScreen(operator.page, 'console-rates');
      await operator.page.getByTestId('rate-RUB-USDT').waitFor();
      await screenshot(operator.page, `console-rates-${language}-${theme}-${width}`);
    } finally {
      await operator.context.close();
    }
  });
});
