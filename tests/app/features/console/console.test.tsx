/**
 * The operator console's screens with the API faked: the entry on /currencies only
 * for operators, the queue's groups and rows, and on the order screen the actions of each status,
 * their forms (the card checked by Luhn, the bank form prefilled from the default account), the
 * status the operator saw sent with every action, and what a stale view is told.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { OrderDetails } from '../../../../src/shared/api';
import type { AppealReason } from '../../../../src/shared/appeals';
import type {
  IncomingDeposit,
  OperatorIncomingResponse,
  OperatorAppealResponse,
  OperatorOrderResponse,
  OperatorOrderRow,
  OperatorQueueResponse,
} from '../../../../src/shared/operator-api';
import { AUTOPILOT_OPERATOR_ID } from '../../../../src/shared/operator-api';
import { QUEUE_GROUPS } from '../../../../src/shared/operator-queue';
import type { OrderStatus } from '../../../../src/shared/order-status';
import { localeOf } from '../../../../src/shared/format';
import {
  FIXTURE_BANK,
  FIXTURE_NOW,
  iso,
  makeOrder,
  orderSummary,
} from '../../../helpers/order-fixtures';
import {
  advance,
  fakeApi,
  renderApp,
  setUpScreenTests,
  settle,
  type FakeApi,
  type FakeRoute,
} from '../../../helpers/render-app';

const ID = '3f9c2a7b-61d4-4e0a-9b7c-2d5e8f1a0c34';
const MINUTE = 60_000;
const CUSTOMER = { telegramId: 200_000_001, firstName: 'Алиса', lastName: null, username: 'alice' };

const setup = setUpScreenTests(FIXTURE_NOW);

/** The console asks who the caller is before it shows anything. */
const ME_OPERATOR: FakeRoute = {
  method: 'GET',
  path: '/api/me',
  reply: { json: { telegramId: 300_000_001, firstName: 'Olga', operator: true } },
};

/** The API the console's screens call, answered for an operator. */
const fakeConsoleApi = (routes: readonly FakeRoute[]) => fakeApi([ME_OPERATOR, ...routes]);

function row(fields: Partial<OperatorOrderRow> = {}): OperatorOrderRow {
  return {
    ...orderSummary({ id: ID }),
    customer: CUSTOMER,
    deadline: null,
    flags: [],
    appealOpenedAt: null,
    ...fields,
  };
}

function view(order: Partial<OrderDetails>, fields: Partial<OperatorOrderResponse> = {}) {
  const full = makeOrder({ id: ID, ...order });
  const answer: OperatorOrderResponse = {
    order: full,
    customer: { ...CUSTOMER, languageCode: 'ru', firstSeenAt: iso(FIXTURE_NOW), orderCount: 3 },
    deadline: full.expiresAt,
    endedAt: null,
    flags: [],
    payoutCard: null,
    events: [],
    receipts: [],
    offices: [],
    defaultBankAccount: null,
    messages: [],
    chainChecked: false,
    incoming: [],
    ...fields,
  };
  return answer;
}

function serveConsoleOrder(answer: OperatorOrderResponse): FakeApi {
  return fakeConsoleApi([
    { method: 'GET', path: `/api/operator/orders/${ID}`, reply: { json: answer } },
    ...(
      [
        'requisites',
        'office-instructions',
        'confirm-payment',
        'confirm-tx',
        'complete',
        'reject',
      ] as const
    ).map((action) => ({
      method: 'POST' as const,
      path: `/api/operator/orders/${ID}/${action}`,
      reply: { json: { success: true, status: 'COMPLETED' } },
    })),
  ]);
}

/** An open appeal as the status answer carries it. */
const openAppeal = (reason: AppealReason) =>
  ({
    state: 'open',
    reason,
    openedAt: iso(FIXTURE_NOW),
    decision: null,
    outcome: null,
    decidedAt: null,
    refundDetails: null,
    refundTxHash: null,
  }) as const;

async function openOrder(
  answer: OperatorOrderResponse,
  language: 'en' | 'ru' = 'en',
  appeal?: OperatorAppealResponse,
) {
  const api = serveConsoleOrder(answer);
  if (appeal !== undefined) {
    api.on('GET', `/api/operator/orders/${ID}/appeal`, { json: appeal });
    api.on('POST', `/api/operator/orders/${ID}/appeal/decision`, {
      json: { success: true, status: 'REJECTED' },
    });
  }
  const app = renderApp(`/console/orders/${ID}`, { language });
  await settle();
  return { api, app };
}

const type = (name: string, value: string) => {
  const input = document.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`);
  if (input === null) throw new Error(`no field ${name}`);
  fireEvent.change(input, { target: { value } });
};
const press = async (testId: string) => {
  fireEvent.click(screen.getByTestId(testId));
  await settle();
  await settle();
};

describe('the console entry on /currencies', () => {
  it.each([
    [true, 'shows'],
    [false, 'hides'],
  ])('operator %s: %s the entry', async (operator) => {
    fakeApi([
      {
        method: 'GET',
        path: '/api/me',
        reply: { json: { telegramId: 1, firstName: 'A', operator } },
      },
    ]);
    const app = renderApp('/currencies', { language: 'en' });
    await settle();
    const entry = screen.queryByTestId('console-entry');
    expect(entry !== null).toBe(operator);
    if (entry !== null) {
      expect(entry.textContent).toBe('Operator console');
      fireEvent.click(entry);
      expect(app.currentPath()).toBe('/console');
    }
  });
});

describe('who gets the console', () => {
  it.each(['/console', '/console/rates', '/console/orders', `/console/orders/${ID}`])(
    'a customer who is not an operator and opens %s gets the not-found screen, and no operator call is made',
    async (path) => {
      const api = fakeApi([
        {
          method: 'GET',
          path: '/api/me',
          reply: { json: { telegramId: 200_000_001, firstName: 'Алиса', operator: false } },
        },
      ]);
      renderApp(path, { language: 'en' });
      await settle();
      expect(document.querySelector('[data-screen="not-found"]')).not.toBeNull();
      expect(document.body.textContent).toContain('Page not found');
      expect(document.querySelector('[data-screen^="console"]')).toBeNull();
      expect(api.callsTo('GET', /^\/api\/operator\//)).toEqual([]);
    },
  );

  it('while the app cannot ask who the caller is, it says so and shows no console; retry asks again', async () => {
    const api = fakeApi([{ method: 'GET', path: '/api/me', reply: 'network-error' }]);
    renderApp('/console', { language: 'en' });
    await settle();
    expect(document.querySelector('[data-screen="console-unavailable"]')).not.toBeNull();
    expect(document.querySelector('[data-screen="console-queue"]')).toBeNull();
    expect(api.callsTo('GET', /^\/api\/operator\//)).toEqual([]);
    api.on('GET', '/api/me', ME_OPERATOR.reply);
    api.on('GET', '/api/operator/queue', {
      json: { serverTime: iso(FIXTURE_NOW), groups: [] } satisfies OperatorQueueResponse,
    });
    await press('console-retry');
    expect(document.querySelector('[data-screen="console-queue"]')).not.toBeNull();
    expect(api.callsTo('GET', '/api/me')).toHaveLength(2);
  });
});

describe('the queue', () => {
  const answer: OperatorQueueResponse = {
    serverTime: iso(FIXTURE_NOW),
    groups: QUEUE_GROUPS.map((group) => ({
      group,
      count: group === 'requisites' ? 2 : group === 'flagged' ? 1 : 0,
      orders:
        group === 'requisites'
          ? [
              row({ deadline: iso(FIXTURE_NOW + 5 * MINUTE) }),
              row({ id: 'second', deadline: iso(FIXTURE_NOW - 2 * MINUTE) }),
            ]
          : group === 'flagged'
            ? [row({ id: 'second', flags: ['waitingTooLong'] })]
            : [],
    })),
  };

  it('shows each group with its count; rows with the customer, the time left or overdue, and flags', async () => {
    const api = fakeConsoleApi([
      { method: 'GET', path: '/api/operator/queue', reply: { json: answer } },
    ]);
    const app = renderApp('/console', { language: 'en' });
    await settle();
    const headers = [...document.querySelectorAll('[data-queue-group] header')].map(
      (h) => h.textContent,
    );
    expect(headers).toEqual([
      'Appeals · 0',
      'Give requisites · 2',
      'Give office instructions · 0',
      'Check payments · 0',
      'Confirm transactions · 0',
      'Make payouts · 0',
      'Need attention · 1',
    ]);
    const first = document.querySelector<HTMLElement>(`[data-console-order="${ID}"]`);
    expect(first?.textContent).toContain('Алиса · @alice');
    expect(first?.textContent).toContain('5:00 left');
    const overdue = document.querySelector(
      '[data-queue-group="requisites"] [data-console-order="second"]',
    );
    expect(overdue?.textContent).toContain('2:00 overdue');
    expect(
      document.querySelector('[data-queue-group="flagged"] [data-flag="waitingTooLong"]')
        ?.textContent,
    ).toBe('Waiting for an operator over 10 minutes');
    expect(api.callsTo('GET', '/api/operator/queue')).toHaveLength(1);
    await advance(10_000);
    expect(api.callsTo('GET', '/api/operator/queue')).toHaveLength(2);
    fireEvent.click(first as HTMLElement);
    expect(app.currentPath()).toBe(`/console/orders/${ID}`);
  });
});

describe('the order: the actions of its status', () => {
  const cases: readonly [OrderStatus, Partial<OrderDetails>, string | null][] = [
    ['WAITING_REQUISITES', {}, 'card-form'],
    ['WAITING_REQUISITES', { paymentMethod: 'BANK_ACCOUNT' }, 'bank-form'],
    ['OFFICE_PENDING', { paymentMethod: 'OFFICE' }, 'office-form'],
    ['RECEIPT_UPLOADED', {}, 'confirm-payment'],
    ['PAYMENT_PENDING', {}, 'confirm-payment'],
    ['TX_PENDING', { type: 'SELL' }, 'confirm-tx'],
    ['PAYMENT_CONFIRMED', {}, 'complete-form'],
    ['TX_CONFIRMED', { type: 'SELL' }, 'complete'],
    ['OFFICE_READY', { paymentMethod: 'OFFICE' }, 'complete'],
    ['REQUISITES_READY', {}, null],
    ['WAITING_CRYPTO', { type: 'SELL' }, null],
  ];
  it.each(cases)('%s %o: %s, and reject', async (status, fields, action) => {
    await openOrder(view({ status, ...fields }));
    if (action !== null) expect(screen.getByTestId(action)).not.toBeNull();
    expect(screen.getByTestId('reject-form')).not.toBeNull();
  });

  it.each(['COMPLETED', 'CANCELLED', 'REJECTED'] as const)(
    '%s: no actions at all',
    async (status) => {
      await openOrder(view({ status }));
      expect(screen.queryByTestId('console-actions')).toBeNull();
      expect(screen.getByTestId('console-status').dataset['status']).toBe(status);
    },
  );
});

describe('the time of an order: when it ended, or its countdown', () => {
  it('a final order shows when it ended, not a countdown; an active one counts down', async () => {
    const endedAt = iso(FIXTURE_NOW - 3 * MINUTE);
    await openOrder(view({ status: 'COMPLETED' }, { deadline: null, endedAt }));
    expect(screen.queryByTestId('console-deadline')).toBeNull();
    const ended = screen.getByTestId('console-ended');
    expect(ended.textContent).toContain('Closed');
    expect(ended.textContent).toContain(
      new Intl.DateTimeFormat(localeOf('en'), { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date(endedAt),
      ),
    );
  });

  it('an active order shows the time left to its deadline and no end', async () => {
    await openOrder(
      view({ status: 'REQUISITES_READY' }, { deadline: iso(FIXTURE_NOW + 29 * MINUTE) }),
      'ru',
    );
    expect(screen.queryByTestId('console-ended')).toBeNull();
    expect(screen.getByTestId('console-deadline').textContent).toContain('осталось 29:00');
  });
});

describe('the forms', () => {
  it('card requisites: a card failing the Luhn check is refused in the form; a good one is sent with the status seen', async () => {
    const { api } = await openOrder(view({ status: 'WAITING_REQUISITES' }));
    type('cardNumber', '2200 7001 2345 6780');
    type('bankName', 'T-Bank');
    type('cardHolder', 'IVAN PETROV');
    await press('give-card');
    expect(screen.getByTestId('error-cardNumber').textContent).toBe(
      'Check the card number: 16 digits, no typos',
    );
    expect(api.callsTo('POST', `/api/operator/orders/${ID}/requisites`)).toHaveLength(0);
    type('cardNumber', '2200 7001 2345 6781');
    await press('give-card');
    expect(api.callsTo('POST', `/api/operator/orders/${ID}/requisites`)[0]?.body).toEqual({
      cardNumber: '2200700123456781',
      bankName: 'T-Bank',
      cardHolder: 'IVAN PETROV',
      expectedStatus: 'WAITING_REQUISITES',
    });
    expect(screen.getByTestId('console-notice').textContent).toBe(
      'Done: the order is now “Completed”',
    );
  });

  it('bank requisites come prefilled from the default account; an empty beneficiary is not sent', async () => {
    const { api } = await openOrder(
      view(
        { status: 'WAITING_REQUISITES', paymentMethod: 'BANK_ACCOUNT' },
        { defaultBankAccount: { ...FIXTURE_BANK } },
      ),
    );
    expect(document.querySelector<HTMLInputElement>('[name="bik"]')?.value).toBe(FIXTURE_BANK.bik);
    type('beneficiaryName', '');
    type('beneficiaryAccount', '');
    await press('give-bank');
    const body = api.callsTo('POST', `/api/operator/orders/${ID}/requisites`)[0]?.body;
    expect(body).toMatchObject({
      recipientName: FIXTURE_BANK.recipientName,
      bik: FIXTURE_BANK.bik,
    });
    expect(body).not.toHaveProperty('beneficiaryName');
  });

  it('complete checks the outgoing hash for the network before sending it', async () => {
    const { api } = await openOrder(view({ status: 'PAYMENT_CONFIRMED', network: 'TRC20' }));
    type('txHash', `0x${'a'.repeat(64)}`);
    await press('complete');
    expect(screen.getByTestId('error-txHash').textContent).toBe(
      'Invalid transaction hash for TRC20',
    );
    type('txHash', 'a'.repeat(64));
    await press('complete');
    expect(setup.dialogs.confirm).toHaveBeenCalledTimes(1);
    expect(api.callsTo('POST', `/api/operator/orders/${ID}/complete`)[0]?.body).toEqual({
      outgoingTxHash: 'a'.repeat(64),
      expectedStatus: 'PAYMENT_CONFIRMED',
    });
  });

  it('confirm payment asks first, naming the order and the amount; declined, nothing is sent', async () => {
    const { api } = await openOrder(view({ status: 'RECEIPT_UPLOADED' }));
    setup.dialogs.confirm.mockReturnValue(false);
    await press('confirm-payment');
    expect(setup.dialogs.confirm).toHaveBeenCalledWith(
      'Did the money of order #3f9c2a7b (₽5,000) arrive? The customer then gets the crypto.',
    );
    expect(api.callsTo('POST', `/api/operator/orders/${ID}/confirm-payment`)).toHaveLength(0);
    setup.dialogs.confirm.mockReturnValue(true);
    await press('confirm-payment');
    expect(api.callsTo('POST', `/api/operator/orders/${ID}/confirm-payment`)[0]?.body).toEqual({
      expectedStatus: 'RECEIPT_UPLOADED',
    });
  });

  it.each([
    [
      'en',
      'Complete order #3f9c2a7b? You sent 51.4774 USDC on Base to the customer’s wallet 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed.',
    ],
    [
      'ru',
      'Завершить заказ №3f9c2a7b? Вы отправили 51,4774 USDC в сети Base на кошелёк клиента 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed.',
    ],
  ] as const)(
    'completing a buy with the outgoing hash asks first (%s), naming the amount, the coin, the network and the wallet; declined, nothing is sent',
    async (language, question) => {
      const { api } = await openOrder(view({ status: 'PAYMENT_CONFIRMED' }), language);
      const hash = `0x${'b'.repeat(64)}`;
      type('txHash', hash);
      setup.dialogs.confirm.mockReturnValue(false);
      await press('complete');
      expect(setup.dialogs.confirm).toHaveBeenCalledWith(question);
      expect(api.callsTo('POST', `/api/operator/orders/${ID}/complete`)).toHaveLength(0);
      expect(document.querySelector<HTMLInputElement>('[name="txHash"]')?.value).toBe(hash);
      setup.dialogs.confirm.mockReturnValue(true);
      await press('complete');
      expect(api.callsTo('POST', `/api/operator/orders/${ID}/complete`)[0]?.body).toEqual({
        outgoingTxHash: hash,
        expectedStatus: 'PAYMENT_CONFIRMED',
      });
    },
  );

  it.each([
    [
      'ru',
      'Консоль открыта слишком давно для действий с деньгами. Закройте её и откройте заново, затем повторите: введённое сохранится.',
    ],
    [
      'en',
      'The console was opened too long ago for an action that moves money. Close it, open it again and repeat: what you typed is kept.',
    ],
  ] as const)(
    'init data too old for money (OPERATOR_REOPEN, %s): the typed hash stays, the console asks to be reopened, and the reopened console has the hash again',
    async (language, message) => {
      const { api, app } = await openOrder(view({ status: 'PAYMENT_CONFIRMED' }), language);
      api.on('POST', `/api/operator/orders/${ID}/complete`, {
        status: 401,
        json: { error: 'x', code: 'OPERATOR_REOPEN' },
      });
      const hash = `0x${'c'.repeat(64)}`;
      type('txHash', hash);
      await press('complete');
      const notice = screen.getByTestId('console-notice');
      expect(notice.dataset['kind']).toBe('reopen');
      expect(notice.textContent).toBe(message);
      await advance(6_000);
      expect(document.querySelector<HTMLInputElement>('[name="txHash"]')?.value).toBe(hash);

      app.unmount();
      await openOrder(view({ status: 'PAYMENT_CONFIRMED' }), language);
      expect(document.querySelector<HTMLInputElement>('[name="txHash"]')?.value).toBe(hash);
    },
  );

  it('the drafts of an order are forgotten once it has ended', async () => {
    localStorage.setItem(`console_draft:${ID}:complete`, JSON.stringify({ txHash: 'a' }));
    localStorage.setItem('console_draft:other-order:complete', JSON.stringify({ txHash: 'b' }));
    await openOrder(view({ status: 'CANCELLED' }));
    expect(localStorage.getItem(`console_draft:${ID}:complete`)).toBeNull();
    expect(localStorage.getItem('console_draft:other-order:complete')).not.toBeNull();
  });

  it('the draft of a form is forgotten once its action is done', async () => {
    const { app } = await openOrder(view({ status: 'PAYMENT_CONFIRMED' }));
    type('txHash', `0x${'d'.repeat(64)}`);
    await press('complete');
    expect(screen.getByTestId('console-notice').dataset['kind']).toBe('done');
    app.unmount();
    await openOrder(view({ status: 'PAYMENT_CONFIRMED' }));
    expect(document.querySelector<HTMLInputElement>('[name="txHash"]')?.value).toBe('');
  });

  it('reject sends the catalogue reason and the comment, after a confirmation', async () => {
    const { api } = await openOrder(view({ status: 'RECEIPT_UPLOADED' }), 'ru');
    const select = document.querySelector<HTMLSelectElement>('select[name="reasonCode"]');
    fireEvent.change(select as HTMLSelectElement, { target: { value: 'amount_mismatch' } });
    type('reason', 'Пришло 4 900 ₽');
    await press('reject');
    expect(setup.dialogs.confirm).toHaveBeenCalledWith('Отклонить заказ №3f9c2a7b?');
    expect(api.callsTo('POST', `/api/operator/orders/${ID}/reject`)[0]?.body).toEqual({
      reasonCode: 'amount_mismatch',
      reason: 'Пришло 4 900 ₽',
      expectedStatus: 'RECEIPT_UPLOADED',
    });
  });

  it('an order under appeal shows a senior operator only the decision form; a refund of a buy asks for its details and sends them with the outcome', async () => {
    const appeal = openAppeal('payment_not_confirmed');
    const { api } = await openOrder(view({ status: 'RECEIPT_UPLOADED', appeal }), 'en', {
      appeal: { ...appeal, text: 'I paid at 12:03', evidence: [], decidedBy: null },
      senior: true,
      decisions: ['complete', 'refund', 'uphold'],
    });
    expect(screen.getByTestId('console-appeal-text').textContent).toContain('I paid at 12:03');
    expect(screen.queryByTestId('reject-form')).toBeNull();
    const select = document.querySelector<HTMLSelectElement>('select[name="decision"]');
    const options = [...(select?.options ?? [])].map((o) => o.textContent);
    expect(options).toEqual(['Complete the order', 'Refund the customer', 'Uphold the rejection']);
    fireEvent.change(select as HTMLSelectElement, { target: { value: 'refund' } });
    await advance(0);
    type('refundDetails', 'Card •• 6781, refund 4417');
    type('outcome', 'We returned your payment');
    await press('appeal-decide');
    expect(setup.dialogs.confirm).toHaveBeenCalledWith('Decide the appeal of order #3f9c2a7b?');
    expect(api.callsTo('POST', `/api/operator/orders/${ID}/appeal/decision`)[0]?.body).toEqual({
      decision: 'refund',
      refundDetails: 'Card •• 6781, refund 4417',
      outcome: 'We returned your payment',
      expectedStatus: 'RECEIPT_UPLOADED',
    });
  });

  it('an order under appeal shows an operator who is not senior the appeal and that a senior operator decides it, with no form', async () => {
    const appeal = openAppeal('rejected_wrongly');
    await openOrder(view({ status: 'REJECTED', appeal }), 'ru', {
      appeal: { ...appeal, text: 'Я оплатил', evidence: [], decidedBy: null },
      senior: false,
      decisions: ['refund', 'uphold'],
    });
    expect(screen.getByTestId('console-appeal').textContent).toContain(
      'Апелляция: Заказ отклонён по ошибке',
    );
    expect(screen.getByTestId('console-appeal-senior').textContent).toBe(
      'Апелляцию решает старший оператор.',
    );
    expect(screen.queryByTestId('appeal-decision-form')).toBeNull();
  });

  it('another operator acted first: told plainly with the status the order has now', async () => {
    const { api } = await openOrder(view({ status: 'RECEIPT_UPLOADED' }), 'ru');
    api.on('POST', `/api/operator/orders/${ID}/confirm-payment`, {
      status: 409,
      json: { error: 'x', code: 'INVALID_STATUS', status: 'REJECTED' },
    });
    await press('confirm-payment');
    const notice = screen.getByTestId('console-notice');
    expect(notice.dataset['kind']).toBe('stale');
    expect(notice.textContent).toBe(
      'Другой оператор уже изменил заказ: теперь он «Отклонён». Данные обновлены.',
    );
    expect(api.callsTo('GET', `/api/operator/orders/${ID}`).length).toBeGreaterThan(1);
  });
});

describe('rates and spreads', () => {
  const RATES = {
    rates: [
      {
        fiat: 'RUB',
        crypto: 'USDT',
        baseRate: 95.4,
        updatedAt: iso(FIXTURE_NOW),
        updatedBy: 300_000_001,
      },
    ],
    spreads: [
      {
        paymentMethod: 'P2P',
        operation: 'BUY',
        spreadBp: 250,
        updatedAt: iso(FIXTURE_NOW),
        updatedBy: null,
      },
    ],
  };
  const serveRates = () =>
    fakeConsoleApi([
      { method: 'GET', path: '/api/operator/rates', reply: { json: RATES } },
      { method: 'PUT', path: '/api/operator/rates', reply: { json: RATES } },
      { method: 'PUT', path: '/api/operator/spreads', reply: { json: RATES } },
    ]);
  const typeIn = (testId: string, value: string) => {
    const input = screen.getByTestId(testId).querySelector('input');
    fireEvent.change(input as HTMLInputElement, { target: { value } });
  };

  it('show who changed each and when; 5% or less is saved at once', async () => {
    const api = serveRates();
    renderApp('/console/rates', { language: 'en' });
    await settle();
    expect(screen.getByTestId('rate-RUB-USDT').textContent).toContain(
      'Changed by operator 300000001',
    );
    expect(screen.getByTestId('spread-P2P-BUY').textContent).toContain('Initial value');
    typeIn('rate-RUB-USDT', '99,5');
    await press('rate-RUB-USDT-save');
    expect(setup.dialogs.confirm).not.toHaveBeenCalled();
    expect(api.callsTo('PUT', '/api/operator/rates')[0]?.body).toEqual({
      fiat: 'RUB',
      crypto: 'USDT',
      baseRate: 99.5,
      confirmLargeChange: false,
    });
  });

  it('more than 5% asks a second time, naming the change; declined, nothing is saved', async () => {
    const api = serveRates();
    renderApp('/console/rates', { language: 'ru' });
    await settle();
    typeIn('rate-RUB-USDT', '120');
    setup.dialogs.confirm.mockReturnValue(false);
    await press('rate-RUB-USDT-save');
    expect(setup.dialogs.confirm.mock.calls[0]?.[0]?.replace(/\s/g, ' ')).toBe(
      'Курс RUB/USDT меняется с 95,4 на 120 (+25,8%). Это больше 5%: подтвердите ещё раз.',
    );
    expect(api.callsTo('PUT', '/api/operator/rates')).toHaveLength(0);
    setup.dialogs.confirm.mockReturnValue(true);
    await press('rate-RUB-USDT-save');
    expect(api.callsTo('PUT', '/api/operator/rates')[0]?.body).toMatchObject({
      baseRate: 120,
      confirmLargeChange: true,
    });
  });

  it('a rate refused for old init data (OPERATOR_REOPEN) asks to reopen the console, and the reopened console has the typed rate; only then is a draft kept', async () => {
    const api = serveRates();
    api.on('PUT', '/api/operator/rates', {
      status: 401,
      json: { error: 'x', code: 'OPERATOR_REOPEN' },
    });
    const first = renderApp('/console/rates', { language: 'en' });
    await settle();
    typeIn('rate-RUB-USDT', '97');
    await press('rate-RUB-USDT-save');
    expect(screen.getByTestId('rate-RUB-USDT-error').textContent).toContain(
      'The console was opened too long ago for an action that moves money.',
    );
    first.unmount();
    const second = renderApp('/console/rates', { language: 'en' });
    await settle();
    const input = () => screen.getByTestId('rate-RUB-USDT').querySelector('input');
    expect(input()?.value).toBe('97');
    // Saved at last: the draft goes, and the current rate shows again.
    api.on('PUT', '/api/operator/rates', { json: RATES });
    await press('rate-RUB-USDT-save');
    second.unmount();
    renderApp('/console/rates', { language: 'en' });
    await settle();
    expect(input()?.value).toBe('95.4');
  });

  it('a spread is typed in percent and saved in basis points; not a number is refused in place', async () => {
    const api = serveRates();
    renderApp('/console/rates', { language: 'en' });
    await settle();
    typeIn('spread-P2P-BUY', '30');
    await press('spread-P2P-BUY-save');
    expect(screen.getByTestId('spread-P2P-BUY-error').textContent).toBe(
      'Enter a percentage from 0 to 20, e.g. 2.5',
    );
    typeIn('spread-P2P-BUY', '1,75');
    await press('spread-P2P-BUY-save');
    expect(api.callsTo('PUT', '/api/operator/spreads')[0]?.body).toEqual({
      paymentMethod: 'P2P',
      operation: 'BUY',
      spreadBp: 175,
    });
    typeIn('rate-RUB-USDT', 'ninety');
    await press('rate-RUB-USDT-save');
    expect(screen.getByTestId('rate-RUB-USDT-error').textContent).toBe(
      'Enter a number, e.g. 95.40',
    );
  });
});

describe('search', () => {
  it('asks with what is set: the text after a pause in typing, the pickers at once; load more pages on', async () => {
    const api = fakeConsoleApi([
      {
        method: 'GET',
        path: '/api/operator/orders',
        reply: { json: { orders: [row()], hasMore: true } },
      },
    ]);
    const app = renderApp('/console/orders', { language: 'en' });
    await settle();
    const queries = () =>
      api.callsTo('GET', '/api/operator/orders').map((c) => Object.fromEntries(c.query));
    expect(queries()).toEqual([{ limit: '20', offset: '0' }]);
    type('q', '@ali');
    await advance(399);
    expect(queries()).toHaveLength(1);
    await advance(1);
    expect(queries().at(-1)).toEqual({ q: '@ali', limit: '20', offset: '0' });
    const status = document.querySelector<HTMLSelectElement>('select[name="status"]');
    fireEvent.change(status as HTMLSelectElement, { target: { value: 'attention' } });
    await settle();
    expect(queries().at(-1)).toEqual({
      q: '@ali',
      status: 'attention',
      limit: '20',
      offset: '0',
    });
    await press('search-more');
    expect(queries().slice(-2)).toEqual([
      { q: '@ali', status: 'attention', limit: '20', offset: '0' },
      { q: '@ali', status: 'attention', limit: '20', offset: '20' },
    ]);
    fireEvent.click(document.querySelector(`[data-console-order="${ID}"]`) as HTMLElement);
    expect(app.currentPath()).toBe(`/console/orders/${ID}`);
  });

  it('says when nothing is found', async () => {
    fakeConsoleApi([
      {
        method: 'GET',
        path: '/api/operator/orders',
        reply: { json: { orders: [], hasMore: false } },
      },
    ]);
    renderApp('/console/orders', { language: 'ru' });
    await settle();
    expect(document.body.textContent).toContain('Ничего не найдено');
  });
});

describe("the bot's messages of the order", () => {
  const messages: OperatorOrderResponse['messages'] = [
    {
      id: 1,
      to: 'operators',
      kind: 'new_order',
      status: 'skipped',
      text: '🆕 Новый заказ №3f9c2a7b: покупка, перевод на карту',
      buttons: [],
      attempts: 0,
      lastError: 'demo mode: no BOT_TOKEN, nothing is sent',
      createdAt: iso(FIXTURE_NOW),
      sentAt: null,
    },
    {
      id: 2,
      to: 'customer',
      kind: 'requisites_ready',
      status: 'sent',
      text: 'Order #3f9c2a7b: the payment details are ready.\nTransfer ₽15,000 to the card',
      buttons: [{ text: 'Open the order', url: `https://t.me/exchange_bot?startapp=order_${ID}` }],
      attempts: 1,
      lastError: null,
      createdAt: iso(FIXTURE_NOW),
      sentAt: iso(FIXTURE_NOW),
    },
  ];

  it('lists each message as its recipient reads it, to whom, where it stands and why one was not sent', async () => {
    await openOrder(view({ status: 'REQUISITES_READY' }, { messages }));
    const section = screen.getByTestId('console-messages');
    const cells = section.querySelectorAll('[data-status]');
    expect([...cells].map((cell) => cell.getAttribute('data-status'))).toEqual(['skipped', 'sent']);
    expect(cells[0]?.textContent).toContain('To the operators · not sent');
    expect(cells[0]?.textContent).toContain('demo mode: no BOT_TOKEN, nothing is sent');
    expect(cells[1]?.textContent).toContain('To the customer · sent');
    expect(cells[1]?.textContent).toContain('Transfer ₽15,000 to the card');
    expect(cells[1]?.textContent).toContain('Buttons: Open the order');
  });

  it("shows nothing when the order has no message, and names the demo's autopilot in the history", async () => {
    await openOrder(
      view(
        { status: 'REQUISITES_READY' },
        {
          events: [
            {
              from: 'WAITING_REQUISITES',
              to: 'REQUISITES_READY',
              actor: 'operator',
              actorId: AUTOPILOT_OPERATOR_ID,
              reason: null,
              messageId: null,
              at: iso(FIXTURE_NOW),
            },
          ],
        },
      ),
      'ru',
    );
    expect(screen.queryByTestId('console-messages')).toBeNull();
    expect(screen.getByTestId('console-events').textContent).toContain('автопилот демо');
  });
  it('names a chat message in the history as a message, not as a change of status', async () => {
    await openOrder(
      view(
        { status: 'REQUISITES_READY' },
        {
          events: [
            {
              from: 'REQUISITES_READY',
              to: 'REQUISITES_READY',
              actor: 'customer',
              actorId: 200_000_001,
              reason: null,
              messageId: 7,
              at: iso(FIXTURE_NOW),
            },
          ],
        },
      ),
      'en',
    );
    const history = screen.getByTestId('console-events').textContent;
    expect(history).toContain("A message in the order's chat");
    expect(history).not.toContain('→');
  });
});

describe("the console tells how a sell's transaction is checked", () => {
  const sell = {
    type: 'SELL' as const,
    status: 'TX_PENDING' as const,
    network: 'BEP20' as const,
    txHash: `0x${'ab'.repeat(32)}`,
  };

  it('a network without a node: checked by hand, in an explorer', async () => {
    await openOrder(view(sell, { chainChecked: false }));
    expect(screen.getByTestId('console-chain-check').textContent).toContain(
      'Not checked on the chain: no node is configured for this network.',
    );
  });

  it('a network read from a node: what the chain sees, as the customer reads it', async () => {
    await openOrder(
      view(
        { ...sell, chainCheck: { state: 'seen', confirmations: 7, required: 15 } },
        { chainChecked: true },
      ),
      'ru',
    );
    expect(screen.getByTestId('console-chain-check').textContent).toContain(
      'Замечена в сети: 7\u00a0из\u00a015\u00a0подтверждений',
    );
  });
});

describe("the console confirms a sell's transaction by hand with a reason where the chain checks it", () => {
  const CONFIRM = `/api/operator/orders/${ID}/confirm-tx`;
  const pending = {
    type: 'SELL' as const,
    status: 'TX_PENDING' as const,
    network: 'ERC20' as const,
    txHash: `0x${'ab'.repeat(32)}`,
  };

  it.each([
    [
      'en',
      'This transaction is checked on the chain and the order confirms itself. To confirm it by hand, give the reason.',
    ],
    [
      'ru',
      'Эта транзакция проверяется в сети, и заказ подтвердится сам. Чтобы подтвердить её вручную, укажите причину.',
    ],
  ] as const)(
    'no reason typed (%s): nothing is sent, the form says a reason is needed',
    async (language, message) => {
      const { api } = await openOrder(view(pending, { chainChecked: true }), language);
      type('reason', '   ');
      await press('confirm-tx');
      expect(screen.getByTestId('error-reason').textContent).toBe(message);
      expect(api.callsTo('POST', CONFIRM)).toHaveLength(0);
    },
  );

  it('a reason typed is sent trimmed with the status seen', async () => {
    const { api } = await openOrder(view(pending, { chainChecked: true }));
    expect(screen.getByTestId('confirm-tx-form').textContent).toContain(
      'Confirm by hand only when the chain cannot be read',
    );
    type('reason', '  The node is down; the explorer shows 40 confirmations  ');
    await press('confirm-tx');
    expect(api.callsTo('POST', CONFIRM)[0]?.body).toEqual({
      reason: 'The node is down; the explorer shows 40 confirmations',
      expectedStatus: 'TX_PENDING',
    });
  });

  it('a network without a node: one tap, no reason asked, as before', async () => {
    const { api } = await openOrder(view(pending, { chainChecked: false }));
    // (The reject form's free text is its own `reason`, below.)
    expect(screen.queryByTestId('confirm-tx-form')).toBeNull();
    await press('confirm-tx');
    expect(api.callsTo('POST', CONFIRM)[0]?.body).toEqual({ expectedStatus: 'TX_PENDING' });
  });

  it("the server's refusal without a reason is told in the console's language", async () => {
    const { api } = await openOrder(view(pending, { chainChecked: false }), 'ru');
    api.on('POST', CONFIRM, { status: 400, json: { error: 'x', code: 'CONFIRM_REASON_REQUIRED' } });
    await press('confirm-tx');
    expect(screen.getByTestId('console-notice').textContent).toContain(
      'Чтобы подтвердить её вручную, укажите причину.',
    );
  });
});

describe('the console completes a buy whose payout is checked on the chain', () => {
  const COMPLETE = `/api/operator/orders/${ID}/complete`;
  const hash = `0x${'e'.repeat(64)}`;
  const paid = { status: 'PAYMENT_CONFIRMED' as const, network: 'BASE' as const };

  it.each([
    [
      'en',
      'TX_BEFORE_PAYMENT',
      "This transaction was made before the customer's payment was confirmed, so it cannot be this order's payout. Give the hash of the transfer sent for this order.",
    ],
    [
      'ru',
      'TX_BEFORE_PAYMENT',
      'Эта транзакция сделана раньше, чем подтверждена оплата клиента: она не может быть выплатой по этому заказу. Укажите хеш перевода, отправленного по этому заказу.',
    ],
    [
      'en',
      'TX_UNCONFIRMED',
      'The chain could not confirm this transaction yet: it is not found or the node does not answer. Try again in a minute, or complete with a reason.',
    ],
    [
      'ru',
      'TX_UNCONFIRMED',
      'Сеть пока не подтвердила эту транзакцию: она не найдена или узел не отвечает. Повторите через минуту или завершите с указанием причины.',
    ],
    [
      'en',
      'TX_WRONG_SENDER',
      "This transaction was not sent from the exchange's payout wallet: anyone could have made such a transfer, the customer included. Give the hash of the payout from the exchange's wallet, or complete with a reason.",
    ],
    [
      'ru',
      'TX_WRONG_SENDER',
      'Эта транзакция отправлена не с кошелька выплат обменника: такой перевод мог сделать кто угодно, в том числе сам клиент. Укажите хеш выплаты с кошелька обменника или завершите с указанием причины.',
    ],
  ] as const)(
    'a payout refused (%s, %s) is told as what is wrong, and the typed hash stays',
    async (language, code, message) => {
      const { api } = await openOrder(view(paid, { chainChecked: true }), language);
      api.on('POST', COMPLETE, {
        status: code === 'TX_UNCONFIRMED' ? 409 : 400,
        json: { error: 'x', code },
      });
      type('txHash', hash);
      await press('complete');
      const notice = screen.getByTestId('console-notice');
      expect(notice.dataset['kind']).toBe('error');
      expect(notice.textContent).toBe(message);
      expect(document.querySelector<HTMLInputElement>('[name="txHash"]')?.value).toBe(hash);
    },
  );

  it.each([
    [
      'en',
      'This transaction sends 1,000.5 USDT, far more than this order’s 100.05 USDT: most likely it is the hash of another transfer. Check the hash, or complete with a reason.',
    ],
    [
      'ru',
      'Эта транзакция переводит 1\u00a0000,5 USDT, намного больше 100,05 USDT по этому заказу: скорее всего, это хеш другого перевода. Проверьте хеш или завершите с указанием причины.',
    ],
  ] as const)(
    'a payout refused as TX_OVERPAID (%s) names what it sent and what the order expects, exactly',
    async (language, message) => {
      const { api } = await openOrder(view(paid, { chainChecked: true }), language);
      api.on('POST', COMPLETE, {
        status: 400,
        json: { error: 'x', code: 'TX_OVERPAID', coin: 'USDT', sent: '1000.5', expected: '100.05' },
      });
      type('txHash', hash);
      await press('complete');
      expect(screen.getByTestId('console-notice').textContent).toBe(message);
    },
  );

  it('a reason given completes anyway: overrideReason sent trimmed beside the hash', async () => {
    const { api } = await openOrder(view(paid, { chainChecked: true }));
    type('txHash', hash);
    type('overrideReason', '  Sent from the cold wallet; the node is down  ');
    await press('complete');
    expect(api.callsTo('POST', COMPLETE)[0]?.body).toEqual({
      outgoingTxHash: hash,
      overrideReason: 'Sent from the cold wallet; the node is down',
      expectedStatus: 'PAYMENT_CONFIRMED',
    });
  });

  it('no reason typed: no override is sent, the server checks the hash', async () => {
    const { api } = await openOrder(view(paid, { chainChecked: true }));
    type('txHash', hash);
    type('overrideReason', '   ');
    await press('complete');
    expect(api.callsTo('POST', COMPLETE)[0]?.body).toEqual({
      outgoingTxHash: hash,
      expectedStatus: 'PAYMENT_CONFIRMED',
    });
  });

  it('a network without a node: the form says the hash is not checked and asks no reason', async () => {
    await openOrder(view(paid, { chainChecked: false }));
    expect(screen.getByTestId('complete-form').textContent).toContain(
      'Not checked on the chain: no node is configured for this network.',
    );
    expect(document.querySelector('[name="overrideReason"]')).toBeNull();
  });

  it('a completed buy shows its payout on the chain as the customer reads it', async () => {
    await openOrder(
      view(
        {
          status: 'COMPLETED',
          outgoingTxHash: hash,
          chainCheck: { state: 'seen', confirmations: 2, required: 5 },
        },
        { chainChecked: true },
      ),
      'ru',
    );
    expect(screen.getByTestId('console-payout-check').textContent).toContain(
      'Выплата в сети: 2\u00a0из\u00a05\u00a0подтверждений',
    );
  });
});

describe('unmatched deposits, which came without a hash, on a sell waiting for its crypto', () => {
  const ATTACH = `/api/operator/orders/${ID}/attach-deposit`;
  const SENDER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  const TWINS = `0x${'ab'.repeat(32)}`;
  const LONELY = `0x${'cd'.repeat(32)}`;
  const SEEN = iso(FIXTURE_NOW - 7 * MINUTE);
  // 18 decimals (USDT on BSC): every digit is shown, none rounded away.
  const deposits: IncomingDeposit[] = [
    {
      network: 'BEP20',
      txHash: TWINS,
      coin: 'USDT',
      amount: '100.000000000000000001',
      sender: SENDER,
      blockNumber: 41,
      seenAt: SEEN,
      candidates: 2,
    },
    {
      network: 'BEP20',
      txHash: LONELY,
      coin: 'USDT',
      amount: '99.5',
      sender: SENDER,
      blockNumber: 40,
      seenAt: SEEN,
      candidates: 0,
    },
  ];
  const waiting = {
    type: 'SELL' as const,
    status: 'WAITING_CRYPTO' as const,
    network: 'BEP20' as const,
    cryptoCurrency: 'USDT' as const,
    amount: 100,
  };
  const seenText = (language: 'ru' | 'en') =>
    new Intl.DateTimeFormat(localeOf(language), {
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(SEEN));
  const incomingOf = (hash: string) =>
    document.querySelector<HTMLElement>(
      `[data-testid="console-incoming"] [data-incoming="${hash}"]`,
    );
  const attachOf = (hash: string) => {
    const button = incomingOf(hash)?.querySelector<HTMLElement>('[data-testid="attach-deposit"]');
    if (button === null || button === undefined) throw new Error(`no attach button for ${hash}`);
    return button;
  };
  const attach = async (hash: string) => {
    fireEvent.click(attachOf(hash));
    await settle();
    await settle();
  };

  it('lists each with its exact amount and coin, network, the sender whole (a poisoner imitates its start and end), the short hash (copied whole), when it arrived and how many orders it could be', async () => {
    await openOrder(view(waiting, { chainChecked: true, incoming: deposits }));
    const section = screen.getByTestId('console-incoming');
    expect(section.textContent).toContain('Unmatched deposits to the address');
    expect(section.textContent).toContain('compare its amount with the order’s (100 USDT)');
    const twins = incomingOf(TWINS);
    expect(twins?.textContent).toContain('100.000000000000000001 USDT · BEP20');
    expect(twins?.textContent).toContain(`Arrived ${seenText('en')}`);
    expect(twins?.textContent).toContain('Could be any of 2\u00a0orders');
    const sender = twins?.querySelector<HTMLElement>('[data-testid="incoming-sender"]');
    expect(sender?.textContent).toContain(SENDER);
    expect(sender?.dataset['copyValue']).toBe(SENDER);
    const hash = twins?.querySelector<HTMLElement>('[data-testid="incoming-hash"]');
    expect(hash?.textContent).toContain('0xabab…abab');
    expect(hash?.dataset['copyValue']).toBe(TWINS);
    expect(twins?.querySelector('[data-href]')?.getAttribute('data-href')).toBe(
      `https://bscscan.com/tx/${TWINS}`,
    );
    expect(incomingOf(LONELY)?.textContent).toContain('99.5 USDT · BEP20');
    expect(incomingOf(LONELY)?.textContent).toContain('Matches no order’s amount');
  });

  it('in Russian: the title, the amounts written the Russian way, the plural of the orders it could be', async () => {
    await openOrder(
      view(waiting, {
        chainChecked: true,
        incoming: [
          { ...deposits[0], candidates: 21 } as IncomingDeposit,
          deposits[1] as IncomingDeposit,
        ],
      }),
      'ru',
    );
    const section = screen.getByTestId('console-incoming');
    expect(section.textContent).toContain('Неопознанные поступления на адрес');
    expect(incomingOf(TWINS)?.textContent).toContain('100,000000000000000001 USDT · BEP20');
    expect(incomingOf(TWINS)?.textContent).toContain(`Поступил ${seenText('ru')}`);
    expect(incomingOf(TWINS)?.textContent).toContain('Может относиться к\u00a021\u00a0заказу');
    expect(incomingOf(LONELY)?.textContent).toContain('Не совпал по сумме ни с одним заказом');
    expect(attachOf(LONELY).textContent).toBe('Привязать к заказу');
  });

  it('attach asks first with the transfer’s amount beside the order’s; declined, nothing is sent; accepted, the hash is sent with the status seen and the order is read again', async () => {
    const { api } = await openOrder(view(waiting, { chainChecked: true, incoming: deposits }));
    api.on('POST', ATTACH, { json: { success: true, status: 'TX_PENDING' } });
    setup.dialogs.confirm.mockReturnValue(false);
    await attach(LONELY);
    expect(setup.dialogs.confirm).toHaveBeenCalledWith(
      'Attach this transfer to order #3f9c2a7b as its deposit?\nTransfer: 99.5 USDT from 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\nOrder: 100 USDT\nThe chain then confirms it.',
    );
    expect(api.callsTo('POST', ATTACH)).toHaveLength(0);
    setup.dialogs.confirm.mockReturnValue(true);
    const reads = api.callsTo('GET', `/api/operator/orders/${ID}`).length;
    await attach(TWINS);
    expect(api.callsTo('POST', ATTACH).map((call) => call.body)).toEqual([
      { txHash: TWINS, expectedStatus: 'WAITING_CRYPTO' },
    ]);
    expect(screen.getByTestId('console-notice').textContent).toBe(
      'Done: the order is now “Transaction pending”',
    );
    expect(api.callsTo('GET', `/api/operator/orders/${ID}`).length).toBeGreaterThan(reads);
  });

  it.each([
    [
      'en',
      { code: 'TX_UNDERPAID', coin: 'USDT', shortfall: '0.5' },
      'This transfer is 0.5 USDT less than the order’s amount: it cannot be this order’s deposit.',
    ],
    [
      'ru',
      { code: 'TX_UNDERPAID', coin: 'USDT', shortfall: '0.5' },
      'Этот перевод на 0,5 USDT меньше суммы заказа: он не может быть депозитом этого заказа.',
    ],
    [
      'en',
      { code: 'TX_UNCONFIRMED' },
      'The node did not answer: the transfer could not be checked. Try again in a minute.',
    ],
    [
      'ru',
      { code: 'TX_UNCONFIRMED' },
      'Узел сети не ответил: перевод не удалось проверить. Повторите через минуту.',
    ],
    ['en', { code: 'TX_ALREADY_USED' }, 'This transfer is already the deposit of another order.'],
    [
      'ru',
      { code: 'TX_BEFORE_ORDER' },
      'Этот перевод сделан раньше, чем создан заказ: он не может быть депозитом этого заказа.',
    ],
    [
      'en',
      { code: 'DEPOSIT_NOT_LISTED' },
      "This transfer is not among the unmatched deposits of the order's network and coin. Reload the order.",
    ],
    [
      'ru',
      { code: 'DEPOSIT_NOT_LISTED' },
      'Этого перевода нет среди неопознанных поступлений в сети и монете заказа. Обновите заказ.',
    ],
  ] as const)(
    'a refusal (%s, %o) is told as what is wrong with the transfer, in the console’s language',
    async (language, refusal, message) => {
      const { api } = await openOrder(
        view(waiting, { chainChecked: true, incoming: deposits }),
        language,
      );
      api.on('POST', ATTACH, {
        status: refusal.code === 'DEPOSIT_NOT_LISTED' ? 404 : 400,
        json: { error: 'x', ...refusal },
      });
      await attach(LONELY);
      const notice = screen.getByTestId('console-notice');
      expect(notice.dataset['kind']).toBe('error');
      expect(notice.textContent).toContain(message);
    },
  );

  it('another operator attached first: told with the status the order has now', async () => {
    const { api } = await openOrder(view(waiting, { chainChecked: true, incoming: deposits }));
    api.on('POST', ATTACH, {
      status: 409,
      json: { error: 'x', code: 'INVALID_STATUS', status: 'TX_PENDING' },
    });
    await attach(TWINS);
    expect(screen.getByTestId('console-notice').dataset['kind']).toBe('stale');
  });

  it('none listed: no section, only reject', async () => {
    await openOrder(view(waiting, { chainChecked: true, incoming: [] }));
    expect(screen.queryByTestId('console-incoming')).toBeNull();
    expect(screen.getByTestId('reject-form')).not.toBeNull();
  });

  describe('on the queue', () => {
    const queue: OperatorQueueResponse = {
      serverTime: iso(FIXTURE_NOW),
      groups: QUEUE_GROUPS.map((group) => ({ group, count: 0, orders: [] })),
    };
    const serveQueue = (incoming: readonly IncomingDeposit[]) =>
      fakeConsoleApi([
        { method: 'GET', path: '/api/operator/queue', reply: { json: queue } },
        {
          method: 'GET',
          path: '/api/operator/incoming',
          reply: {
            json: { deposits: incoming, hasMore: false } satisfies OperatorIncomingResponse,
          },
        },
        {
          method: 'GET',
          path: '/api/operator/orders',
          reply: { json: { orders: [row()], hasMore: false } },
        },
      ]);

    it.each([
      [
        'en',
        'Unmatched deposits · 2',
        [
          '100.000000000000000001 USDT · BEP20',
          'from 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
          'Could be any of 2\u00a0orders',
        ],
        ['99.5 USDT · BEP20', 'Matches no order’s amount'],
      ],
      [
        'ru',
        'Неопознанные поступления · 2',
        [
          '100,000000000000000001 USDT · BEP20',
          'от 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
          'Может относиться к\u00a02\u00a0заказам',
        ],
        ['99,5 USDT · BEP20', 'Не совпал по сумме ни с одним заказом'],
      ],
    ] as const)(
      '(%s) lists them above the groups, each with amount, network, the sender whole, time and how many orders it could be',
      async (language, header, first, second) => {
        serveQueue(deposits);
        renderApp('/console', { language });
        await settle();
        const section = screen.getByTestId('queue-incoming');
        expect(section.querySelector('header')?.textContent).toBe(header);
        const rows = section.querySelectorAll<HTMLElement>('[data-incoming]');
        expect([...rows].map((r) => r.dataset['incoming'])).toEqual([TWINS, LONELY]);
        for (const text of [...first, seenText(language)])
          expect(rows[0]?.textContent).toContain(text);
        for (const text of second) expect(rows[1]?.textContent).toContain(text);
        // Above the queue's groups: an operator sees them first.
        const group = document.querySelector('[data-queue-group]');
        expect(
          section.compareDocumentPosition(group as Node) & Node.DOCUMENT_POSITION_FOLLOWING,
        ).toBeTruthy();
      },
    );

    it('more than a page: the header says there are more, and "Load more" lists the next page below, asked by offset', async () => {
      const many = Array.from({ length: 25 }, (_, i) => ({
        ...(deposits[1] as IncomingDeposit),
        txHash: `0x${String(i).padStart(64, '0')}`,
      }));
      const api = serveQueue([]);
      api.on('GET', '/api/operator/incoming', (call) => {
        const offset = Number(call.query.get('offset'));
        const limit = Number(call.query.get('limit'));
        const page = many.slice(offset, offset + limit);
        return { json: { deposits: page, hasMore: offset + limit < many.length } };
      });
      renderApp('/console', { language: 'en' });
      await settle();
      const section = () => screen.getByTestId('queue-incoming');
      expect(section().querySelector('header')?.textContent).toBe('Unmatched deposits · 20+');
      expect(section().querySelectorAll('[data-incoming]')).toHaveLength(20);
      fireEvent.click(screen.getByTestId('incoming-more'));
      await settle();
      expect(section().querySelectorAll('[data-incoming]')).toHaveLength(25);
      expect(section().querySelector('header')?.textContent).toBe('Unmatched deposits · 25');
      expect(screen.queryByTestId('incoming-more')).toBeNull();
      expect(
        api.callsTo('GET', '/api/operator/incoming').map((c) => c.query.get('offset')),
      ).toContain('20');
    });

    it('a deposit opens the search of the sells waiting for their crypto, where its order is found', async () => {
      const api = serveQueue(deposits);
      const app = renderApp('/console', { language: 'en' });
      await settle();
      expect(screen.getByTestId('queue-incoming').textContent).toContain(
        'Find the sell the transfer belongs to',
      );
      fireEvent.click(incomingRow(LONELY));
      await settle();
      expect(app.currentPath()).toBe('/console/orders?status=WAITING_CRYPTO&type=SELL');
      expect(
        api.callsTo('GET', '/api/operator/orders').map((c) => Object.fromEntries(c.query)),
      ).toEqual([{ status: 'WAITING_CRYPTO', type: 'SELL', limit: '20', offset: '0' }]);
      expect(document.querySelector<HTMLSelectElement>('select[name="status"]')?.value).toBe(
        'WAITING_CRYPTO',
      );
      expect(document.querySelector<HTMLSelectElement>('select[name="type"]')?.value).toBe('SELL');
    });

    it('none (or a demo visitor’s console, which sees none): no section; asked again with the queue', async () => {
      const api = serveQueue([]);
      renderApp('/console', { language: 'en' });
      await settle();
      expect(screen.queryByTestId('queue-incoming')).toBeNull();
      expect(document.querySelectorAll('[data-queue-group]')).toHaveLength(QUEUE_GROUPS.length);
      api.on('GET', '/api/operator/incoming', { json: { deposits, hasMore: false } });
      await advance(10_000);
      expect(api.callsTo('GET', '/api/operator/incoming')).toHaveLength(2);
      expect(screen.getByTestId('queue-incoming').dataset['count']).toBe('2');
    });
  });

  const incomingRow = (hash: string) => {
    const found = document.querySelector<HTMLElement>(
      `[data-testid="queue-incoming"] [data-incoming="${hash}"]`,
    );
    if (found === null) throw new Error(`no queue row for ${hash}`);
    return found;
  };
});
