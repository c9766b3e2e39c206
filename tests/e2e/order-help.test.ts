/**
 * Help on the order screens in Chromium against the real server: a P2P buy cancelled
 * from the waiting screen after a confirmation ends on its details showing it cancelled, and the
 * support button of an order screen opens the support chat with the order's number typed.
 * Screenshots at 360 and 390 px.
 */
import { describe, expect, it } from 'vitest';
import { onScreen, screenshot, useBrowserAndServer, withPhone } from './harness';
import { createP2pBuy, recordOpenedLinks } from './journeys';

const e2e = useBrowserAndServer({ maxActiveOrders: 50 });

describe('help on the order screens', () => {
  it.each([390, 360])(
    'a P2P buy cancelled from the waiting screen ends on its details showing it cancelled (ru, %i px)',
    async (width) => {
      await withPhone(e2e.browser, { storedLanguage: 'ru', width }, async (page, dialogs) => {
        await page.goto(`${e2e.server.url}/currencies`);
        await page.locator('[data-currency="RUB"]').click();
        const id = await createP2pBuy(page, e2e.server.url);
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
        const order = await e2e.server.database.db
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
      await withPhone(e2e.browser, { storedLanguage: 'en', width }, async (page, dialogs) => {
        await page.goto(`${e2e.server.url}/currencies`);
        await page.locator('[data-currency="RUB"]').click();
        const id = await createP2pBuy(page, e2e.server.url);
        const support = page.getByTestId('order-support');
        await support.waitFor();
        expect(await support.textContent()).toBe('Contact support');
        await screenshot(page, `waiting-support-en-light-${width}`);
        const openedLink = await recordOpenedLinks(page);
        await support.click();
        const opened = await openedLink();
        const supportUrl = new URL(e2e.server.config.supportUrl);
        expect(opened).toBe(
          `${supportUrl.href}?text=${encodeURIComponent(`Order #${id.slice(0, 8)}: `)}`,
        );
        expect(dialogs).toEqual([]);
      });
    },
  );
});
