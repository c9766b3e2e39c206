/**
 * Telegram's own buttons and menus, as a Telegram client's bridge records them (the fake client
 * of tests/helpers/telegram-client.ts): on the payment screen the cancel beside 'I have paid' is
 * the secondary button (`web_app_setup_secondary_button`), and its press asks and cancels; the
 * menu's settings entry (`web_app_setup_settings_button`) opens /settings; a buy form holding what
 * the customer typed turns the closing confirmation on (`web_app_setup_closing_behavior`) and off
 * again once emptied or left; the first completed order has the client offer the home screen
 * (`web_app_check_home_screen`, then `web_app_add_to_home_screen`), once. A client of Mini Apps 6.9
 * has none of the secondary button, the settings entry and the home screen: the page keeps its own
 * cancel and settings buttons, and nothing is asked of the home screen; its main button repeats a
 * completed order from the done screen.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { orderNumber } from '../../src/shared/support-link';
import type { FakeTelegramWindow, PostedEvent } from '../helpers/telegram-client';
import { ALICE } from '../helpers/identity';
import { insertOrder } from '../helpers/orders';
import {
  onScreen,
  openInTelegram,
  realBotConfig,
  screenshot,
  useBrowserAndServer,
  type OpenedInTelegram,
  type TelegramLaunchOptions,
} from './harness';

const e2e = useBrowserAndServer(realBotConfig([300_000_009]));

/** A client older than the settings entry (6.10), the secondary button (7.10) and the home screen (8.0). */
const OLD_CLIENT = '6.9';

const WORDS = {
  ru: {
    cancel: 'Отменить заказ',
    cancelConfirm: (id: string) => `Отменить заказ №${orderNumber(id)}? Вернуть его будет нельзя.`,
    settings: 'Настройки',
    repeat: 'Повторить заказ',
  },
  en: {
    cancel: 'Cancel order',
    cancelConfirm: (id: string) => `Cancel order #${orderNumber(id)}? This cannot be undone.`,
    settings: 'Settings',
    repeat: 'Repeat order',
  },
} as const;

type Language = keyof typeof WORDS;

/** The events of `type` the app posted to the client, with their parameters, in order. */
function postedOf(page: Page, type: string): Promise<PostedEvent[]> {
  return page.evaluate(
    (t) =>
      (window as unknown as FakeTelegramWindow).__telegramPostedEvents.filter(
        (event) => event.eventType === t,
      ),
    type,
  );
}

/** The parameters of the last event of `type`, or undefined when none was posted. */
async function lastOf(page: Page, type: string): Promise<Record<string, unknown> | undefined> {
  const events = await postedOf(page, type);
  return events.at(-1)?.eventData as Record<string, unknown> | undefined;
}

/** Sends the app an event as the client does (a button pressed, a popup closed). */
async function emit(page: Page, type: string, data?: unknown): Promise<void> {
  await page.evaluate(
    ([t, d]) => {
      (window as unknown as FakeTelegramWindow).__telegramEmit(t, d);
    },
    [type, data] as const,
  );
}

function open(language: Language, options: TelegramLaunchOptions): Promise<OpenedInTelegram> {
  return openInTelegram(
    e2e.browser,
    e2e.server,
    { ...ALICE, language_code: language },
    { storedLanguage: language, ...options },
  );
}

/** A P2P buy whose card requisites have come: the payment screen's order. */
function orderToPay(): Promise<string> {
  const now = Date.now();
  return insertOrder(e2e.server.database.db, ALICE, {
    status: 'REQUISITES_READY',
    requisites: JSON.stringify({
      bankName: 'Т-Банк',
      cardNumber: '2200700123456781',
      cardHolder: 'IVAN PETROV',
    }),
    requisites_ready_at: now,
    expires_at: now + 30 * 60_000,
  });
}

async function statusOf(id: string): Promise<string> {
  const row = await e2e.server.database.db
    .selectFrom('orders')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.status;
}

/** Taps from the currency list to the P2P buy form. */
async function toP2pBuyForm(page: Page): Promise<void> {
  await onScreen(page, 'currencies');
  await page.locator('[data-currency="RUB"]').click();
  await page.locator('[data-method="p2p"]').click();
  await page.locator('[data-direction="buy"]').click();
  await onScreen(page, 'p2p-buy');
}

describe("Telegram's secondary button", () => {
  it.each(['ru', 'en'] as const)(
    "%s: on the payment screen it is the cancel beside 'I have paid'; its press asks, then cancels the order",
    async (language) => {
      const words = WORDS[language];
      const id = await orderToPay();
      const opened = await open(language, { path: `/order/${id}/payment` });
      const { page } = opened;
      try {
        await onScreen(page, 'payment');
        await expect
          .poll(() => lastOf(page, 'web_app_setup_secondary_button'))
          .toMatchObject({ text: words.cancel, is_visible: true, is_active: true });
        expect(await lastOf(page, 'web_app_setup_main_button')).toMatchObject({
          is_visible: true,
        });
        // The secondary button stands in for the page's own cancel.
        expect(await page.getByTestId('cancel-order').count()).toBe(0);
        for (const width of [360, 390]) {
          await page.setViewportSize({ width, height: 844 });
          await screenshot(page, `telegram-payment-secondary-${language}-${width}`);
        }

        await emit(page, 'secondary_button_pressed');
        await expect
          .poll(() => lastOf(page, 'web_app_open_popup'))
          .toMatchObject({ message: words.cancelConfirm(id) });
        const popup = await lastOf(page, 'web_app_open_popup');
        const buttons = popup?.['buttons'] as { id: string; text: string }[];
        expect(buttons.find((button) => button.id === 'ok')?.text).toBe(words.cancel);
        await emit(page, 'popup_closed', { button_id: 'ok' });
        await onScreen(page, 'details');
        expect(await statusOf(id)).toBe('CANCELLED');
        // Gone with the screen that had it.
        expect(await lastOf(page, 'web_app_setup_secondary_button')).toMatchObject({
          is_visible: false,
        });
      } finally {
        await opened.context.close();
      }
    },
  );

  it('declined in the confirmation, the press leaves the order as it was', async () => {
    const id = await orderToPay();
    const opened = await open('en', { path: `/order/${id}/payment` });
    const { page } = opened;
    try {
      await onScreen(page, 'payment');
      await expect
        .poll(() => lastOf(page, 'web_app_setup_secondary_button'))
        .toMatchObject({ is_visible: true });
      await emit(page, 'secondary_button_pressed');
      await expect.poll(async () => (await postedOf(page, 'web_app_open_popup')).length).toBe(1);
      await emit(page, 'popup_closed', { button_id: 'cancel' });
      await page.waitForTimeout(300);
      expect(await statusOf(id)).toBe('REQUISITES_READY');
      await onScreen(page, 'payment');
    } finally {
      await opened.context.close();
    }
  });
});

describe("the settings entry of Telegram's menu", () => {
  it.each(['ru', 'en'] as const)(
    '%s: is shown from the start, and its press opens the settings screen',
    async (language) => {
      const opened = await open(language, { path: '/currencies' });
      const { page } = opened;
      try {
        await onScreen(page, 'currencies');
        await expect
          .poll(() => lastOf(page, 'web_app_setup_settings_button'))
          .toEqual({ is_visible: true });
        await emit(page, 'settings_button_pressed');
        await onScreen(page, 'settings');
      } finally {
        await opened.context.close();
      }
    },
  );
});

describe("Telegram's closing confirmation", () => {
  it.each(['ru', 'en'] as const)(
    '%s: on while the buy form holds a typed amount or wallet, off once emptied, off when the form is left',
    async (language) => {
      const opened = await open(language, { path: '/currencies' });
      const { page } = opened;
      const confirmation = async () =>
        (await lastOf(page, 'web_app_setup_closing_behavior'))?.['need_confirmation'];
      try {
        await toP2pBuyForm(page);
        // An empty form asks nothing.
        expect(await confirmation()).not.toBe(true);
        const amount = page.locator('input[name="fiatAmount"]');
        await amount.fill('5000');
        await expect.poll(confirmation).toBe(true);
        await amount.fill('');
        await expect.poll(confirmation).toBe(false);
        await page
          .locator('input[name="walletAddress"]')
          .fill('TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL');
        await expect.poll(confirmation).toBe(true);
        await emit(page, 'back_button_pressed');
        await onScreen(page, 'p2p');
        await expect.poll(confirmation).toBe(false);
      } finally {
        await opened.context.close();
      }
    },
  );
});

describe("Telegram's closing confirmation on the sell form", () => {
  it('on once a card number is typed, off again once it is cleared', async () => {
    const opened = await open('en', { path: '/currencies' });
    const { page } = opened;
    const confirmation = async () =>
      (await lastOf(page, 'web_app_setup_closing_behavior'))?.['need_confirmation'];
    try {
      await onScreen(page, 'currencies');
      await page.locator('[data-currency="RUB"]').click();
      await page.locator('[data-method="p2p"]').click();
      await page.locator('[data-direction="sell"]').click();
      await onScreen(page, 'p2p-sell');
      expect(await confirmation()).not.toBe(true);
      const card = page.locator('input[name="cardNumber"]');
      await card.fill('2202200000000001');
      await expect.poll(confirmation).toBe(true);
      await card.fill('');
      await expect.poll(confirmation).toBe(false);
    } finally {
      await opened.context.close();
    }
  });
});

describe('the offer to add the app to the home screen', () => {
  it('after the first completed order the client is asked, and offers it once only', async () => {
    const first = await insertOrder(e2e.server.database.db, ALICE, { status: 'COMPLETED' });
    const second = await insertOrder(e2e.server.database.db, ALICE, { status: 'COMPLETED' });
    const opened = await open('ru', { path: `/order/${first}/complete` });
    const { page } = opened;
    try {
      await onScreen(page, 'complete');
      await expect
        .poll(async () => (await postedOf(page, 'web_app_check_home_screen')).length)
        .toBe(1);
      // The fake client answers 'missed': no shortcut yet, so the prompt is Telegram's to show.
      await expect
        .poll(async () => (await postedOf(page, 'web_app_add_to_home_screen')).length)
        .toBe(1);

      // The next completed order, on the same device: not offered again.
      await page.goto(opened.url(`/order/${second}/details`));
      await onScreen(page, 'details');
      await page.getByTestId('detail-status').waitFor();
      await page.waitForTimeout(300);
      expect(await postedOf(page, 'web_app_check_home_screen')).toEqual([]);
      expect(await postedOf(page, 'web_app_add_to_home_screen')).toEqual([]);
    } finally {
      await opened.context.close();
    }
  });

  it('an order not yet completed offers nothing', async () => {
    const id = await insertOrder(e2e.server.database.db, ALICE, { status: 'RECEIPT_UPLOADED' });
    const opened = await open('en', { path: `/order/${id}/complete` });
    const { page } = opened;
    try {
      await onScreen(page, 'complete');
      await page.waitForTimeout(500);
      expect(await postedOf(page, 'web_app_check_home_screen')).toEqual([]);
    } finally {
      await opened.context.close();
    }
  });
});

/** What a client without them must never be asked for. */
const NEWER_THAN_OLD_CLIENT = [
  'web_app_setup_secondary_button',
  'web_app_setup_settings_button',
  'web_app_check_home_screen',
  'web_app_add_to_home_screen',
];

async function expectNoneNewer(opened: OpenedInTelegram): Promise<void> {
  const posted = await opened.posted();
  expect(posted.filter((event) => NEWER_THAN_OLD_CLIENT.includes(event))).toEqual([]);
}

describe(`a client of Mini Apps ${OLD_CLIENT}`, () => {
  it.each(['ru', 'en'] as const)(
    '%s: no secondary button, settings entry or home screen offer; the page keeps its own cancel and settings buttons',
    async (language) => {
      const words = WORDS[language];
      const id = await orderToPay();
      const done = await insertOrder(e2e.server.database.db, ALICE, { status: 'COMPLETED' });
      const opened = await open(language, { path: `/order/${id}/payment`, version: OLD_CLIENT });
      const { page } = opened;
      try {
        await onScreen(page, 'payment');
        await page.getByRole('button', { name: words.cancel }).waitFor();
        // The primary action is still the main button, which every client has.
        await expect
          .poll(() => lastOf(page, 'web_app_setup_main_button'))
          .toMatchObject({ is_visible: true });
        await expectNoneNewer(opened);
        for (const width of [360, 390]) {
          await page.setViewportSize({ width, height: 844 });
          await screenshot(page, `telegram-payment-old-client-${language}-${width}`);
        }

        await page.goto(opened.url('/currencies'));
        await onScreen(page, 'currencies');
        await page.getByRole('button', { name: words.settings }).waitFor();
        await expectNoneNewer(opened);

        await page.goto(opened.url(`/order/${done}/complete`));
        await onScreen(page, 'complete');
        // Repeating the order is the done screen's primary action: the main button.
        await expect
          .poll(() => lastOf(page, 'web_app_setup_main_button'))
          .toMatchObject({ text: words.repeat, is_visible: true });
        await page.waitForTimeout(300);
        await expectNoneNewer(opened);
        await emit(page, 'main_button_pressed');
        await onScreen(page, 'p2p-buy');
        expect(await page.locator('input[name="walletAddress"]').inputValue()).toBe(
          'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
        );
      } finally {
        await opened.context.close();
      }
    },
  );
});
