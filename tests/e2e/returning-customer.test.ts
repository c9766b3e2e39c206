/**
 * A returning customer repeats an order, in both languages in the browser. The three-tap goal:
 * from the app's opening (a returning customer with no open order opens on the currencies) to a
 * created bank buy with their saved wallet, every tap counted: My orders, the history's "repeat
 * last order", and Continue on the form it fills. The form holds the order's method, coin,
 * network, wallet and amount, quoted again at today's rate. The done screen and a sell's details
 * repeat too; a sell's card, which the order does not carry back, is left for the customer (the
 * saved cards are offered). The history's entry, the filled form and the done screen's button are
 * photographed at 360 and 390 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { walletKey } from '../../src/shared/saved-details';
import { insertOrder } from '../helpers/orders';
import { DEMO_CUSTOMER, onScreen, screenshot, useBrowserAndServer, withPhone } from './harness';
import { orderIdOf, tapCounter, TRON_WALLET } from './journeys';

/** The EIP-55 specification's first mixed-case address, a real-looking EVM wallet. */
const EVM_WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** The goal: from the opening to a created order. */
const MOST_TAPS = 3;
/** The ended order's rate, far from any today's rate, so a form still at it would show. */
const OLD_RATE_UNITS = 50_000_000;

const e2e = useBrowserAndServer();

const WORDS = {
  ru: {
    myOrders: 'Мои заказы',
    repeat: 'Повторить заказ',
    repeatLast: 'Повторить последний заказ',
  },
  en: { myOrders: 'My orders', repeat: 'Repeat order', repeatLast: 'Repeat last order' },
} as const;

/** Every order of the demo customer ends, so the next journey opens on the currencies. */
async function endEveryOrder(): Promise<void> {
  await e2e.server.database.db
    .updateTable('orders')
    .set({ status: 'CANCELLED' })
    .where('user_id', '=', DEMO_CUSTOMER.id)
    .where('status', 'not in', ['COMPLETED', 'CANCELLED', 'REJECTED'])
    .execute();
}

/** A completed bank buy of USDC on Base for 600 000 ₽, paid out to EVM_WALLET, which is saved. */
async function completedBankBuy(): Promise<string> {
  const now = Date.now();
  await e2e.server.database.db
    .insertInto('saved_wallets')
    .values({
      user_id: DEMO_CUSTOMER.id,
      network: 'BASE',
      address: EVM_WALLET,
      address_key: walletKey('BASE', EVM_WALLET),
      label: 'Base',
      created_at: now,
      used_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return insertOrder(e2e.server.database.db, DEMO_CUSTOMER, {
    status: 'COMPLETED',
    payment_method: 'BANK_ACCOUNT',
    crypto_currency: 'USDC',
    network: 'BASE',
    wallet_address: EVM_WALLET,
    amount_units: 12_000_000_000,
    total_minor: 60_000_000,
    rate_units: OLD_RATE_UNITS,
  });
}

/** The form's shown values: what a repeat filled it with. */
async function formValues(page: Page) {
  return {
    fiatAmount: await page.locator('input[name="fiatAmount"]').inputValue(),
    network: await page.locator('select[name="network"]').inputValue(),
    coin: await page.locator('[data-coin][aria-selected="true"]').getAttribute('data-coin'),
  };
}

async function photograph(page: Page, name: string): Promise<void> {
  for (const width of [360, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await screenshot(page, `${name}-${width}`);
  }
}

describe('the three-tap goal: a returning customer buys again with a saved wallet', () => {
  it.each(['ru', 'en'] as const)(
    '%s: from the opening, My orders, repeat last order and Continue create the bank buy at today’s rate',
    async (language) => {
      const words = WORDS[language];
      await endEveryOrder();
      await completedBankBuy();
      await withPhone(e2e.browser, { storedLanguage: language }, async (page) => {
        const { tap, count } = tapCounter();
        await page.goto(`${e2e.server.url}/`);
        await onScreen(page, 'currencies');
        await tap(page.getByRole('button', { name: words.myOrders }));
        await onScreen(page, 'my-orders');
        const repeatLast = page.getByTestId('repeat-last');
        await repeatLast.getByText(words.repeatLast).waitFor();
        await photograph(page, `repeat-last-${language}-light`);
        await tap(repeatLast);

        await onScreen(page, 'bank-account');
        expect(await page.locator('input[name="walletAddress"]').inputValue()).toBe(EVM_WALLET);
        expect(await formValues(page)).toMatchObject({ fiatAmount: '600000', network: 'BASE' });
        // Quoted again: the crypto amount follows today's rate, not the old order's 12 000 USDC.
        await expect.poll(() => page.getByTestId('rate').textContent()).toMatch(/1 USDC = /);
        await expect
          .poll(() => page.locator('input[name="cryptoAmount"]').inputValue())
          .toMatch(/^\d/);
        expect(await page.locator('input[name="cryptoAmount"]').inputValue()).not.toMatch(
          /^12000([.,]0*)?$/,
        );
        await photograph(page, `repeated-bank-form-${language}-light`);
        await tap(page.getByTestId('continue'));

        await onScreen(page, 'bank-requisites');
        const order = await e2e.server.database.db
          .selectFrom('orders')
          .select(['wallet_address', 'network', 'payment_method', 'crypto_currency', 'total_minor'])
          .select('rate_units')
          .where('id', '=', orderIdOf(page))
          .executeTakeFirstOrThrow();
        expect(order).toMatchObject({
          wallet_address: EVM_WALLET,
          network: 'BASE',
          payment_method: 'BANK_ACCOUNT',
          crypto_currency: 'USDC',
          total_minor: 60_000_000,
        });
        expect(order.rate_units).not.toBe(OLD_RATE_UNITS);
        expect(count()).toBeLessThanOrEqual(MOST_TAPS);
      });
      await endEveryOrder();
    },
  );
});

describe('repeating from the done screen and the details', () => {
  it.each(['ru', 'en'] as const)(
    '%s: a completed P2P buy’s done screen repeats it: the P2P buy form with its coin, network, wallet and amount',
    async (language) => {
      const id = await insertOrder(e2e.server.database.db, DEMO_CUSTOMER, {
        status: 'COMPLETED',
        crypto_currency: 'USDT',
        network: 'TRC20',
        wallet_address: TRON_WALLET,
        total_minor: 1_000_000,
        rate_units: OLD_RATE_UNITS,
      });
      await withPhone(e2e.browser, { storedLanguage: language }, async (page) => {
        await page.goto(`${e2e.server.url}/order/${id}/complete`);
        await onScreen(page, 'complete');
        const repeat = page.getByRole('button', { name: WORDS[language].repeat });
        await repeat.waitFor();
        await photograph(page, `complete-repeat-${language}-light`);
        await repeat.click();
        await onScreen(page, 'p2p-buy');
        expect(await formValues(page)).toEqual({
          fiatAmount: '10000',
          network: 'TRC20',
          coin: 'USDT',
        });
        expect(await page.locator('input[name="walletAddress"]').inputValue()).toBe(TRON_WALLET);
      });
    },
  );

  it('a cancelled sell’s details repeat it: the sell form with its coin, network and amount; the card, not carried back, is left to fill', async () => {
    const id = await insertOrder(e2e.server.database.db, DEMO_CUSTOMER, {
      status: 'CANCELLED',
      type: 'SELL',
      crypto_currency: 'USDC',
      network: 'POLYGON',
      amount_units: 250_000_000,
      cancel_reason: 'customer',
    });
    await withPhone(e2e.browser, { storedLanguage: 'en' }, async (page) => {
      await page.goto(`${e2e.server.url}/order/${id}/details`);
      await onScreen(page, 'details');
      await page.getByRole('button', { name: WORDS.en.repeat }).click();
      await onScreen(page, 'p2p-sell');
      expect(await page.locator('input[name="cryptoAmount"]').inputValue()).toBe('250');
      expect(await page.locator('select[name="network"]').inputValue()).toBe('POLYGON');
      expect(
        await page.locator('[data-coin][aria-selected="true"]').getAttribute('data-coin'),
      ).toBe('USDC');
      expect(await page.locator('input[name="cardNumber"]').inputValue()).toBe('');
      // Quoted at today's rate: the roubles follow once the rate is in.
      await expect.poll(() => page.locator('input[name="fiatAmount"]').inputValue()).toMatch(/\d/);
    });
  });

  it('an open order offers no repeat on its details', async () => {
    const id = await insertOrder(e2e.server.database.db, DEMO_CUSTOMER, {
      status: 'WAITING_REQUISITES',
    });
    await withPhone(e2e.browser, { storedLanguage: 'en' }, async (page) => {
      await page.goto(`${e2e.server.url}/order/${id}/details`);
      await onScreen(page, 'details');
      await page.getByTestId('detail-status').waitFor();
      expect(await page.getByTestId('repeat-order').count()).toBe(0);
    });
    await endEveryOrder();
  });
});
