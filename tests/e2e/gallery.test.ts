/**
 * Every screen of the app (entry, forms, order journeys, the console) in both themes and both
 * languages, for people to look at:
 * orders in each state are written straight into the database and each screen is opened and
 * photographed into test-artifacts/screenshots/gallery-*.png, 390 px wide and, for a narrow
 * phone, 360 px (`-360`). Each screen must still show its own content (its `data-screen` and a
 * text of it), so a broken screen fails here too. The sweeper is off, so that the states of an
 * order past its deadline (send-crypto's and the bank transfer's "time is up") stay to be seen.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, it } from 'vitest';
import { DEMO_DEPOSIT_ADDRESSES } from '../../src/server/platform/config/config';
import { insertOrder } from '../helpers/orders';
import { DEMO_CUSTOMER, onScreen, openPhone, screenshot, useBrowserAndServer } from './harness';

const ids: Record<string, string> = {};

const CARD = JSON.stringify({
  bankName: 'Т-Банк',
  cardNumber: '2200700123456781',
  cardHolder: 'IVAN PETROV',
  phone: '+7 900 123-45-67',
  comment: 'Перевод без комментария',
});
const BANK = JSON.stringify({
  recipientName: 'ООО «Криптообмен»',
  accountNumber: '40702810938000123456',
  bankName: 'ПАО Сбербанк',
  bik: '044525225',
  correspondentAccount: '30101810400000000225',
  inn: '7707083893',
  bankAddress: 'Москва, ул. Вавилова, 19',
  beneficiaryName: 'ООО «Криптообмен»',
  beneficiaryAccount: '40702810938000123456',
});

const e2e = useBrowserAndServer({}, { jobs: false });
beforeAll(async () => {
  const db = e2e.server.database.db;
  const now = Date.now();
  const wallet = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  ids['waiting'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'WAITING_REQUISITES',
    expires_at: now + 60 * 60_000,
  });
  ids['bankWaiting'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'WAITING_REQUISITES',
    payment_method: 'BANK_ACCOUNT',
    amount_units: 6_093_900_000,
    total_minor: 60_000_000,
    rate_units: 98_460_000,
    expires_at: now + 60 * 60_000,
  });
  ids['bankTimeUp'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'REQUISITES_READY',
    payment_method: 'BANK_ACCOUNT',
    amount_units: 6_093_900_000,
    total_minor: 60_000_000,
    rate_units: 98_460_000,
    requisites: BANK,
    requisites_ready_at: now - 2 * 3_600_000,
    expires_at: now - 1_000,
  });
  ids['sendTimeUp'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'WAITING_CRYPTO',
    type: 'SELL',
    requisites: JSON.stringify({ walletAddress: DEMO_DEPOSIT_ADDRESSES.trc20 }),
    requisites_ready_at: now - 30 * 60_000,
    expires_at: now - 1_000,
  });
  ids['expiredSell'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'CANCELLED',
    type: 'SELL',
    cancel_reason: 'expired',
  });
  ids['noOperator'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'CANCELLED',
    cancel_reason: 'no_operator',
  });
  ids['payment'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'REQUISITES_READY',
    requisites: CARD,
    requisites_ready_at: now,
    expires_at: now + 30 * 60_000,
  });
  ids['bank'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'REQUISITES_READY',
    payment_method: 'BANK_ACCOUNT',
    amount_units: 6_093_900_000,
    total_minor: 60_000_000,
    rate_units: 98_460_000,
    network: 'BASE',
    crypto_currency: 'USDC',
    wallet_address: wallet,
    requisites: BANK,
    requisites_ready_at: now,
    expires_at: now + 2 * 3_600_000,
  });
  ids['upload'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'PAYMENT_PENDING',
    requisites: CARD,
  });
  ids['progress'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'PAYMENT_CONFIRMED',
    requisites: CARD,
  });
  ids['done'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'COMPLETED',
    outgoing_tx_hash: 'f'.repeat(64),
  });
  ids['rejected'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'REJECTED',
    reject_reason: 'Платёж пришёл с карты третьего лица',
    reject_reason_code: 'third_party_payment',
  });
  ids['officePending'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'OFFICE_PENDING',
    payment_method: 'OFFICE',
    currency: 'USD',
    city_id: 'moscow',
    amount_units: 5_940_000_000,
    total_minor: 600_000,
    rate_units: 1_010_000,
    network: 'BASE',
    crypto_currency: 'USDC',
    wallet_address: wallet,
  });
  ids['officeReady'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'OFFICE_READY',
    payment_method: 'OFFICE',
    currency: 'USD',
    city_id: 'moscow',
    office_id: 'moscow-city-tower',
    amount_units: 5_940_000_000,
    total_minor: 600_000,
    rate_units: 1_010_000,
    network: 'BASE',
    crypto_currency: 'USDC',
    wallet_address: wallet,
    office_instructions: 'Приходите с паспортом, назовите код бронирования на ресепшн 43 этажа.',
    reservation: JSON.stringify({ reservationCode: 'K7M2QX' }),
    reserved_until: now + 3 * 3_600_000,
    requisites_ready_at: now,
  });
  ids['sendCrypto'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'WAITING_CRYPTO',
    type: 'SELL',
    requisites: JSON.stringify({ walletAddress: DEMO_DEPOSIT_ADDRESSES.trc20 }),
    requisites_ready_at: now,
    expires_at: now + 30 * 60_000,
  });
  ids['sellWaiting'] = await insertOrder(db, DEMO_CUSTOMER, {
    status: 'TX_PENDING',
    type: 'SELL',
    tx_hash: 'e'.repeat(64),
  });
});

interface Shot {
  readonly name: string;
  readonly open: (page: Page) => Promise<void>;
  readonly screen: string;
  /** A text the screen must show, per language. */
  readonly text: { readonly ru: RegExp; readonly en: RegExp };
}

const order = (key: string, screen: string) => async (page: Page) => {
  await page.goto(`${e2e.server.url}/order/${ids[key] ?? ''}/${screen}`);
};
const route = (path: string) => async (page: Page) => {
  await page.goto(`${e2e.server.url}/currencies`);
  await page.locator('[data-currency="RUB"]').click();
  await onScreen(page, 'rub-method');
  await page.goto(`${e2e.server.url}${path}`);
};

const visit = (path: string) => async (p: Page) => {
  await p.goto(`${e2e.server.url}${path}`);
};

const SHOTS: readonly Shot[] = [
  {
    name: 'currencies',
    open: visit('/currencies'),
    screen: 'currencies',
    text: { ru: /Для рублей доступно/, en: /Roubles have several payment methods/ },
  },
  {
    name: 'rub-method',
    open: route('/rub-method'),
    screen: 'rub-method',
    text: { ru: /P2P/, en: /P2P/ },
  },
  {
    name: 'usd-method',
    open: async (p) => {
      await p.goto(`${e2e.server.url}/currencies`);
      await p.locator('[data-currency="USD"]').click();
    },
    screen: 'usd-method',
    text: { ru: /Скоро/, en: /Coming soon/ },
  },
  {
    name: 'payment-systems',
    open: visit('/payment-systems'),
    screen: 'payment-systems',
    text: { ru: /Раздел в разработке/, en: /This section is in development/ },
  },
  {
    name: 'card-payment',
    open: route('/card-payment'),
    screen: 'card-payment',
    text: { ru: /Оплата картой скоро появится/, en: /Card payment is coming soon/ },
  },
  {
    name: 'not-found',
    open: visit('/no-such-page'),
    screen: 'not-found',
    text: { ru: /Такой страницы нет/, en: /This page does not exist/ },
  },
  {
    name: 'console-queue',
    open: visit('/console'),
    screen: 'console-queue',
    text: { ru: /Курсы/, en: /Rates/ },
  },
  {
    name: 'console-search',
    open: visit('/console/orders'),
    screen: 'console-search',
    text: { ru: /№/, en: /№/ },
  },
  {
    name: 'console-rates',
    open: visit('/console/rates'),
    screen: 'console-rates',
    text: { ru: /Базовые курсы/, en: /Base rates/ },
  },
  {
    name: 'console-order',
    open: async (p) => {
      await p.goto(`${e2e.server.url}/console/orders/${ids['payment'] ?? ''}`);
    },
    screen: 'console-order',
    text: { ru: /Клиент/, en: /Customer/ },
  },
  {
    name: 'p2p',
    open: route('/p2p'),
    screen: 'p2p',
    text: { ru: /Купить криптовалюту/, en: /Buy crypto/ },
  },
  {
    name: 'p2p-buy',
    open: route('/p2p/buy'),
    screen: 'p2p-buy',
    text: { ru: /Сумма в рублях/, en: /Amount in roubles/ },
  },
  {
    name: 'p2p-sell',
    open: route('/p2p/sell'),
    screen: 'p2p-sell',
    text: { ru: /Номер карты/, en: /Card number/ },
  },
  {
    name: 'bank-account',
    open: route('/bank-account'),
    screen: 'bank-account',
    text: { ru: /Минимальная сумма 500\s000\s₽/, en: /Minimum amount ₽500,000/ },
  },
  {
    name: 'office-exchange',
    open: route('/office-exchange'),
    screen: 'office-exchange',
    text: { ru: /паспорт/, en: /passport/ },
  },
  {
    name: 'waiting',
    open: order('waiting', 'waiting'),
    screen: 'waiting',
    text: { ru: /Прошло/, en: /Elapsed/ },
  },
  {
    name: 'payment',
    open: order('payment', 'payment'),
    screen: 'payment',
    text: { ru: /Я оплатил/, en: /I have paid/ },
  },
  {
    name: 'bank-requisites',
    open: order('bank', 'bank-requisites'),
    screen: 'bank-requisites',
    text: { ru: /БИК/, en: /BIC/ },
  },
  {
    name: 'bank-requisites-waiting',
    open: order('bankWaiting', 'bank-requisites'),
    screen: 'bank-requisites',
    text: { ru: /Готовим реквизиты/, en: /Preparing the transfer details/ },
  },
  {
    name: 'bank-requisites-time-up',
    open: order('bankTimeUp', 'bank-requisites'),
    screen: 'bank-requisites',
    text: { ru: /Время вышло/, en: /Time is up/ },
  },
  {
    name: 'send-crypto-time-up',
    open: order('sendTimeUp', 'send-crypto'),
    screen: 'send-crypto',
    text: { ru: /Время вышло/, en: /Time is up/ },
  },
  {
    name: 'details-expired-sell',
    open: order('expiredSell', 'details'),
    screen: 'details',
    text: { ru: /Не отправляйте криптовалюту/, en: /Do not send crypto/ },
  },
  {
    // A link to an order that is not the customer's: titled with the order, not the screen.
    name: 'order-not-found',
    open: visit('/order/0b7e5a3c-9d1f-4e2a-8c6b-5f4d3e2a1b0c/details'),
    screen: 'details',
    text: { ru: /Заказ не найден/, en: /Order not found/ },
  },
  {
    name: 'details-no-operator',
    open: order('noOperator', 'details'),
    screen: 'details',
    text: { ru: /Деньги не списывались/, en: /Nothing was charged/ },
  },
  {
    name: 'upload-receipt',
    open: order('upload', 'upload-receipt'),
    screen: 'upload-receipt',
    text: { ru: /Выбрать файл/, en: /Choose a file/ },
  },
  {
    name: 'complete-progress',
    open: order('progress', 'complete'),
    screen: 'complete',
    text: { ru: /Отправляем криптовалюту/, en: /Sending crypto/ },
  },
  {
    name: 'complete-success',
    open: order('done', 'complete'),
    screen: 'complete',
    text: { ru: /Заказ выполнен/, en: /Order completed/ },
  },
  {
    name: 'details-rejected',
    open: order('rejected', 'details'),
    screen: 'details',
    text: { ru: /со счёта другого человека: Платёж/, en: /someone else's account: Платёж/ },
  },
  {
    name: 'office-waiting-pending',
    open: order('officePending', 'office-waiting'),
    screen: 'office-waiting',
    text: { ru: /Ожидание инструкций/, en: /Waiting for instructions/ },
  },
  {
    name: 'office-waiting-ready',
    open: order('officeReady', 'office-waiting'),
    screen: 'office-waiting',
    text: { ru: /Принесите наличными/, en: /Bring in cash/ },
  },
  {
    name: 'office-details',
    open: async (page) => {
      await order('officeReady', 'office-waiting')(page);
      await page.getByTestId('open-reservation').click();
    },
    screen: 'office-details',
    text: { ru: /K7M2QX/, en: /K7M2QX/ },
  },
  {
    name: 'send-crypto',
    open: order('sendCrypto', 'send-crypto'),
    screen: 'send-crypto',
    text: { ru: /Хеш транзакции/, en: /Transaction hash/ },
  },
  {
    name: 'sell-waiting',
    open: order('sellWaiting', 'sell-waiting'),
    screen: 'sell-waiting',
    text: { ru: /Проверяем транзакцию/, en: /Checking the transaction/ },
  },
  {
    name: 'my-orders',
    open: async (page) => page.goto(`${e2e.server.url}/my-orders`).then(() => undefined),
    screen: 'my-orders',
    // The orders were made in beforeAll, minutes before: past midnight they are yesterday's.
    text: { ru: /Сегодня|Вчера/, en: /Today|Yesterday/ },
  },
];

describe('screen gallery', () => {
  it.each([
    ['ru', 'light', 390],
    ['ru', 'dark', 390],
    ['en', 'light', 390],
    ['en', 'dark', 390],
    ['ru', 'light', 360],
    ['en', 'dark', 360],
  ] as const)(
    'every screen in %s, %s theme, %i px wide: its title fits',
    async (language, theme, width) => {
      const { context, page } = await openPhone(e2e.browser, {
        storedLanguage: language,
        theme,
        width,
      });
      const suffix = width === 390 ? '' : `-${width}`;
      try {
        for (const shot of SHOTS) {
          await shot.open(page);
          await onScreen(page, shot.screen);
          await page.getByText(shot.text[language]).first().waitFor({ timeout: 10_000 });
          await screenshot(page, `gallery-${shot.name}-${language}-${theme}${suffix}`);
        }
      } finally {
        await context.close();
      }
    },
    180_000,
  );
});
