/**
 * The entry journeys in real Chromium against the real
 * server: landing, language, currencies, method screens, logout, the currency guard, health,
 * and the deep-link and active-orders redirects of the landing's second reading.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { API_PATHS } from '../../src/shared/api';
import { LISTED_CURRENCIES, methodsFor } from '../../src/shared/currencies';
import { insertOrder } from '../helpers/orders';
import {
  DEMO_CUSTOMER,
  onScreen,
  screenshot,
  startServer,
  useBrowserAndServer,
  withPhone,
} from './harness';

const e2e = useBrowserAndServer();

const pathOf = (page: Page) => new URL(page.url()).pathname;
const stored = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);
const session = (page: Page, key: string) => page.evaluate((k) => sessionStorage.getItem(k), key);

describe('landing (/)', () => {
  it.each(['light', 'dark'] as const)(
    'greets a first-time customer in Russian, the default, with the service Online (%s theme)',
    async (theme) => {
      await withPhone(e2e.browser, { theme }, async (page) => {
        await page.goto(`${e2e.server.url}/`);
        await onScreen(page, 'landing');
        await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('ru');
        await page.getByText('Выберите язык').waitFor();
        await page.getByTestId('health-state').getByText('Онлайн').waitFor();
        await page.getByText(`© ${new Date().getFullYear()} Криптообмен`).waitFor();
        await page.getByTestId('support-link').waitFor();
        await screenshot(page, `landing-ru-${theme}`);
      });
    },
  );

  it('fetches the dictionaries with the entry script, as index.html asks, not once the script has run (a round trip less before the landing)', async () => {
    await withPhone(e2e.browser, {}, async (page) => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      /** Who asked for each file: the page's HTML (`parser`) or a script. */
      const askedBy = new Map<string, string>();
      cdp.on('Network.requestWillBeSent', (event) => {
        askedBy.set(new URL(event.request.url).pathname, event.initiator.type);
      });
      await page.goto(`${e2e.server.url}/`);
      await onScreen(page, 'landing');
      const dictionaries = [...askedBy].filter(([file]) => /^\/assets\/(ru|en)-/.test(file));
      // The customer's two, both from index.html; not the operators' words, which only they load.
      expect(dictionaries.map(([file, by]) => [file.slice(8, 10), by]).sort()).toEqual([
        ['en', 'parser'],
        ['ru', 'parser'],
      ]);
    });
  });

  it('stores the chosen language: after a reload the app opens at /currencies in English', async () => {
    await withPhone(e2e.browser, {}, async (page) => {
      await page.goto(`${e2e.server.url}/`);
      await onScreen(page, 'landing');
      await page.locator('[data-language="en"]').click();
      await onScreen(page, 'currencies');
      await page.getByText('Choose a currency').waitFor();
      expect(await stored(page, 'selectedLanguage')).toBe('en');

      await page.goto(`${e2e.server.url}/`);
      await onScreen(page, 'currencies');
      expect(pathOf(page)).toBe('/currencies');
      await page.getByText('Choose a currency').waitFor();
    });
  });

  it('opens without asking GET /api/app-config: index.html carries it', async () => {
    await withPhone(e2e.browser, {}, async (page) => {
      const asked: string[] = [];
      page.on('request', (request) => asked.push(new URL(request.url()).pathname));
      await page.goto(`${e2e.server.url}/`);
      await onScreen(page, 'landing');
      await page.getByTestId('support-link').waitFor();
      // The demo's session follows from the configuration's `demo`: it was read.
      expect(asked).toContain(API_PATHS.demoSession);
      expect(asked).not.toContain(API_PATHS.appConfig);
    });
  });

  it('opens the support chat link', async () => {
    await withPhone(e2e.browser, {}, async (page) => {
      await page.goto(`${e2e.server.url}/`);
      await onScreen(page, 'landing');
      // No internet here: answer t.me locally and check where the link went.
      await page
        .context()
        .route('https://t.me/**', (route) =>
          route.fulfill({ contentType: 'text/html', body: '<title>support</title>' }),
        );
      const popup = page.waitForEvent('popup');
      await page.getByTestId('support-link').click();
      const opened = await popup;
      await opened.waitForLoadState();
      expect(opened.url()).toBe('https://t.me/exchange_support');
    });
  });
});

describe('currencies (/currencies) and the language toggle', () => {
  it('re-translates the visible screen when RU/EN is toggled, and stores the choice', async () => {
    await withPhone(e2e.browser, { storedLanguage: 'en' }, async (page) => {
      await page.goto(`${e2e.server.url}/currencies`);
      await onScreen(page, 'currencies');
      await page.getByText('Russian Rouble').waitFor();
      await screenshot(page, 'currencies-en-light');

      await page.getByRole('button', { name: 'RU', exact: true }).click();
      await page.getByText('Выберите валюту').waitFor();
      await page.getByText('Российский рубль').waitFor();
      await page.getByText('Для рублей доступно несколько способов оплаты').waitFor();
      expect(await page.getByText('Choose a currency').count()).toBe(0);
      expect(await stored(page, 'selectedLanguage')).toBe('ru');
      await screenshot(page, 'currencies-ru-light');
    });
  });

  it.each(LISTED_CURRENCIES)(
    '%s reaches its method screen; coming-soon methods cannot be chosen',
    async (code) => {
      await withPhone(
        e2e.browser,
        { storedLanguage: 'ru', theme: code === 'RUB' ? 'dark' : 'light' },
        async (page) => {
          await page.goto(`${e2e.server.url}/currencies`);
          await onScreen(page, 'currencies');
          await page.locator(`[data-currency="${code}"]`).click();
          const screen = `${code.toLowerCase()}-method`;
          await onScreen(page, screen);
          expect(pathOf(page)).toBe(`/${screen}`);
          expect(JSON.parse((await session(page, 'selectedCurrency')) ?? 'null')).toMatchObject({
            code,
          });

          for (const method of methodsFor(code)) {
            const cell = page.locator(`[data-method="${method.option}"]`);
            await cell.waitFor();
            expect(await cell.getAttribute('aria-disabled')).toBe(String(!method.available));
            if (!method.available) {
              await cell.click({ force: true });
              await page.waitForTimeout(200);
              expect(pathOf(page)).toBe(`/${screen}`);
            }
          }
          await screenshot(page, `${screen}-ru-${code === 'RUB' ? 'dark' : 'light'}`);

          await page.getByRole('button', { name: 'Назад' }).click();
          await onScreen(page, 'currencies');
        },
      );
    },
  );

  it('logout clears the stored language and returns to the landing', async () => {
    await withPhone(e2e.browser, { storedLanguage: 'en' }, async (page) => {
      await page.goto(`${e2e.server.url}/currencies`);
      await onScreen(page, 'currencies');
      await page.getByText('Log out').click();
      await onScreen(page, 'landing');
      expect(pathOf(page)).toBe('/');
      expect(await stored(page, 'selectedLanguage')).toBeNull();
      await page.getByText('Choose your language').waitFor();
      await screenshot(page, 'landing-en-light');

      await page.reload();
      await onScreen(page, 'landing');
      await page.getByText('Выберите язык').waitFor();
    });
  });
});

describe('the currency guard and the placeholders', () => {
  it.each(['/rub-method', '/kzt-method', '/card-payment'])(
    '%s without a chosen currency goes to /',
    async (route) => {
      await withPhone(e2e.browser, {}, async (page) => {
        await page.goto(`${e2e.server.url}${route}`);
        await onScreen(page, 'landing');
        expect(pathOf(page)).toBe('/');
      });
    },
  );

  it('/payment-systems says the section is in development and lists disabled methods; back goes to /', async () => {
    await withPhone(e2e.browser, { storedLanguage: 'en' }, async (page) => {
      await page.goto(`${e2e.server.url}/payment-systems`);
      await onScreen(page, 'payment-systems');
      await page.getByText('This section is in development').waitFor();
      for (const name of ['Bank cards', 'E-wallets', 'Exchange points']) {
        await page.getByText(name).waitFor();
      }
      await screenshot(page, 'payment-systems-en-light');
      await page.getByRole('button', { name: 'Back' }).click();
      await onScreen(page, 'landing');
    });
  });

  it('/card-payment says card payment is coming soon and leads back to the methods', async () => {
    await withPhone(e2e.browser, { storedLanguage: 'ru' }, async (page) => {
      await page.goto(`${e2e.server.url}/currencies`);
      await page.locator('[data-currency="USD"]').click();
      await onScreen(page, 'usd-method');
      await page.goto(`${e2e.server.url}/card-payment`);
      await onScreen(page, 'card-payment');
      await page.getByText('Оплата картой скоро появится').waitFor();
      await screenshot(page, 'card-payment-ru-light');
      await page.getByText('Выбрать другой способ').click();
      await onScreen(page, 'usd-method');
    });
  });
});

describe('returning customers (the landing, second reading)', () => {
  it("a start parameter order_<id> opens /my-orders?orderId=<id>, which opens that order's screen, once", async () => {
    const s = await startServer();
    try {
      const id = await insertOrder(s.database.db, DEMO_CUSTOMER, { status: 'REQUISITES_READY' });
      await withPhone(e2e.browser, { storedLanguage: 'ru' }, async (page) => {
        await page.goto(`${s.url}/?startapp=order_${id}`);
        // The history-card table: a P2P order in REQUISITES_READY opens the payment screen.
        await onScreen(page, 'payment');
        expect(pathOf(page)).toBe(`/order/${id}/payment`);
        expect(await session(page, 'deepLinkOrderId')).toBeNull();
        await screenshot(page, 'deep-link-payment-ru-light');
      });
    } finally {
      await s.close();
    }
  });

  it("a start parameter chat_<id> (the bot's button under an operator's message) opens that order's chat; back opens the order", async () => {
    const s = await startServer();
    try {
      const id = await insertOrder(s.database.db, DEMO_CUSTOMER, { status: 'REQUISITES_READY' });
      await withPhone(e2e.browser, { storedLanguage: 'en' }, async (page) => {
        await page.goto(`${s.url}/?startapp=chat_${id}`);
        await onScreen(page, 'chat');
        expect(pathOf(page)).toBe(`/order/${id}/chat`);
        expect(await session(page, 'deepLinkStartParam')).toBeNull();
        await page.getByRole('button', { name: 'Back', exact: true }).click();
        await onScreen(page, 'payment');
        expect(pathOf(page)).toBe(`/order/${id}/payment`);
      });
    } finally {
      await s.close();
    }
  });

  it('with active orders the app opens /my-orders; without, /currencies', async () => {
    const s = await startServer();
    try {
      await withPhone(e2e.browser, { storedLanguage: 'en' }, async (page) => {
        await page.goto(`${s.url}/`);
        await onScreen(page, 'currencies');
      });
      await insertOrder(s.database.db, DEMO_CUSTOMER, { status: 'WAITING_REQUISITES' });
      await insertOrder(s.database.db, DEMO_CUSTOMER, { status: 'COMPLETED' });
      await withPhone(e2e.browser, { storedLanguage: 'en', theme: 'dark' }, async (page) => {
        await page.goto(`${s.url}/`);
        await onScreen(page, 'my-orders');
        expect(pathOf(page)).toBe('/my-orders');
        await page.getByText('Waiting for details').waitFor();
        // The 'all' tab: the active order and the completed one.
        expect(await page.locator('[data-order-id]').count()).toBe(2);
        await screenshot(page, 'my-orders-en-dark');
        await page.getByRole('button', { name: 'Back' }).click();
        await onScreen(page, 'landing');
      });
    } finally {
      await s.close();
    }
  });
});

describe('service status', () => {
  it('the health indicator goes Offline when the server stops', async () => {
    const s = await startServer();
    let stopping: Promise<void> | undefined;
    const stop = () => (stopping ??= s.close());
    try {
      await withPhone(e2e.browser, { storedLanguage: 'en' }, async (page) => {
        await page.goto(`${s.url}/currencies`);
        await onScreen(page, 'currencies');
        await page.getByRole('button', { name: 'Back' }).click();
        await onScreen(page, 'landing');
        await page.getByTestId('health-state').getByText('Online').waitFor();
        await stop();
        // Rechecked every 10 s with a 3 s timeout: Offline within about 13 s.
        await page.getByTestId('health-state').getByText('Offline').waitFor({ timeout: 16_000 });
        await screenshot(page, 'landing-offline-en-light');
      });
    } finally {
      await stop();
    }
  });
});

describe('with a real bot token', () => {
  it('outside Telegram the app asks to be opened in Telegram', async () => {
    const s = await startServer({ botToken: '7000000001:AAHk3rZ9mQx2VbT8nP4sLw6yJcD1eFgH0iK' });
    try {
      await withPhone(e2e.browser, {}, async (page) => {
        await page.goto(`${s.url}/`);
        await onScreen(page, 'open-in-telegram');
        await page.getByText('Откройте приложение в Telegram').waitFor();
        await screenshot(page, 'open-in-telegram-ru-light');
      });
    } finally {
      await s.close();
    }
  });
});

describe('framing', () => {
  it("a page of another origin cannot show the app in a frame: only Telegram's web clients may", async () => {
    const framer = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<!doctype html><iframe id="app" src="${e2e.server.url}/"></iframe>`);
    });
    await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
    const { port } = framer.address() as AddressInfo;
    try {
      await withPhone(e2e.browser, {}, async (page) => {
        const refused = page.waitForEvent('console', (message) =>
          message.text().includes('frame-ancestors'),
        );
        await page.goto(`http://127.0.0.1:${port}/`);
        expect((await refused).text()).toContain(e2e.server.url);
        const frame = page.frames().find((f) => f !== page.mainFrame());
        expect(await frame?.locator('[data-screen]').count()).toBe(0);
      });
    } finally {
      await new Promise((resolve) => framer.close(resolve));
    }
  });
});
