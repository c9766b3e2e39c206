/**
 * What lets a customer trust the app with 100 000 roubles: deadlines the customer can see
 * (send-crypto's countdown, the operator's deadline while waiting, the notice once time is up), an
 * order that ends while the customer looks at it says why and what happens to the money, 'I have
 * paid' and 'I received' ask first, the bank details wait honestly and carry the payment purpose,
 * hashes open on the explorer, the rejection catalogue in the customer's language, the history sets
 * apart the orders waiting for their customer, finished orders speak in the past tense, and a
 * customer at the active-order limit sees the open orders. API and clock faked.
 */
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { BankRequisites, OrderDetails } from '../../../../src/shared/api';
import type { OrderScreen } from '../../../../src/shared/order-screens';
import {
  FIXTURE_BANK,
  FIXTURE_CARD,
  FIXTURE_NOW,
  FIXTURE_SELL,
  iso,
  orderSummary,
  serveHistory,
  serveOrder as serveFixture,
  type ServedOrder,
} from '../../../helpers/order-fixtures';
import {
  advance,
  fakeApi,
  input,
  renderApp,
  setUpScreenTests,
  settle,
  type,
} from '../../../helpers/render-app';

const ID = '3f9c2a7b-61d4-4e0a-9b7c-2d5e8f1a0c34';
const NUMBER = '3f9c2a7b';
const MINUTE = 60_000;
const TRON_HASH = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const BANK = FIXTURE_BANK;
const CARD = FIXTURE_CARD;
const SELL: Partial<OrderDetails> = {
  ...FIXTURE_SELL,
  id: ID,
  expiresAt: iso(FIXTURE_NOW + 30 * MINUTE),
};
const BANK_BUY: Partial<OrderDetails> = {
  id: ID,
  paymentMethod: 'BANK_ACCOUNT',
  totalRub: 600_000,
  amount: 6177.286,
};
const MONEY_BUY_EN =
  'Do not pay for this order. If you already paid, contact support: we return the money to the account it came from.';
const MONEY_SELL_EN =
  'Do not send crypto for this order. If you already sent it, contact support with the transaction hash: we return it to the address it came from.';

/** An order rejected by a senior operator's refund on appeal: the outcome, and where it went. */
function refundedOnAppeal(
  outcome: string,
  refund: { readonly refundDetails: string | null; readonly refundTxHash: string | null },
) {
  return {
    status: 'REJECTED',
    rejectReasonCode: 'other',
    rejectReason: outcome,
    appeal: {
      state: 'decided',
      reason: 'crypto_not_received',
      openedAt: iso(FIXTURE_NOW - 60 * MINUTE),
      decision: 'refund',
      outcome,
      decidedAt: iso(FIXTURE_NOW),
      ...refund,
    },
  } as const;
}

const setup = setUpScreenTests(FIXTURE_NOW);
const path = (name: OrderScreen) => `/order/${ID}/${name}`;
const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ');
/** A note's lines: its heading and its sentence, each a paragraph of its own. */
const noteLines = (note: HTMLElement) =>
  [...note.querySelectorAll('p')].map((line) => line.textContent);

async function open(
  name: OrderScreen,
  fields: Partial<OrderDetails>,
  options: { language?: 'en' | 'ru'; requisites?: BankRequisites | null } = {},
): Promise<ServedOrder & { app: ReturnType<typeof renderApp> }> {
  const served = serveFixture({ id: ID }, fields, {
    routes: (update) => [
      {
        method: 'GET',
        path: `/api/orders/${ID}/requisites`,
        reply: {
          json: { requisitesNotConfigured: false, requisites: options.requisites ?? null },
        },
      },
      {
        method: 'POST',
        path: `/api/orders/${ID}/payment-confirm`,
        reply: () => {
          update({ status: 'PAYMENT_PENDING' });
          return { json: { success: true, status: 'PAYMENT_PENDING' } };
        },
      },
      {
        method: 'POST',
        path: `/api/orders/${ID}/office-confirm`,
        reply: () => {
          update({ status: 'COMPLETED' });
          return { json: { success: true, status: 'COMPLETED' } };
        },
      },
    ],
  });
  const app = renderApp(path(name), { language: options.language ?? 'en' });
  await advance(500);
  return { ...served, app };
}

describe('send-crypto shows the sell deadline', () => {
  it('as a duration left, with the note that expiry cancels the order and not to send after it', async () => {
    await open('send-crypto', SELL);
    const banner = screen.getByTestId('countdown');
    expect(banner.textContent).toContain('Time left: 30:00');
    expect(banner.textContent).toContain(
      'When the time runs out the order is cancelled. Do not send crypto after that.',
    );
    expect(banner.className).not.toContain('countdown--warning');
    await advance(25 * MINUTE);
    expect(banner.textContent).toContain('Less than 5 minutes left');
    expect(banner.className).toContain('countdown--warning');
  });

  it('in Russian', async () => {
    await open('send-crypto', SELL, { language: 'ru' });
    expect(screen.getByTestId('countdown').textContent).toContain('Осталось времени: 30:00');
    expect(screen.getByTestId('countdown').textContent).toContain(
      'Не отправляйте криптовалюту после этого',
    );
  });

  it('once it runs out, the address and the hash form give way to a notice not to send, support first', async () => {
    await open('send-crypto', SELL);
    await advance(30 * MINUTE);
    const notice = screen.getByTestId('time-up');
    // The heading on its own line: run into the sentence it would read as one broken sentence.
    expect(noteLines(notice)).toEqual(['Time is up: the order is being cancelled.', MONEY_SELL_EN]);
    expect(screen.queryByTestId('deposit-address')).toBeNull();
    expect(screen.queryByTestId('tx-form')).toBeNull();
    expect(screen.getByTestId('order-support')).not.toBeNull();
  });
});

describe('an order that ends while the customer looks says why and what happens to the money', () => {
  it.each([
    {
      name: 'waiting',
      fields: { id: ID },
      ended: { status: 'CANCELLED', cancelReason: 'no_operator' },
      alert: `No operator answered order #${NUMBER} in time, so it was cancelled.\nNothing was charged: you can create a new order.`,
    },
    {
      name: 'send-crypto',
      fields: SELL,
      ended: { status: 'CANCELLED', cancelReason: 'expired' },
      alert: `Time for order #${NUMBER} ran out, so it was cancelled.\n${MONEY_SELL_EN}`,
    },
    {
      name: 'bank-requisites',
      fields: {
        ...BANK_BUY,
        status: 'REQUISITES_READY',
        expiresAt: iso(FIXTURE_NOW + 120 * MINUTE),
      },
      ended: { status: 'REJECTED', rejectReasonCode: 'third_party_payment', rejectReason: null },
      alert: `Order #${NUMBER} was rejected. Reason: The payment came from someone else's account\n${MONEY_BUY_EN}`,
    },
    {
      name: 'payment',
      fields: {
        status: 'REQUISITES_READY',
        requisites: CARD,
        expiresAt: iso(FIXTURE_NOW + 30 * MINUTE),
      },
      ended: { status: 'CANCELLED', cancelReason: 'customer' },
      alert: `Order #${NUMBER} was cancelled.\n${MONEY_BUY_EN}`,
    },
    {
      name: 'sell-waiting',
      fields: { ...SELL, status: 'TX_PENDING', txHash: TRON_HASH },
      // A senior operator refunded the deposit on appeal: the decision, not 'contact support'.
      ended: refundedOnAppeal('Returned', { refundDetails: null, refundTxHash: TRON_HASH }),
      alert: `Order #${NUMBER} was rejected. Reason: Returned\nA senior operator decided to return your money: the order is rejected and the refund is sent.`,
    },
  ] as const)(
    '$name seeing $ended.status alerts: $alert',
    async ({ name, fields, ended, alert }) => {
      const { app, update } = await open(name, fields, { requisites: BANK });
      update(ended);
      await advance(5_000);
      await settle();
      expect(setup.dialogs.alert.mock.calls).toEqual([[alert]]);
      expect(app.currentPath()).toBe(name === 'payment' ? '/' : '/my-orders');
    },
  );

  it('in Russian', async () => {
    const { update } = await open('waiting', { id: ID }, { language: 'ru' });
    update({ status: 'CANCELLED', cancelReason: 'no_operator' });
    await advance(2_000);
    expect(setup.dialogs.alert.mock.calls).toEqual([
      [
        `Оператор не ответил вовремя, заказ №${NUMBER} отменён.\nДеньги не списывались: можно создать новый заказ.`,
      ],
    ]);
  });
});

describe('waiting for an operator shows the deadline the server keeps', () => {
  it('waiting: the time left before the order is cancelled for want of an answer', async () => {
    await open('waiting', { expiresAt: iso(FIXTURE_NOW + 60 * MINUTE) });
    expect(screen.getByTestId('auto-cancel').textContent).toBe(
      'If no operator answers, the order is cancelled in 1:00:00',
    );
  });

  it('office-waiting, in Russian', async () => {
    await open(
      'office-waiting',
      {
        status: 'OFFICE_PENDING',
        paymentMethod: 'OFFICE',
        expiresAt: iso(FIXTURE_NOW + 60 * MINUTE),
      },
      { language: 'ru' },
    );
    expect(screen.getByTestId('auto-cancel').textContent).toBe(
      'Если оператор не ответит, заказ отменится через 1:00:00',
    );
  });
});

describe('bank-requisites', () => {
  it('before an operator gives the details: a waiting state with the usual time, never "Requisites not configured"', async () => {
    await open(
      'bank-requisites',
      { ...BANK_BUY, expiresAt: iso(FIXTURE_NOW + 60 * MINUTE) },
      { requisites: null },
    );
    const waiting = screen.getByTestId('requisites-waiting');
    expect(waiting.textContent).toContain('Preparing the transfer details');
    expect(waiting.textContent).toContain('Details usually arrive within 10 minutes');
    expect(screen.getByTestId('auto-cancel').textContent).toContain('1:00:00');
    expect(document.body.textContent).not.toContain('not configured');
    expect(screen.getByTestId('cancel-order')).not.toBeNull();
  });

  it('the details carry the payment purpose with the order number, and the beneficiary only where it differs', async () => {
    await open(
      'bank-requisites',
      { ...BANK_BUY, status: 'REQUISITES_READY', expiresAt: iso(FIXTURE_NOW + 120 * MINUTE) },
      { requisites: BANK },
    );
    const text = document.body.textContent;
    expect(text).toContain('Payment purpose');
    expect(text).toContain(`Payment for order #${NUMBER}`);
    expect(text.match(/OOO Exchange/g)).toHaveLength(1);
    expect(text).not.toContain('Beneficiary');
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    try {
      fireEvent.click(screen.getByTestId('copy-all'));
      await settle();
      expect(writeText).toHaveBeenCalledWith(
        expect.stringContaining(`Payment purpose: Payment for order #${NUMBER}`),
      );
    } finally {
      Reflect.deleteProperty(navigator, 'clipboard');
    }
  });

  it('a beneficiary other than the recipient is shown', async () => {
    await open(
      'bank-requisites',
      { ...BANK_BUY, status: 'REQUISITES_READY', expiresAt: iso(FIXTURE_NOW + 120 * MINUTE) },
      { requisites: { ...BANK, beneficiaryName: 'IP Petrov' } },
    );
    expect(document.body.textContent).toContain('IP Petrov');
    expect(document.body.textContent).not.toContain('Beneficiary account');
  });

  it('once the countdown runs out, a notice not to pay replaces the details', async () => {
    await open(
      'bank-requisites',
      { ...BANK_BUY, status: 'REQUISITES_READY', expiresAt: iso(FIXTURE_NOW + 1 * MINUTE) },
      { requisites: BANK },
    );
    await advance(MINUTE);
    expect(screen.getByTestId('time-up').textContent).toContain(MONEY_BUY_EN);
    expect(screen.queryByTestId('i-have-paid')).toBeNull();
    expect(document.body.textContent).not.toContain(BANK.accountNumber);
  });
});

describe("'I have paid' asks first what counts as paid", () => {
  it.each([
    {
      name: 'payment',
      fields: {
        status: 'REQUISITES_READY',
        requisites: CARD,
        expiresAt: iso(FIXTURE_NOW + 30 * MINUTE),
      },
      amount: '₽5,000',
    },
    {
      name: 'bank-requisites',
      fields: {
        ...BANK_BUY,
        status: 'REQUISITES_READY',
        expiresAt: iso(FIXTURE_NOW + 120 * MINUTE),
      },
      amount: '₽600,000',
    },
  ] as const)(
    '$name: declined, nothing is posted; confirmed, it is',
    async ({ name, fields, amount }) => {
      const { api, app } = await open(name, fields, { requisites: BANK });
      const confirmPath = `/api/orders/${ID}/payment-confirm`;
      setup.dialogs.confirm.mockReturnValue(false);
      fireEvent.click(screen.getByTestId('i-have-paid'));
      await settle();
      expect(setup.dialogs.confirm).toHaveBeenCalledWith(
        `Confirm: you transferred exactly ${amount} from an account in your own name, before the timer ran out. Payments from other people's accounts or after the deadline are returned.`,
      );
      expect(api.callsTo('POST', confirmPath)).toHaveLength(0);
      expect(app.currentPath()).toBe(path(name));

      setup.dialogs.confirm.mockReturnValue(true);
      fireEvent.click(screen.getByTestId('i-have-paid'));
      await settle();
      expect(api.callsTo('POST', confirmPath)).toHaveLength(1);
      expect(app.currentPath()).toBe(path('upload-receipt'));
    },
  );

  it('in Russian', async () => {
    await open(
      'payment',
      {
        status: 'REQUISITES_READY',
        requisites: CARD,
        expiresAt: iso(FIXTURE_NOW + 30 * MINUTE),
      },
      { language: 'ru' },
    );
    setup.dialogs.confirm.mockReturnValue(false);
    fireEvent.click(screen.getByTestId('i-have-paid'));
    await settle();
    expect(plain(setup.dialogs.confirm.mock.calls[0]?.[0])).toContain(
      'Подтвердите: вы перевели ровно 5 000 ₽ со счёта на ваше имя',
    );
  });
});

describe("office 'I received' says what was received and asks first", () => {
  it('naming the crypto and the wallet; declined, nothing is posted', async () => {
    const { api } = await open('office-waiting', {
      status: 'OFFICE_READY',
      paymentMethod: 'OFFICE',
      currency: 'AED',
      officeInstructions: 'Desk 3',
      reservedUntil: iso(FIXTURE_NOW + 180 * MINUTE),
    });
    setup.dialogs.confirm.mockReturnValue(false);
    fireEvent.click(screen.getByTestId('i-received'));
    await settle();
    expect(setup.dialogs.confirm).toHaveBeenCalledWith(
      'Confirm that 51.4774 USDC arrived in your wallet 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed. The order is then completed.',
    );
    expect(api.callsTo('POST', `/api/orders/${ID}/office-confirm`)).toHaveLength(0);
  });
});

describe('the details of an order that ended', () => {
  it('a rejection reads the catalogue reason and the operator text; money and support come first', async () => {
    await open('details', {
      status: 'REJECTED',
      rejectReasonCode: 'amount_mismatch',
      rejectReason: 'Paid 4 900 instead of 5 000',
    });
    expect(screen.getByTestId('reject-reason').textContent).toContain(
      'The amount paid does not match the order: Paid 4 900 instead of 5 000',
    );
    const note = screen.getByTestId('money-note');
    expect(noteLines(note)).toEqual(['Your money', MONEY_BUY_EN]);
    const support = screen.getByTestId('order-support');
    const status = screen.getByTestId('detail-status');
    expect(support.compareDocumentPosition(status) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getAllByTestId('order-support')).toHaveLength(1);
  });

  it('in Russian', async () => {
    await open(
      'details',
      { status: 'REJECTED', rejectReasonCode: 'payment_not_received', rejectReason: null },
      { language: 'ru' },
    );
    expect(screen.getByTestId('reject-reason').textContent).toContain('Оплата не поступила');
    expect(screen.getByTestId('money-note').textContent).toContain('Не оплачивайте этот заказ');
  });

  it('cancelled because no operator answered: nothing was charged', async () => {
    await open('details', { status: 'CANCELLED', cancelReason: 'no_operator' });
    expect(screen.getByTestId('money-note').textContent).toContain(
      'Nothing was charged: you can create a new order.',
    );
  });

  it("a sell refunded on appeal reads the decision, not 'contact support', and where the refund went on the explorer", async () => {
    await open('details', {
      ...SELL,
      ...refundedOnAppeal('Returned to the sending address', {
        refundDetails: null,
        refundTxHash: TRON_HASH,
      }),
    });
    expect(screen.queryByTestId('money-note')).toBeNull();
    expect(screen.queryByText(MONEY_SELL_EN)).toBeNull();
    expect(screen.getByTestId('appeal-decided').dataset.decision).toBe('refund');
    expect(screen.getByTestId('refund-tx').textContent).toContain(TRON_HASH);
    expect(screen.getByTestId('refund-tx-explorer').dataset.href).toBe(
      `https://tronscan.org/#/transaction/${TRON_HASH}`,
    );
  });

  it('a buy refunded on appeal (ru) names where the money went, as the senior operator wrote it', async () => {
    await open(
      'details',
      refundedOnAppeal('Вернули', {
        refundDetails: 'Карта •• 6781, платёж 4417',
        refundTxHash: null,
      }),
      { language: 'ru' },
    );
    expect(screen.queryByTestId('money-note')).toBeNull();
    expect(screen.getByTestId('refund-details').textContent).toContain(
      'Куда отправленКарта •• 6781, платёж 4417',
    );
    expect(screen.queryByTestId('refund-tx')).toBeNull();
  });

  it('a completed order speaks in the past tense and its hashes open on the block explorer', async () => {
    await open('details', {
      ...SELL,
      status: 'COMPLETED',
      txHash: TRON_HASH,
    });
    expect(screen.queryByTestId('money-note')).toBeNull();
    expect(screen.getByTestId('pay-amount').textContent).toContain('You sent');
    expect(screen.getByTestId('get-amount').textContent).toContain('You received');
    const link = screen.getByTestId('incoming-tx-explorer');
    expect(link.dataset['href']).toBe(`https://tronscan.org/#/transaction/${TRON_HASH}`);
    fireEvent.click(link);
    expect(setup.dialogs.open).toHaveBeenCalledWith(
      `https://tronscan.org/#/transaction/${TRON_HASH}`,
      '_blank',
      'noopener,noreferrer',
    );
  });

  it('in Russian: "Вы заплатили", "Вы получили"', async () => {
    await open(
      'details',
      { status: 'COMPLETED', outgoingTxHash: `0x${'ab'.repeat(32)}` },
      { language: 'ru' },
    );
    expect(screen.getByTestId('pay-amount').textContent).toContain('Вы заплатили');
    expect(screen.getByTestId('get-amount').textContent).toContain('Вы получили');
    expect(screen.getByTestId('outgoing-tx-explorer').dataset['href']).toBe(
      `https://basescan.org/tx/0x${'ab'.repeat(32)}`,
    );
  });
});

describe('the history sets apart the orders waiting for their customer', () => {
  it('requisites ready: pay; waiting for crypto: send; the others only wait', async () => {
    serveHistory([
      orderSummary({ id: 'pay', status: 'REQUISITES_READY' }),
      orderSummary({ id: 'send', type: 'SELL', status: 'WAITING_CRYPTO' }),
      orderSummary({ id: 'wait', status: 'WAITING_REQUISITES' }),
      orderSummary({ id: 'done', status: 'COMPLETED' }),
    ]);
    renderApp('/my-orders', { language: 'en' });
    await settle();
    const card = (id: string) => document.querySelector<HTMLElement>(`[data-order-id="${id}"]`);
    expect(card('pay')?.dataset['yourTurn']).toBe('true');
    expect(card('pay')?.textContent).toContain('Pay for the order');
    expect(card('send')?.textContent).toContain('Send the crypto');
    expect(card('wait')?.dataset['yourTurn']).toBeUndefined();
    expect(card('done')?.dataset['yourTurn']).toBeUndefined();
  });
});

describe('at the active-order limit (TOO_MANY_ACTIVE_ORDERS)', () => {
  it('the form shows the open orders, each a tap away', async () => {
    fakeApi([
      { method: 'GET', path: '/api/rates/calculate', reply: { json: { rate: 97.13 } } },
      {
        method: 'POST',
        path: '/api/orders/create',
        reply: {
          status: 409,
          json: { error: 'Too many', code: 'TOO_MANY_ACTIVE_ORDERS', max: 5 },
        },
      },
      {
        method: 'GET',
        path: '/api/orders/active',
        reply: {
          json: {
            orders: [
              orderSummary({ id: 'open-1', status: 'REQUISITES_READY' }),
              orderSummary({ id: 'open-2', status: 'WAITING_REQUISITES' }),
            ],
          },
        },
      },
    ]);
    sessionStorage.setItem('selectedCurrency', JSON.stringify({ code: 'RUB', symbol: '₽' }));
    const app = renderApp('/p2p/buy', { language: 'en' });
    await advance(1_000);
    type('fiatAmount', '5000');
    type('walletAddress', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    await advance(1_000);
    expect(input('fiatAmount').value).toBe('5000');
    fireEvent.click(screen.getByTestId('continue'));
    await settle();
    await settle();
    const panel = screen.getByTestId('open-orders');
    expect(panel.textContent).toContain('Too many active orders. Complete or cancel one first.');
    expect(setup.dialogs.alert).not.toHaveBeenCalled();
    const cards = within(panel).getAllByText(
      (_, element) => element?.hasAttribute('data-order-id') ?? false,
    );
    expect(cards.map((c) => c.dataset['orderId'])).toEqual(['open-1', 'open-2']);
    fireEvent.click(cards[0] as HTMLElement);
    expect(app.currentPath()).toBe('/order/open-1/payment');
  });
});
