/**
 * The order history /my-orders: the tabs and the call each makes,
 * day groups in the customer's language, what a card shows, paging with 'Load more', the empty
 * message per tab, late answers of another tab, where a card leads (every row of the
 * history-card table), the `?orderId=` deep link and back. The API and the clock are faked; each
 * test names the rule it holds.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HistoryFilter, OrderDetails, OrderSummary } from '../../../../src/shared/api';
import { HISTORY_CARD_TABLE, type OrderScreen } from '../../../../src/shared/order-screens';
import {
  ORDER_TYPES,
  PAYMENT_METHODS,
  type OrderStatus,
  type OrderType,
  type PaymentMethod,
} from '../../../../src/shared/order-status';
import {
  deferred,
  fakeApi,
  renderApp,
  settle,
  type ApiCall,
  type FakeApi,
  type FakeReply,
  setUpScreenTests,
} from '../../../helpers/render-app';
import { makeOrder, orderSummary } from '../../../helpers/order-fixtures';

const HISTORY = '/api/orders/history';
/** Local noon on 5 March 2025: "today" and "yesterday" do not depend on the machine's zone. */
const NOW = new Date(2025, 2, 5, 12, 0);
const at = (year: number, month: number, day: number, hour: number, minute = 0) =>
  new Date(year, month - 1, day, hour, minute).toISOString();

function summary(id: string, fields: Partial<OrderSummary> = {}): OrderSummary {
  return orderSummary({
    id,
    createdAt: at(2025, 3, 5, 10, 30),
    updatedAt: at(2025, 3, 5, 10, 30),
    ...fields,
  });
}

function details(fields: Partial<OrderDetails>): OrderDetails {
  return makeOrder({ ...summary('o1'), walletAddress: null, ...fields });
}

/** `count` orders created a minute apart, newest first, ids `<prefix>-1`… */
function page(prefix: string, count: number, fields: Partial<OrderSummary> = {}): OrderSummary[] {
  return Array.from({ length: count }, (_, i) =>
    summary(`${prefix}-${i + 1}`, { createdAt: at(2025, 3, 5, 11, 59 - i), ...fields }),
  );
}

type HistoryReply = (call: ApiCall) => FakeReply | Promise<FakeReply>;

/** Answers the history call per tab (the `status` query); a tab not given has no orders. */
function serveHistory(
  byTab: Partial<Record<HistoryFilter, readonly OrderSummary[] | HistoryReply>>,
): FakeApi {
  return fakeApi([
    {
      method: 'GET',
      path: HISTORY,
      reply: (call) => {
        const answer = byTab[(call.query.get('status') ?? 'all') as HistoryFilter] ?? [];
        return typeof answer === 'function'
          ? answer(call)
          : { json: { orders: answer, hasMore: false } };
      },
    },
  ]);
}

const historyCalls = (api: FakeApi) =>
  api.callsTo('GET', HISTORY).map((c) => Object.fromEntries(c.query));
const cardIds = () =>
  [...document.querySelectorAll<HTMLElement>('[data-order-id]')].map((c) => c.dataset['orderId']);
function card(id: string): HTMLElement {
  const element = document.querySelector<HTMLElement>(`[data-order-id="${id}"]`);
  if (element === null) throw new Error(`no card ${id}`);
  return element;
}
/** The day groups of the list: each header with the ids of its cards. */
const groups = () =>
  [...document.querySelectorAll('[data-testid="history-list"] section')].map((section) => ({
    label: section.querySelector('header')?.textContent,
    ids: [...section.querySelectorAll<HTMLElement>('[data-order-id]')].map(
      (c) => c.dataset['orderId'],
    ),
  }));
const placeholderHeader = () => document.querySelector('dt')?.textContent;

async function chooseTab(tab: HistoryFilter): Promise<void> {
  const button = document.querySelector<HTMLElement>(`[data-tab="${tab}"]`);
  if (button === null) throw new Error(`no tab ${tab}`);
  fireEvent.click(button);
  await settle();
}

async function open(
  language: 'ru' | 'en' = 'en',
  pathname = '/my-orders',
): Promise<ReturnType<typeof renderApp>> {
  const app = renderApp(pathname, { language });
  await settle();
  return app;
}

/** The English status labels (the dictionary's statusLabels). */
const STATUS_LABEL_EN: Record<OrderStatus, string> = {
  WAITING_REQUISITES: 'Waiting for details',
  REQUISITES_READY: 'Details ready',
  PAYMENT_PENDING: 'Payment pending',
  PAYMENT_STARTED: 'Payment started',
  RECEIPT_UPLOADED: 'Receipt uploaded',
  PAYMENT_CONFIRMED: 'Payment confirmed',
  WAITING_CRYPTO: 'Waiting for crypto',
  TX_PENDING: 'Transaction pending',
  TX_CONFIRMED: 'Transaction confirmed',
  COMPLETED: 'Completed',
  CANCELLED: 'Cancelled',
  REJECTED: 'Rejected',
  OFFICE_PENDING: 'Waiting for instructions',
  OFFICE_READY: 'Waiting at the office',
};

const setup = setUpScreenTests(NOW);

describe('tabs', () => {
  it('all, active and completed each call GET /api/orders/history with status=<tab>, limit=20, offset=0', async () => {
    const api = serveHistory({});
    await open();
    expect(historyCalls(api)).toEqual([{ status: 'all', limit: '20', offset: '0' }]);
    await chooseTab('active');
    await chooseTab('completed');
    await chooseTab('all');
    expect(historyCalls(api)).toEqual([
      { status: 'all', limit: '20', offset: '0' },
      { status: 'active', limit: '20', offset: '0' },
      { status: 'completed', limit: '20', offset: '0' },
      { status: 'all', limit: '20', offset: '0' },
    ]);
  });

  it('each tab shows its own orders', async () => {
    serveHistory({
      all: [summary('a-1'), summary('c-1', { status: 'COMPLETED' })],
      active: [summary('a-1')],
      completed: [summary('c-1', { status: 'COMPLETED' })],
    });
    await open();
    expect(cardIds()).toEqual(['a-1', 'c-1']);
    await chooseTab('active');
    expect(cardIds()).toEqual(['a-1']);
    await chooseTab('completed');
    expect(cardIds()).toEqual(['c-1']);
  });

  it.each<[HistoryFilter, string, string]>([
    ['all', 'You have no orders yet', 'У вас пока нет заказов'],
    ['active', 'No active orders', 'Нет активных заказов'],
    ['completed', 'No completed orders', 'Нет завершённых заказов'],
  ])("the empty %s tab says '%s' ('%s')", async (tab, english, russian) => {
    serveHistory({});
    await open();
    await chooseTab(tab);
    expect(placeholderHeader()).toBe(english);
    expect(document.querySelector('[data-testid="history-list"]')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'RU' }));
    await settle();
    expect(placeholderHeader()).toBe(russian);
  });

  it("a new tab never shows the previous tab's orders, not even when that tab's answer arrives late", async () => {
    const lateAll = deferred<FakeReply>();
    serveHistory({
      all: () => lateAll.promise,
      active: [summary('active-1')],
    });
    await open();
    expect(cardIds()).toEqual([]);
    await chooseTab('active');
    expect(cardIds()).toEqual(['active-1']);
    lateAll.resolve({ json: { orders: [summary('all-1'), summary('all-2')], hasMore: true } });
    await settle();
    expect(cardIds()).toEqual(['active-1']);
    expect(screen.queryByTestId('load-more')).toBeNull();
    expect(placeholderHeader()).toBeUndefined();
  });

  it("while a new tab's answer is awaited, the previous tab's orders are gone", async () => {
    const lateActive = deferred<FakeReply>();
    serveHistory({
      all: [summary('all-1')],
      active: () => lateActive.promise,
    });
    await open();
    expect(cardIds()).toEqual(['all-1']);
    await chooseTab('active');
    expect(cardIds()).toEqual([]);
    expect(placeholderHeader()).toBeUndefined();
    lateActive.resolve({ json: { orders: [summary('active-1')], hasMore: false } });
    await settle();
    expect(cardIds()).toEqual(['active-1']);
  });
});

describe('day groups (orders grouped by creation date)', () => {
  const orders = [
    summary('today-1', { createdAt: at(2025, 3, 5, 11, 0) }),
    summary('today-2', { createdAt: at(2025, 3, 5, 0, 5) }),
    summary('yesterday-1', { createdAt: at(2025, 3, 4, 23, 55) }),
    summary('feb-1', { createdAt: at(2025, 2, 20, 9, 0) }),
    summary('feb-2', { createdAt: at(2025, 2, 20, 8, 0) }),
    summary('last-year', { createdAt: at(2024, 12, 25, 18, 0) }),
  ];

  it("in English: 'Today', 'Yesterday', '20 February', and the year for another year", async () => {
    serveHistory({ all: orders });
    await open('en');
    expect(groups()).toEqual([
      { label: 'Today', ids: ['today-1', 'today-2'] },
      { label: 'Yesterday', ids: ['yesterday-1'] },
      { label: '20 February', ids: ['feb-1', 'feb-2'] },
      { label: '25 December 2024', ids: ['last-year'] },
    ]);
  });

  it("in Russian: 'Сегодня', 'Вчера', '20 февраля', and the year for another year", async () => {
    serveHistory({ all: orders });
    await open('ru');
    const labels = groups().map((g) => g.label?.replace(/\s/g, ' '));
    expect(labels).toEqual(['Сегодня', 'Вчера', '20 февраля', '25 декабря 2024 г.']);
  });
});

describe('an order card', () => {
  it('shows the direction arrow, crypto amount, network, payment method, fiat total (₽ for RUB), status label and time', async () => {
    serveHistory({
      all: [
        summary('buy', { createdAt: at(2025, 3, 5, 9, 7) }),
        summary('sell', {
          type: 'SELL',
          status: 'WAITING_CRYPTO',
          amount: 100,
          cryptoCurrency: 'USDT',
          network: 'TRC20',
          totalRub: 9713,
        }),
      ],
    });
    await open();
    const buy = card('buy');
    const buyArrow = buy.querySelector('.order-card__arrow');
    expect(buyArrow?.textContent).toBe('↓');
    expect(buyArrow?.getAttribute('aria-label')).toBe('Buy');
    expect(buy.textContent).toContain('51.4774 USDC');
    expect(buy.textContent).toContain('Base · P2P');
    expect(buy.querySelector('.order-card__total')?.textContent).toBe('₽5,000');
    expect(buy.querySelector('.status-badge')?.textContent).toBe('Waiting for details');
    expect(buy.querySelector('.order-card__time')?.textContent).toBe('09:07');

    const sell = card('sell');
    const sellArrow = sell.querySelector('.order-card__arrow');
    expect(sellArrow?.textContent).toBe('↑');
    expect(sellArrow?.getAttribute('aria-label')).toBe('Sell');
    expect(sell.textContent).toContain('100 USDT');
    expect(sell.textContent).toContain('TRC20 · P2P');
    expect(sell.querySelector('.order-card__total')?.textContent).toBe('₽9,713');
    expect(sell.querySelector('.status-badge')?.textContent).toBe('Waiting for crypto');
  });

  it('a fiat total in another currency shows its code, and the office and bank methods are named', async () => {
    serveHistory({
      all: [
        summary('office', {
          paymentMethod: 'OFFICE',
          currency: 'AED',
          totalRub: 1250.5,
          network: 'POLYGON',
          status: 'OFFICE_PENDING',
        }),
        summary('bank', {
          paymentMethod: 'BANK_ACCOUNT',
          totalRub: 600000,
          status: 'REQUISITES_READY',
        }),
      ],
    });
    await open();
    // Intl puts a no-break space between a code and the number.
    expect(
      card('office').querySelector('.order-card__total')?.textContent.replace(/\s/g, ' '),
    ).toBe('AED 1,250.50');
    expect(card('office').textContent).toContain('Polygon · Office');
    expect(card('bank').querySelector('.order-card__total')?.textContent).toBe('₽600,000');
    expect(card('bank').textContent).toContain('Base · Bank account');
  });

  it.each([
    ['en', 'no_operator', 'no operator answered'],
    ['ru', 'expired', 'время вышло'],
  ] as const)(
    '(%s) a cancelled card says why (%s) beside its status',
    async (language, cancelReason, text) => {
      serveHistory({
        all: [
          summary('gone', { status: 'CANCELLED', cancelReason }),
          summary('open', { status: 'WAITING_REQUISITES' }),
        ],
      });
      await open(language);
      expect(card('gone').querySelector('[data-testid="card-cancel-reason"]')?.textContent).toBe(
        text,
      );
      expect(card('open').querySelector('[data-testid="card-cancel-reason"]')).toBeNull();
    },
  );

  it('every status shows its translated label', async () => {
    const statuses = Object.keys(STATUS_LABEL_EN) as OrderStatus[];
    serveHistory({ all: statuses.map((status) => summary(status, { status })) });
    await open();
    for (const status of statuses) {
      expect(card(status).querySelector('.status-badge')?.textContent, status).toBe(
        STATUS_LABEL_EN[status],
      );
    }
  });
});

describe("'Load more' (pages of 20)", () => {
  it('asks for offset=20 and appends the next page', async () => {
    const first = page('p1', 20);
    const second = page('p2', 5, { createdAt: at(2025, 3, 4, 10, 0) });
    const api = serveHistory({
      all: (call) =>
        call.query.get('offset') === '0'
          ? { json: { orders: first, hasMore: true } }
          : { json: { orders: second, hasMore: false } },
    });
    await open();
    expect(cardIds()).toHaveLength(20);
    fireEvent.click(screen.getByTestId('load-more'));
    await settle();
    expect(historyCalls(api)).toEqual([
      { status: 'all', limit: '20', offset: '0' },
      { status: 'all', limit: '20', offset: '20' },
    ]);
    expect(cardIds()).toEqual([...first, ...second].map((o) => o.id));
    expect(screen.queryByTestId('load-more')).toBeNull();
  });

  it('is hidden when hasMore is false', async () => {
    serveHistory({ all: page('p1', 20) });
    await open();
    expect(cardIds()).toHaveLength(20);
    expect(screen.queryByTestId('load-more')).toBeNull();
  });

  it('a new tab starts again at offset 0', async () => {
    const api = serveHistory({
      all: (call) => ({
        json: { orders: page(`p${call.query.get('offset')}`, 20), hasMore: true },
      }),
      active: () => ({ json: { orders: page('a', 20), hasMore: true } }),
    });
    await open();
    fireEvent.click(screen.getByTestId('load-more'));
    await settle();
    await chooseTab('active');
    expect(historyCalls(api).at(-1)).toEqual({ status: 'active', limit: '20', offset: '0' });
    expect(cardIds()).toEqual(page('a', 20).map((o) => o.id));
  });
});

describe('language (the RU/EN toggle)', () => {
  it('switching the language re-translates labels, groups and totals without fetching again or losing loaded pages', async () => {
    const first = page('p1', 20);
    const second = [summary('old', { status: 'COMPLETED', createdAt: at(2025, 2, 20, 9, 0) })];
    const api = serveHistory({
      all: (call) =>
        call.query.get('offset') === '0'
          ? { json: { orders: first, hasMore: true } }
          : { json: { orders: second, hasMore: false } },
    });
    await open('en');
    fireEvent.click(screen.getByTestId('load-more'));
    await settle();
    expect(groups().map((g) => g.label)).toEqual(['Today', '20 February']);
    expect(card('old').querySelector('.status-badge')?.textContent).toBe('Completed');
    const calls = api.calls.length;

    fireEvent.click(screen.getByRole('button', { name: 'RU' }));
    await settle();
    expect(groups().map((g) => g.label)).toEqual(['Сегодня', '20 февраля']);
    expect(card('old').querySelector('.status-badge')?.textContent).toBe('Выполнен');
    expect(card('p1-1').querySelector('.status-badge')?.textContent).toBe('Ожидание реквизитов');
    expect(card('p1-1').querySelector('.order-card__arrow')?.getAttribute('aria-label')).toBe(
      'Покупка',
    );
    expect(card('p1-1').querySelector('.order-card__total')?.textContent.replace(/\s/g, ' ')).toBe(
      '5 000 ₽',
    );
    expect(document.querySelector('[data-tab="active"]')?.textContent).toBe('Активные');
    expect(api.calls.length).toBe(calls);
    expect(cardIds()).toHaveLength(21);
  });
});

interface CardCase {
  readonly status: OrderStatus;
  readonly type: OrderType;
  readonly method: PaymentMethod;
  readonly target: OrderScreen;
}

/**
 * Every order a row of the history-card table decides: each status of the row, each type and
 * method the row allows, skipping what an earlier row already took (the first matching row wins).
 */
const CARD_CASES: CardCase[] = HISTORY_CARD_TABLE.flatMap((row, index) =>
  row.statuses.flatMap((status) =>
    (row.type === undefined ? ORDER_TYPES : [row.type]).flatMap((type) =>
      (row.paymentMethod === undefined ? PAYMENT_METHODS : [row.paymentMethod])
        .filter(
          (method) =>
            !HISTORY_CARD_TABLE.slice(0, index).some(
              (earlier) =>
                earlier.statuses.includes(status) &&
                (earlier.type === undefined || earlier.type === type) &&
                (earlier.paymentMethod === undefined || earlier.paymentMethod === method),
            ),
        )
        .map((method) => ({ status, type, method, target: row.target })),
    ),
  ),
);

describe('a card opens the screen of the history-card table', () => {
  it('the cases cover every row and every status of the table', () => {
    expect(new Set(CARD_CASES.map((c) => c.target))).toEqual(
      new Set(HISTORY_CARD_TABLE.map((row) => row.target)),
    );
    for (const row of HISTORY_CARD_TABLE) {
      for (const status of row.statuses) {
        expect(
          CARD_CASES.some(
            (c) =>
              c.status === status &&
              c.target === row.target &&
              (row.type === undefined || c.type === row.type) &&
              (row.paymentMethod === undefined || c.method === row.paymentMethod),
          ),
          `${status} → ${row.target}`,
        ).toBe(true);
      }
    }
  });

  it.each(CARD_CASES)(
    '$status $type $method → /order/<id>/$target',
    async ({ status, type, method, target }) => {
      serveHistory({ all: [summary('o-42', { status, type, paymentMethod: method })] });
      const app = await open();
      fireEvent.click(card('o-42'));
      expect(app.location.history).toEqual(['/my-orders', `/order/o-42/${target}`]);
      await settle();
    },
  );

  it.each(['WAITING_CRYPTO', 'TX_PENDING', 'TX_CONFIRMED'] as const)(
    'a BUY in %s, which no row names for a buy, opens the read-only details',
    async (status) => {
      serveHistory({ all: [summary('o-43', { status, type: 'BUY' })] });
      const app = await open();
      fireEvent.click(card('o-43'));
      expect(app.location.history).toEqual(['/my-orders', '/order/o-43/details']);
      await settle();
    },
  );
});

describe('the deep link /my-orders?orderId=<id>', () => {
  it.each<[Partial<OrderDetails>, OrderScreen]>([
    [{ type: 'SELL', status: 'WAITING_CRYPTO' }, 'send-crypto'],
    [{ status: 'REQUISITES_READY', paymentMethod: 'BANK_ACCOUNT' }, 'bank-requisites'],
    [{ status: 'OFFICE_PENDING', paymentMethod: 'OFFICE' }, 'office-waiting'],
    [{ status: 'COMPLETED' }, 'details'],
  ])(
    'fetches the order (%o) and replaces the location with its %s screen',
    async (fields, target) => {
      const api = fakeApi([
        {
          method: 'GET',
          path: '/api/orders/o1/status',
          reply: { json: details({ id: 'o1', ...fields }) },
        },
      ]);
      const app = await open('en', '/my-orders?orderId=o1');
      expect(api.callsTo('GET', '/api/orders/o1/status').length).toBeGreaterThanOrEqual(1);
      expect(app.location.history).toEqual([`/order/o1/${target}`]);
      expect(api.callsTo('GET', HISTORY)).toHaveLength(0);
    },
  );

  it.each([
    ['en', 'Order not found'],
    ['ru', 'Заказ не найден'],
  ] as const)("a missing order (404) shows '%s' and stays", async (language, text) => {
    fakeApi([
      {
        method: 'GET',
        path: '/api/orders/nope/status',
        reply: { status: 404, json: { error: 'x', code: 'ORDER_NOT_FOUND' } },
      },
    ]);
    const app = await open(language, '/my-orders?orderId=nope');
    expect(placeholderHeader()).toBe(text);
    expect(app.location.history).toEqual(['/my-orders?orderId=nope']);
    expect(setup.dialogs.alert).not.toHaveBeenCalled();
  });
});

describe('back', () => {
  it('goes to /', async () => {
    serveHistory({ all: [summary('o1')] });
    const app = await open();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await settle();
    expect(app.currentPath()).toBe('/');
  });

  it('goes back to /p2p when opened from the P2P screen (the origin route p2p)', async () => {
    serveHistory({ all: [summary('o1')] });
    sessionStorage.setItem('selectedCurrency', JSON.stringify({ code: 'RUB', symbol: '₽' }));
    const app = await open('en', '/my-orders?from=p2p');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await settle();
    expect(app.currentPath()).toBe('/p2p');
  });
});
