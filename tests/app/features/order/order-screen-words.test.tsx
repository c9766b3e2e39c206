/**
 * What a customer reads on the order screens beside the order itself: copy only where a value is
 * pasted somewhere (the amount to send, an address, requisites, codes, hashes), and a link to an
 * order that is missing or someone else's titled with that order, not with the screen it asked
 * for. API and clock faked.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BankRequisites, OrderDetails } from '../../../../src/shared/api';
import { ORDER_SCREENS, type OrderScreen } from '../../../../src/shared/order-screens';
import {
  FIXTURE_BANK,
  FIXTURE_CARD,
  FIXTURE_NOW,
  FIXTURE_SELL,
  FIXTURE_TRON_DEPOSIT,
  FIXTURE_WALLET,
  iso,
  serveOrder as serveFixture,
} from '../../../helpers/order-fixtures';
import { advance, fakeApi, renderApp, setUpScreenTests } from '../../../helpers/render-app';

const ID = '3f9c2a7b-61d4-4e0a-9b7c-2d5e8f1a0c34';
const NUMBER = '3f9c2a7b';
const TRON_HASH = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const CARD = FIXTURE_CARD;
const BANK = FIXTURE_BANK;

const setup = setUpScreenTests(FIXTURE_NOW);

async function open(
  name: OrderScreen,
  fields: Partial<OrderDetails>,
  options: { language?: 'en' | 'ru'; requisites?: BankRequisites } = {},
): Promise<ReturnType<typeof renderApp>> {
  serveFixture({ id: ID }, fields, {
    routes: () => [
      {
        method: 'GET',
        path: `/api/orders/${ID}/requisites`,
        reply: {
          json: { requisitesNotConfigured: false, requisites: options.requisites ?? null },
        },
      },
    ],
  });
  const app = renderApp(`/order/${ID}/${name}`, { language: options.language ?? 'en' });
  await advance(500);
  return app;
}

/** What a tap copies on the screen, in screen order. */
const copied = () =>
  [...document.querySelectorAll<HTMLElement>('[data-copy-value]')].map(
    (element) => element.dataset['copyValue'],
  );
/** Every "Copy" the screen offers (a row's hint or a button). */
const copyOffers = () =>
  [...document.querySelectorAll('.copy-hint, button')].filter(
    (element) => element.textContent === 'Copy',
  ).length;

describe('copy is offered only on what a customer pastes somewhere', () => {
  it.each<[string, OrderScreen, Partial<OrderDetails>, BankRequisites | undefined, string[]]>([
    [
      'send-crypto: the amount to send and the deposit address, not the network or "You receive"',
      'send-crypto',
      { ...FIXTURE_SELL, expiresAt: iso(FIXTURE_NOW + 30 * 60_000) },
      undefined,
      ['100', FIXTURE_TRON_DEPOSIT],
    ],
    [
      'payment: the card requisites and the amount to pay',
      'payment',
      { status: 'REQUISITES_READY', requisites: CARD, requisitesReadyAt: iso(FIXTURE_NOW) },
      undefined,
      [
        CARD.bankName,
        CARD.cardNumber,
        CARD.cardHolder,
        CARD.phone ?? '',
        CARD.comment ?? '',
        '5000',
      ],
    ],
    [
      'bank-requisites: the account details, the payment purpose and the amount to transfer',
      'bank-requisites',
      {
        paymentMethod: 'BANK_ACCOUNT',
        status: 'REQUISITES_READY',
        requisitesReadyAt: iso(FIXTURE_NOW),
      },
      BANK,
      [
        BANK.recipientName,
        BANK.accountNumber,
        BANK.bankName,
        BANK.bik,
        BANK.correspondentAccount,
        BANK.inn,
        `Payment for order #${NUMBER}`,
        '5000',
      ],
    ],
    [
      'details: the wallet and the hash, not the amounts, network or status',
      'details',
      { ...FIXTURE_SELL, status: 'TX_PENDING', walletAddress: FIXTURE_WALLET, txHash: TRON_HASH },
      undefined,
      [FIXTURE_WALLET, TRON_HASH],
    ],
    [
      'office-waiting: the wallet the crypto goes to, not the cash to bring or the crypto to get',
      'office-waiting',
      {
        paymentMethod: 'OFFICE',
        currency: 'AED',
        status: 'OFFICE_READY',
        officeInstructions: 'Come to the office',
        reservedUntil: iso(FIXTURE_NOW + 3 * 60 * 60_000),
      },
      undefined,
      [FIXTURE_WALLET],
    ],
    [
      'complete: nothing but a hash, and this one has none yet',
      'complete',
      { status: 'RECEIPT_UPLOADED' },
      undefined,
      [],
    ],
  ])('%s', async (_rule, name, fields, requisites, expected) => {
    await open(name, { id: ID, ...fields }, requisites === undefined ? {} : { requisites });
    expect(copied()).toEqual(expected);
    expect(copyOffers()).toBe(expected.length);
  });
});

describe('a link to an order that is missing or not theirs says which order, not which screen', () => {
  const notFound = () =>
    fakeApi([
      {
        method: 'GET',
        path: `/api/orders/${ID}/status`,
        reply: { status: 404, json: { error: 'x', code: 'ORDER_NOT_FOUND' } },
      },
    ]);
  const title = () => document.querySelector('.app-header__title')?.textContent;
  const placeholder = () => document.querySelector('dt')?.textContent;

  it.each(ORDER_SCREENS.flatMap((name) => [['en', name] as const, ['ru', name] as const]))(
    '(%s) /order/…/%s: titled with the order, "not found" below, My orders and support',
    async (language, name) => {
      notFound();
      const app = renderApp(`/order/${ID}/${name}`, { language });
      await advance(500);
      expect(title()).toBe(language === 'en' ? `Order #${NUMBER}` : `Заказ №${NUMBER}`);
      expect(placeholder()).toBe(language === 'en' ? 'Order not found' : 'Заказ не найден');
      expect(screen.getByTestId('order-support')).toBeTruthy();
      fireEvent.click(screen.getByTestId('not-found-orders'));
      expect(app.currentPath()).toBe('/my-orders');
      expect(setup.dialogs.alert).not.toHaveBeenCalled();
    },
  );

  it.each([
    ['en', `Order #${NUMBER}`, 'My orders'],
    ['ru', `Заказ №${NUMBER}`, 'Мои заказы'],
  ] as const)(
    '(%s) the deep link /my-orders?orderId=… is titled "%s", not "%s"',
    async (language, expected, history) => {
      notFound();
      renderApp(`/my-orders?orderId=${ID}`, { language });
      await advance(500);
      expect(title()).toBe(expected);
      expect(title()).not.toBe(history);
      expect(placeholder()).toBe(language === 'en' ? 'Order not found' : 'Заказ не найден');
    },
  );
});
