/**
 * Saved wallets, the journey of a returning customer, in both languages: after a completed buy the
 * customer saves its wallet; then, from the app's opening, buys again with that wallet: the form
 * offers it first and one tap fills it. Settings lists it, renames it in place and deletes it
 * after a confirmation, and then says plainly that nothing is saved. The form with the saved
 * wallet and settings are photographed at 360 and 390 px, the done screen's offer at 390 px.
 *
 * The taps are counted: from the opening (a returning customer lands on the currencies) to a buy
 * form ready but for its amount, three: the currency, the bank-transfer method, the saved wallet.
 * The amount is typed, and Continue is the fourth.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { insertOrder } from '../helpers/orders';
import { DEMO_CUSTOMER, onScreen, screenshot, useBrowserAndServer, withPhone } from './harness';
import { orderIdOf, tapCounter } from './journeys';

/** The EIP-55 specification's first mixed-case address, a real-looking EVM wallet. */
const EVM_WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** Taps from the opening to a form ready but for its amount: currency, method, saved wallet. */
const TAPS_TO_A_READY_FORM = 3;

const e2e = useBrowserAndServer();

interface Words {
  readonly saveWallet: string;
  readonly proposedLabel: string;
  readonly label: string;
  readonly savedAs: (label: string) => string;
  readonly useWallet: (label: string) => string;
  readonly settings: string;
  readonly rename: (label: string) => string;
  readonly newLabel: (label: string) => string;
  readonly save: string;
  readonly delete: (label: string) => string;
  readonly deleteConfirm: (label: string) => string;
  readonly noWallets: string;
}

const WORDS: Record<'ru' | 'en', Words> = {
  ru: {
    saveWallet: 'Сохранить кошелёк',
    proposedLabel: 'Кошелёк Base',
    label: 'Название',
    savedAs: (label) => `Этот кошелёк сохранён как «${label}».`,
    useWallet: (label) => `Подставить кошелёк «${label}», 0x5aAe…eAed`,
    settings: 'Настройки',
    rename: (label) => `Переименовать «${label}»`,
    newLabel: (label) => `Новое название для «${label}»`,
    save: 'Сохранить',
    delete: (label) => `Удалить «${label}»`,
    deleteConfirm: (label) => `Удалить «${label}»? Вернуть его будет нельзя.`,
    noWallets: 'Сохранённых кошельков нет. Кошелёк можно сохранить после покупки.',
  },
  en: {
    saveWallet: 'Save wallet',
    proposedLabel: 'Base wallet',
    label: 'Name',
    savedAs: (label) => `This wallet is saved as “${label}”.`,
    useWallet: (label) => `Use saved wallet “${label}”, 0x5aAe…eAed`,
    settings: 'Settings',
    rename: (label) => `Rename “${label}”`,
    newLabel: (label) => `New name for “${label}”`,
    save: 'Save',
    delete: (label) => `Delete “${label}”`,
    deleteConfirm: (label) => `Delete “${label}”? This cannot be undone.`,
    noWallets: 'No saved wallets. You can save a wallet after a purchase.',
  },
};

/** The customer's first, completed buy: USDC on Base to EVM_WALLET. */
async function completedBuy(): Promise<string> {
  return insertOrder(e2e.server.database.db, DEMO_CUSTOMER, {
    status: 'COMPLETED',
    crypto_currency: 'USDC',
    network: 'BASE',
    wallet_address: EVM_WALLET,
  });
}

/** Saves the completed buy's wallet from its done screen, under `label`. */
async function saveFromDoneScreen(page: Page, language: 'ru' | 'en', label: string): Promise<void> {
  const words = WORDS[language];
  const id = await completedBuy();
  await page.goto(`${e2e.server.url}/order/${id}/complete`);
  await onScreen(page, 'complete');
  const field = page.getByTestId('save-wallet').getByRole('textbox', { name: words.label });
  await field.waitFor();
  expect(await field.inputValue()).toBe(words.proposedLabel);
  await screenshot(page, `save-wallet-offer-${language}-light`);
  await field.fill(label);
  await page.getByRole('button', { name: words.saveWallet }).click();
  await page.getByTestId('save-wallet-done').getByText(words.savedAs(label)).waitFor();
}

/**
 * From the app's opening to a created bank buy with the saved wallet, counting every tap; the
 * form is photographed with its saved wallet offered.
 */
async function buyWithSavedWallet(
  page: Page,
  language: 'ru' | 'en',
  label: string,
): Promise<number> {
  const { tap, count } = tapCounter();
  await page.goto(`${e2e.server.url}/`);
  await onScreen(page, 'currencies');
  await tap(page.locator('[data-currency="RUB"]'));
  await tap(page.locator('[data-method="bankAccount"]'));
  await onScreen(page, 'bank-account');
  const choice = page.getByRole('button', { name: WORDS[language].useWallet(label) });
  await choice.waitFor();
  for (const width of [360, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await screenshot(page, `saved-wallet-form-${language}-light-${width}`);
  }
  await tap(choice);
  const ready = count();
  expect(await page.locator('input[name="walletAddress"]').inputValue()).toBe(EVM_WALLET);
  await expect.poll(() => page.getByTestId('rate').textContent()).toMatch(/1 USDC = /);
  await page.locator('input[name="fiatAmount"]').fill('600000');
  await tap(page.getByTestId('continue'));
  await onScreen(page, 'bank-requisites');
  const order = await e2e.server.database.db
    .selectFrom('orders')
    .select(['wallet_address', 'network', 'payment_method'])
    .where('id', '=', orderIdOf(page))
    .executeTakeFirstOrThrow();
  expect(order).toEqual({
    wallet_address: EVM_WALLET,
    network: 'BASE',
    payment_method: 'BANK_ACCOUNT',
  });
  // Out of the way of the next journey, which opens on the currencies, not on My orders.
  await e2e.server.database.db
    .updateTable('orders')
    .set({ status: 'CANCELLED' })
    .where('id', '=', orderIdOf(page))
    .execute();
  return ready;
}

/** Settings: renames the wallet in place, then deletes it once the confirmation is accepted. */
async function renameAndDelete(
  page: Page,
  language: 'ru' | 'en',
  label: string,
  dialogs: string[],
): Promise<void> {
  const words = WORDS[language];
  await page.goto(`${e2e.server.url}/currencies`);
  await page.getByRole('button', { name: words.settings }).click();
  await onScreen(page, 'settings');
  await page.getByRole('button', { name: words.rename(label) }).click();
  const renamed = `${label} 2`;
  await page.getByRole('textbox', { name: words.newLabel(label) }).fill(renamed);
  await page.getByRole('button', { name: words.save, exact: true }).click();
  await page.getByTestId('settings-wallets').getByText(renamed, { exact: true }).waitFor();
  for (const width of [360, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await screenshot(page, `settings-${language}-light-${width}`);
  }
  await page.getByRole('button', { name: words.delete(renamed) }).click();
  await page.getByTestId('settings-wallets-empty').getByText(words.noWallets).waitFor();
  expect(dialogs).toContain(words.deleteConfirm(renamed));
  const left = await e2e.server.database.db.selectFrom('saved_wallets').select('id').execute();
  expect(left).toEqual([]);
}

describe('a returning customer buys with a saved wallet', () => {
  it.each([
    ['ru', 'Мой Base'],
    ['en', 'My Base'],
  ] as const)(
    '%s: saved after an order, offered first, a ready form in three taps, renamed and deleted in settings',
    async (language, label) => {
      await withPhone(e2e.browser, { storedLanguage: language }, async (page, dialogs) => {
        await saveFromDoneScreen(page, language, label);
        const taps = await buyWithSavedWallet(page, language, label);
        expect(taps).toBe(TAPS_TO_A_READY_FORM);
        await renameAndDelete(page, language, label, dialogs);
      });
    },
  );
});

describe("a sell's card is saved from any device", () => {
  it.each([
    ['ru', 'Сохранить карту', 'Т-Банк', (label: string) => `Эта карта сохранена как «${label}».`],
    ['en', 'Save card', 'T-Bank', (label: string) => `This card is saved as “${label}”.`],
  ] as const)(
    "%s: a phone that never typed the card saves it, masked, from the sell's done screen, and the sell form then offers it",
    async (language, saveCard, bank, savedAs) => {
      const sell = await insertOrder(e2e.server.database.db, DEMO_CUSTOMER, {
        status: 'COMPLETED',
        type: 'SELL',
        wallet_address: null,
        payout_card: JSON.stringify({
          cardNumber: '2200700123456781',
          cardHolder: 'IVAN PETROV',
          bankName: bank,
        }),
      });
      await withPhone(e2e.browser, { storedLanguage: language }, async (page) => {
        await page.goto(`${e2e.server.url}/order/${sell}/complete`);
        await onScreen(page, 'complete');
        const offer = page.getByTestId('save-card');
        await offer.getByText(`•••• 6781 · ${bank}`).waitFor();
        expect(await offer.textContent()).not.toContain('2200700123456781');
        await offer.getByRole('button', { name: saveCard }).click();
        await page.getByTestId('save-card-done').waitFor();
        expect(await page.getByTestId('save-card-done').textContent()).toContain(
          savedAs(await savedCardLabel()),
        );
        await page.goto(`${e2e.server.url}/currencies`);
        await page.locator('[data-currency="RUB"]').click();
        await page.locator('[data-method="p2p"]').click();
        await page.locator('[data-direction="sell"]').click();
        await onScreen(page, 'p2p-sell');
        await page.locator('[data-saved-choice]').first().click();
        expect(await page.locator('input[name="cardHolder"]').inputValue()).toBe('IVAN PETROV');
        expect(await page.locator('input[name="bankName"]').inputValue()).toBe(bank);
      });
      await e2e.server.database.db.deleteFrom('saved_cards').execute();
    },
  );
});

/** The label the one saved card was kept under (the offer's proposal, in the page's language). */
async function savedCardLabel(): Promise<string> {
  const row = await e2e.server.database.db
    .selectFrom('saved_cards')
    .select('label')
    .executeTakeFirstOrThrow();
  return row.label;
}
