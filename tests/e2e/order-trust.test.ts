/**
 * What lets a customer trust the app, in Chromium against the real server: the sell deadline on
 * send-crypto as a countdown, and once it passes the notice not to send, the sweeper's cancel told
 * with its reason and what to do about money; the details of a rejected order read the catalogue
 * reason with support first; hashes open on the block explorer; the history sets apart what waits
 * for the customer; a customer at the active-order limit reaches the open orders in one tap. Both
 * languages; screenshots at 390 and 360 px.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR, OperatorClient } from '../helpers/operator';
import { onScreen, screenshot, startServer, useBrowserAndServer, withPhone } from './harness';
import { createP2pBuy, createSell, recordOpenedLinks } from './journeys';

let operator: OperatorClient;

const e2e = useBrowserAndServer({ operatorIds: [OPERATOR.id], maxActiveOrders: 50 });
beforeAll(() => {
  operator = new OperatorClient(e2e.server.app);
});

const TRON_HASH = 'c0ffee'.repeat(10) + 'c0ff';
const plain = (s: string | null) => (s ?? '').replace(/\s/g, ' ');

describe('the sell deadline', () => {
  it.each([
    ['en', 390],
    ['ru', 360],
  ] as const)(
    'send-crypto counts it down; once it passes, a notice not to send, then the sweeper cancel is told (%s, %i px)',
    async (language, width) => {
      await withPhone(e2e.browser, { storedLanguage: language, width }, async (page, dialogs) => {
        const id = await createSell(page, e2e.server.url);
        const banner = page.getByTestId('countdown');
        await expect
          .poll(async () => plain(await banner.textContent()))
          .toMatch(
            language === 'en'
              ? /^Time left: (30:00|29:5\d)When the time runs out the order is cancelled\. Do not send crypto after that\.$/
              : /^Осталось времени: (30:00|29:5\d)Когда время выйдет, заказ отменится\. Не отправляйте криптовалюту после этого\.$/,
          );
        await screenshot(page, `send-crypto-countdown-${language}-light-${width}`);

        // Whether the notice ever shows, however soon the sweeper's cancel follows it.
        await page.evaluate(() => {
          new MutationObserver(() => {
            if (document.querySelector('[data-testid="time-up"]') === null) return;
            const sendsStill = document.querySelector('[data-testid="deposit-address"]') !== null;
            document.documentElement.dataset['sawTimeUp'] = sendsStill ? 'with-address' : 'alone';
          }).observe(document.body, { childList: true, subtree: true });
        });
        // As if 29 min 52 s had passed: 8 s are left.
        await e2e.server.database.db
          .updateTable('orders')
          .set({ expires_at: Date.now() + 8_000 })
          .where('id', '=', id)
          .execute();
        await onScreen(page, 'my-orders');
        // The notice showed, without the address, until the sweeper's cancel reached the screen
        // (the gallery photographs it).
        expect(await page.evaluate(() => document.documentElement.dataset['sawTimeUp'])).toBe(
          'alone',
        );
        const number = id.slice(0, 8);
        expect(dialogs).toEqual([
          language === 'en'
            ? `Time for order #${number} ran out, so it was cancelled.\nDo not send crypto for this order. If you already sent it, contact support with the transaction hash: we return it to the address it came from.`
            : `Время по заказу №${number} истекло, заказ отменён.\nНе отправляйте криптовалюту по этому заказу. Если вы уже отправили, напишите в поддержку с хешем транзакции: мы вернём её на адрес отправителя.`,
        ]);
        const row = await e2e.server.database.db
          .selectFrom('orders')
          .select(['status', 'cancel_reason'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(row).toEqual({ status: 'CANCELLED', cancel_reason: 'expired' });
      });
    },
  );
});

describe('an order that ended', () => {
  it.each([
    ['ru', 390],
    ['en', 360],
  ] as const)(
    'rejected: the details read the catalogue reason, say what happens to the money, support first (%s, %i px)',
    async (language, width) => {
      await withPhone(e2e.browser, { storedLanguage: language, width }, async (page) => {
        const id = await createP2pBuy(page, e2e.server.url);
        await operator.giveCard(id);
        await onScreen(page, 'payment');
        await operator.reject(id, undefined, 'payment_not_received');
        await onScreen(page, 'landing');
        await page.goto(`${e2e.server.url}/order/${id}/details`);
        await onScreen(page, 'details');
        await page
          .getByTestId('reject-reason')
          .getByText(language === 'ru' ? 'Оплата не поступила' : 'The payment did not arrive')
          .waitFor();
        const note = page.getByTestId('money-note');
        expect(await note.textContent()).toContain(
          language === 'ru' ? 'Не оплачивайте этот заказ' : 'Do not pay for this order',
        );
        // Support comes before the order's fields, and above the fold.
        const support = await page.getByTestId('order-support').boundingBox();
        const status = await page.getByTestId('detail-status').boundingBox();
        expect(support !== null && status !== null && support.y < status.y).toBe(true);
        expect((support?.y ?? 1e9) + (support?.height ?? 0)).toBeLessThan(844);
        await screenshot(page, `details-rejected-${language}-light-${width}`);
      });
    },
  );

  it('a completed sell: past tense, and both hashes open on the block explorer (en)', async () => {
    await withPhone(e2e.browser, { storedLanguage: 'en' }, async (page) => {
      const id = await createSell(page, e2e.server.url);
      await page.locator('input[name="txHash"]').fill(TRON_HASH);
      await page.getByTestId('submit-tx').click();
      await onScreen(page, 'sell-waiting');
      await operator.confirmTx(id);
      await operator.complete(id);
      await onScreen(page, 'complete');
      await page.goto(`${e2e.server.url}/order/${id}/details`);
      await onScreen(page, 'details');
      await page.getByTestId('pay-amount').getByText('You sent').waitFor();
      await page.getByTestId('get-amount').getByText('You received').waitFor();
      const opened = await recordOpenedLinks(page);
      await page.getByTestId('incoming-tx-explorer').click();
      expect(await opened()).toBe(`https://tronscan.org/#/transaction/${TRON_HASH}`);
      await screenshot(page, 'details-completed-sell-en-light');
    });
  });
});

describe('the history', () => {
  it.each([
    ['ru', 360],
    ['en', 390],
  ] as const)(
    'sets apart the orders that wait for their customer (%s, %i px)',
    async (language, width) => {
      await withPhone(e2e.browser, { storedLanguage: language, width }, async (page) => {
        const sell = await createSell(page, e2e.server.url);
        const buy = await createP2pBuy(page, e2e.server.url);
        await page.goto(`${e2e.server.url}/my-orders`);
        await onScreen(page, 'my-orders');
        const sellCard = page.locator(`[data-order-id="${sell}"]`);
        await sellCard.waitFor();
        expect(await sellCard.getAttribute('data-your-turn')).toBe('true');
        expect(await sellCard.getByTestId('card-action').textContent()).toBe(
          language === 'ru' ? 'Отправьте криптовалюту' : 'Send the crypto',
        );
        expect(
          await page.locator(`[data-order-id="${buy}"]`).getAttribute('data-your-turn'),
        ).toBeNull();
        await screenshot(page, `my-orders-your-turn-${language}-light-${width}`);
      });
    },
  );
});

describe('at the active-order limit', () => {
  it.each([
    ['en', 390],
    ['ru', 360],
  ] as const)(
    'the form shows the open orders and one tap opens one (%s, %i px)',
    async (language, width) => {
      const limited = await startServer({ maxActiveOrders: 1 });
      try {
        await withPhone(e2e.browser, { storedLanguage: language, width }, async (page, dialogs) => {
          const first = await createP2pBuy(page, limited.url);
          await page.goto(`${limited.url}/currencies`);
          await page.locator('[data-currency="RUB"]').click();
          await page.locator('[data-method="p2p"]').click();
          await page.locator('[data-direction="buy"]').click();
          await onScreen(page, 'p2p-buy');
          await expect.poll(() => page.getByTestId('rate').textContent()).toMatch(/1 USDC = /);
          await page.locator('input[name="fiatAmount"]').fill('20000');
          await page
            .locator('input[name="walletAddress"]')
            .fill('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
          await page.getByTestId('continue').click();
          const panel = page.getByTestId('open-orders');
          await panel.waitFor();
          expect(await panel.textContent()).toContain(
            language === 'en' ? 'Too many active orders' : 'Слишком много активных заказов',
          );
          await screenshot(page, `open-orders-${language}-light-${width}`);
          expect(dialogs).toEqual([]);
          await panel.locator(`[data-order-id="${first}"]`).click();
          await onScreen(page, 'waiting');
          expect(new URL(page.url()).pathname).toBe(`/order/${first}/waiting`);
        });
      } finally {
        await limited.close();
      }
    },
  );
});
