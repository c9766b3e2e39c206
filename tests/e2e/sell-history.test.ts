/**
 * The sell journey, the order history and deep links in Chromium
 * against the real server, with an operator acting through the operator API.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEPOSIT_ADDRESSES } from '../../src/server/platform/config/config';
import { historyCardTarget } from '../../src/shared/order-screens';
import type { OrderStatus, OrderType, PaymentMethod } from '../../src/shared/order-status';
import { OPERATOR, OperatorClient } from '../helpers/operator';
import { insertOrder } from '../helpers/orders';
import {
  DEMO_CUSTOMER,
  onScreen,
  screenshot,
  startServer,
  useBrowserAndServer,
  withPhone,
} from './harness';

let operator: OperatorClient;

const e2e = useBrowserAndServer({ operatorIds: [OPERATOR.id], maxActiveOrders: 50 });
beforeAll(() => {
  operator = new OperatorClient(e2e.server.app);
});

const orderIdOf = (page: Page) => /\/order\/([0-9a-f-]{36})\//.exec(page.url())?.[1] ?? '';
const pathOf = (page: Page) => new URL(page.url()).pathname;

async function fillSell(page: Page, crypto: string) {
  await page.goto(`${e2e.server.url}/currencies`);
  await page.locator('[data-currency="RUB"]').click();
  await page.locator('[data-method="p2p"]').click();
  await onScreen(page, 'p2p');
  await page.locator('[data-direction="sell"]').click();
  await onScreen(page, 'p2p-sell');
  await page.locator('[data-coin="USDT"]').click();
  await expect
    .poll(() => page.getByTestId('rate').textContent())
    .toMatch(/1 USDT = (₽[\d,.]+|[\d\s,]+\s₽)/);
  await page.locator('select[name="network"]').selectOption('TRC20');
  await page.locator('input[name="cryptoAmount"]').fill(crypto);
  await page.locator('input[name="cardNumber"]').pressSequentially('2200700123456781');
  await page.locator('input[name="cardHolder"]').fill('ivan petrov');
  await page.locator('input[name="bankName"]').fill('Т-Банк');
}

describe('P2P sell', () => {
  it('goes from /p2p to COMPLETED with an operator, refusing a hash of the wrong network', async () => {
    await withPhone(e2e.browser, { storedLanguage: 'ru' }, async (page, alerts) => {
      await fillSell(page, '100');
      expect(await page.locator('input[name="cardNumber"]').inputValue()).toBe(
        '2200 7001 2345 6781',
      );
      expect(await page.locator('input[name="cardHolder"]').inputValue()).toBe('IVAN PETROV');
      await expect
        .poll(() => page.locator('input[name="fiatAmount"]').inputValue())
        .toMatch(/^\d+$/);
      await screenshot(page, 'p2p-sell-form-ru-light');
      await page.getByTestId('continue').click();

      await onScreen(page, 'send-crypto');
      const id = orderIdOf(page);
      await page.getByTestId('deposit-address').getByText(DEMO_DEPOSIT_ADDRESSES.trc20).waitFor();
      await page.getByTestId('qr-code').waitFor();
      await page
        .getByTestId('network-warning')
        .getByText(/Отправляйте только USDT в сети TRC20/)
        .waitFor();
      await screenshot(page, 'send-crypto-ru-light');

      await page.locator('input[name="txHash"]').fill(`0x${'a'.repeat(64)}`);
      await page.getByTestId('submit-tx').click();
      await page
        .getByTestId('tx-error')
        .getByText('Неверный хеш транзакции для сети TRC20')
        .waitFor();
      expect(pathOf(page)).toBe(`/order/${id}/send-crypto`);

      await page.locator('input[name="txHash"]').fill(`  ${'a'.repeat(64)}  `);
      await page.getByTestId('submit-tx').click();
      await onScreen(page, 'sell-waiting');
      await page.getByTestId('tx-hash').getByText('a'.repeat(64)).waitFor();
      await screenshot(page, 'sell-waiting-ru-light');

      await operator.confirmTx(id);
      await page.getByText('Отправляем средства').first().waitFor({ timeout: 10_000 });
      await operator.complete(id);
      await onScreen(page, 'complete');
      await page.getByText('Заказ выполнен').waitFor({ timeout: 10_000 });
      await screenshot(page, 'sell-complete-ru-light');
      expect(alerts).toEqual([]);
    });
  });

  it('is cancelled from send-crypto after a confirmation (en, dark)', async () => {
    await withPhone(e2e.browser, { storedLanguage: 'en', theme: 'dark' }, async (page, alerts) => {
      await fillSell(page, '50');
      await screenshot(page, 'p2p-sell-form-en-dark');
      await page.getByTestId('continue').click();
      await onScreen(page, 'send-crypto');
      const id = orderIdOf(page);
      await screenshot(page, 'send-crypto-en-dark');
      await page.getByTestId('cancel-order').click();
      await onScreen(page, 'details');
      expect(new URL(page.url()).pathname).toBe(`/order/${id}/details`);
      expect(alerts).toEqual([`Cancel order #${id.slice(0, 8)}? This cannot be undone.`]);
      const order = await e2e.server.database.db
        .selectFrom('orders')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(order.status).toBe('CANCELLED');
    });
  });

  it.each([
    ['ru', 'Минимальная сумма 3 000 ₽'],
    ['en', 'Minimum amount ₽3,000'],
  ] as const)('(%s) refuses a total under 3 000 RUB with "%s"', async (language, expected) => {
    await withPhone(e2e.browser, { storedLanguage: language }, async (page, alerts) => {
      await fillSell(page, '20');
      await page.getByTestId('continue').click();
      await expect.poll(() => alerts.map((a) => a.replace(/\s/g, ' '))).toContain(expected);
      expect(pathOf(page)).toBe('/p2p/sell');
    });
  });
});

describe('order history', () => {
  const rows: readonly [OrderStatus, OrderType, PaymentMethod][] = [
    ['WAITING_REQUISITES', 'BUY', 'P2P'],
    ['OFFICE_PENDING', 'BUY', 'OFFICE'],
    ['OFFICE_READY', 'BUY', 'OFFICE'],
    ['REQUISITES_READY', 'BUY', 'BANK_ACCOUNT'],
    ['REQUISITES_READY', 'BUY', 'OFFICE'],
    ['REQUISITES_READY', 'BUY', 'P2P'],
    ['PAYMENT_PENDING', 'BUY', 'P2P'],
    ['PAYMENT_STARTED', 'BUY', 'BANK_ACCOUNT'],
    ['RECEIPT_UPLOADED', 'BUY', 'P2P'],
    ['PAYMENT_CONFIRMED', 'BUY', 'BANK_ACCOUNT'],
    ['WAITING_CRYPTO', 'SELL', 'P2P'],
    ['TX_PENDING', 'SELL', 'P2P'],
    ['TX_CONFIRMED', 'SELL', 'P2P'],
    ['COMPLETED', 'SELL', 'P2P'],
    ['CANCELLED', 'BUY', 'BANK_ACCOUNT'],
    ['REJECTED', 'BUY', 'OFFICE'],
  ];

  it('pages, filters and opens every card at its table target', async () => {
    const s = await startServer();
    try {
      const now = Date.now();
      const day = 86_400_000;
      const ids: { id: string; target: string }[] = [];
      for (const [i, [status, type, method]] of rows.entries()) {
        const id = await insertOrder(s.database.db, DEMO_CUSTOMER, {
          status,
          type,
          payment_method: method,
          city_id: method === 'OFFICE' ? 'moscow' : null,
          created_at: now - i * 60_000,
        });
        ids.push({ id, target: historyCardTarget({ status, type, paymentMethod: method }) });
      }
      // Older orders: yesterday and last week, enough for a second page.
      for (let i = 0; i < 10; i++) {
        await insertOrder(s.database.db, DEMO_CUSTOMER, {
          status: i % 2 === 0 ? 'COMPLETED' : 'CANCELLED',
          created_at: now - (i < 5 ? day : 7 * day) - i * 60_000,
        });
      }

      await withPhone(e2e.browser, { storedLanguage: 'ru' }, async (page) => {
        // The phone's day is the day the orders were made in, even when midnight passes meanwhile.
        await page.clock.setFixedTime(now);
        await page.goto(`${s.url}/my-orders`);
        await onScreen(page, 'my-orders');
        await page.locator('[data-order-id]').first().waitFor();
        expect(await page.locator('[data-order-id]').count()).toBe(20);
        await page.getByText('Сегодня', { exact: true }).waitFor();
        await screenshot(page, 'my-orders-all-ru-light');
        await page.getByTestId('load-more').click();
        await expect.poll(() => page.locator('[data-order-id]').count()).toBe(26);
        await page.getByText('Вчера').waitFor();
        expect(await page.getByTestId('load-more').count()).toBe(0);

        await page.locator('[data-tab="active"]').click();
        await expect.poll(() => page.locator('[data-order-id]').count()).toBe(13);
        await screenshot(page, 'my-orders-active-ru-light');
        await page.locator('[data-tab="completed"]').click();
        await expect.poll(() => page.locator('[data-order-id]').count()).toBe(13);
        expect(await page.locator('[data-status="WAITING_REQUISITES"]').count()).toBe(0);

        await page.getByRole('button', { name: 'EN', exact: true }).click();
        await page.getByText('Completed', { exact: true }).first().waitFor();
        await expect.poll(() => page.locator('[data-order-id]').count()).toBe(13);
        await screenshot(page, 'my-orders-completed-en-light');

        for (const { id, target } of ids) {
          await page.goto(`${s.url}/my-orders`);
          await page.locator(`[data-order-id="${id}"]`).click();
          await page.waitForURL((url) => url.pathname.startsWith(`/order/${id}/`));
          expect(pathOf(page)).toBe(`/order/${id}/${target}`);
        }
      });
    } finally {
      await s.close();
    }
  });

  it('an empty history says so for each tab', async () => {
    const s = await startServer();
    try {
      await withPhone(e2e.browser, { storedLanguage: 'en' }, async (page) => {
        await page.goto(`${s.url}/my-orders`);
        await page.getByText('You have no orders yet').waitFor();
        await page.locator('[data-tab="active"]').click();
        await page.getByText('No active orders').waitFor();
        await page.locator('[data-tab="completed"]').click();
        await page.getByText('No completed orders').waitFor();
        await screenshot(page, 'my-orders-empty-en-light');
      });
    } finally {
      await s.close();
    }
  });

  it.each([
    ['en', 'Order #', 'Order not found', 'My orders'],
    ['ru', 'Заказ №', 'Заказ не найден', 'Мои заказы'],
  ] as const)(
    "(%s) a link to someone else's order is titled '%s…' and says '%s', on the deep link and on an order screen",
    async (language, title, notFound, myOrders) => {
      const s = await startServer();
      try {
        const foreign = await insertOrder(
          s.database.db,
          { id: 555_000_555, first_name: 'Other' },
          { status: 'WAITING_REQUISITES' },
        );
        const titleOf = async (page: Page) =>
          (await page.locator('.app-header__title').textContent()) ?? '';
        for (const width of [390, 360]) {
          await withPhone(e2e.browser, { storedLanguage: language, width }, async (page) => {
            await page.goto(`${s.url}/?startapp=order_${foreign}`);
            await onScreen(page, 'my-orders');
            await page.getByText(notFound).waitFor();
            expect(await titleOf(page)).toBe(`${title}${foreign.slice(0, 8)}`);
            expect(await titleOf(page)).not.toBe(myOrders);
            await screenshot(page, `deep-link-not-found-${language}-light-${width}`);

            await page.goto(`${s.url}/order/${foreign}/waiting`);
            await onScreen(page, 'waiting');
            await page.getByText(notFound).waitFor();
            expect(await titleOf(page)).toBe(`${title}${foreign.slice(0, 8)}`);
            await page.getByRole('button', { name: myOrders }).click();
            await onScreen(page, 'my-orders');
          });
        }
      } finally {
        await s.close();
      }
    },
  );
});
