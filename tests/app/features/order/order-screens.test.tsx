/**
 * The order screens (polling, redirects, client-triggered transitions), with the API and the
 * clock faked: every poll interval, every redirect, the countdowns and their warnings, and what
 * each failure shows. Each test names its rule.
 */
import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RECEIPT_ACCEPT } from '../../../../src/shared/receipts';
import type { OfficeReservation, OrderDetails } from '../../../../src/shared/api';
import {
  ORDER_SCREENS,
  ORDER_SCREEN_TABLE,
  destinationPath,
  historyCardTarget,
  orderScreenRule,
  type OrderScreen,
  type OrderScreenAlert,
  type OrderScreenRule,
} from '../../../../src/shared/order-screens';
import {
  ORDER_STATUSES,
  type OrderStatus,
  type PaymentMethod,
} from '../../../../src/shared/order-status';
import {
  advance,
  deferred,
  fakeApi,
  renderApp,
  settle,
  type FakeReply,
  setUpScreenTests,
} from '../../../helpers/render-app';
import {
  FIXTURE_BANK,
  FIXTURE_CARD,
  iso,
  makeOrder as fixtureOrder,
  serveOrder as serveFixture,
  type ServedOrder,
} from '../../../helpers/order-fixtures';

const NOW = Date.parse('2025-03-01T12:00:00.000Z');
const MINUTE = 60_000;
const ID = 'ord-1';
const STATUS = `/api/orders/${ID}/status`;
const WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

const CARD = FIXTURE_CARD;
const BANK = FIXTURE_BANK;
const RESERVATION: OfficeReservation = {
  orderId: ID,
  reservationCode: 'R-4821',
  reservedUntil: new Date(NOW + 3 * 60 * MINUTE).toISOString(),
  office: {
    id: 'dubai-1',
    addressRu: 'Дубай, Шейх Зайед роуд, 1',
    addressEn: 'Dubai, Sheikh Zayed Road 1',
    workingHoursRu: '10:00–20:00',
    workingHoursEn: '10 am – 8 pm',
    phone: '+971 4 000 0000',
    mapLink: 'https://maps.example/dubai-1',
  },
  city: { nameRu: 'Дубай', nameEn: 'Dubai' },
};

const makeOrder = (fields: Partial<OrderDetails> = {}) => fixtureOrder({ id: ID, ...fields });

/**
 * Serves the order at GET /api/orders/{id}/status; `serverTime` is the server's clock at the
 * moment of the answer, `clockAheadMs` ahead of the phone's.
 */
function serveOrder(fields: Partial<OrderDetails>, clockAheadMs = 0): ServedOrder {
  return serveFixture({ id: ID }, fields, { clockAheadMs });
}

const path = (screenName: string) => `/order/${ID}/${screenName}`;
const onScreen = (name: string) => document.querySelector(`[data-screen="${name}"]`) !== null;
const placeholderHeader = () => document.querySelector('dt')?.textContent;

const setup = setUpScreenTests(NOW);

/** Where each screen starts in the table-driven tests: a fitting order its rows can move on. */
const SCREEN_ORDER: Record<OrderScreen, Partial<OrderDetails>> = {
  waiting: {},
  payment: { requisitesReadyAt: iso(NOW) },
  'bank-requisites': { paymentMethod: 'BANK_ACCOUNT', requisitesReadyAt: iso(NOW) },
  'upload-receipt': {},
  complete: {},
  details: {},
  'send-crypto': { type: 'SELL', requisites: { walletAddress: WALLET } },
  'sell-waiting': { type: 'SELL' },
  'office-waiting': { paymentMethod: 'OFFICE', currency: 'AED' },
};

/** What an ended order says about money, in English, by its type. */
const MONEY_EN = {
  BUY: 'Do not pay for this order. If you already paid, contact support: we return the money to the account it came from.',
  SELL: 'Do not send crypto for this order. If you already sent it, contact support with the transaction hash: we return it to the address it came from.',
} as const;

/** The English text of each alert the table names, for the order it is shown about. */
function alertEn(alert: OrderScreenAlert, order: OrderDetails): string {
  if (alert === 'orderRejected') return 'Order rejected by administrator';
  if (alert === 'orderCancelled') return 'Order cancelled';
  const why =
    order.status === 'REJECTED'
      ? `Order #${ID} was rejected. Reason: Another reason`
      : `Order #${ID} was cancelled.`;
  return `${why}\n${MONEY_EN[order.type]}`;
}

const requisitesFor = (method: PaymentMethod) => (method === 'BANK_ACCOUNT' ? BANK : CARD);

/** An order of `screen` in `status` that the row `rule` (and no earlier row) takes. */
function orderFor(
  screen: OrderScreen,
  rule: OrderScreenRule,
  status: OrderStatus,
): Partial<OrderDetails> {
  const base = { ...makeOrder(SCREEN_ORDER[screen]), status };
  const type = rule.type ?? base.type;
  const paymentMethod = rule.paymentMethod ?? base.paymentMethod;
  const requisites = rule.withRequisites === true ? requisitesFor(paymentMethod) : base.requisites;
  return { ...SCREEN_ORDER[screen], status, type, paymentMethod, requisites };
}

/** A status in which `screen` stays for an order like `fields`: where its history card leads. */
function stayingStatus(screen: OrderScreen, fields: Partial<OrderDetails>): OrderStatus {
  const order = makeOrder(fields);
  const stays = (status: OrderStatus) =>
    orderScreenRule(screen, { ...order, status }, true) === undefined;
  const status =
    ORDER_STATUSES.find((s) => historyCardTarget({ ...order, status: s }) === screen && stays(s)) ??
    ORDER_STATUSES.find(stays);
  if (status === undefined) throw new Error(`${screen} stays in no status`);
  return status;
}

/** Every row of every screen, once for each status it names. */
const ROWS = ORDER_SCREENS.flatMap((screen) =>
  ORDER_SCREEN_TABLE[screen].rules.flatMap((rule, index) =>
    rule.statuses.map((status) => ({ screen, rule, index, status })),
  ),
);

describe('the order-screen table, row by row', () => {
  it('every row of the table has its cases here', () => {
    for (const screen of ORDER_SCREENS) {
      ORDER_SCREEN_TABLE[screen].rules.forEach((rule, index) => {
        expect(
          ROWS.filter((r) => r.screen === screen && r.index === index).map((r) => r.status),
        ).toEqual(rule.statuses);
      });
    }
  });

  it.each(
    ROWS.map((r) => [r.screen, r.status, r.index, destinationPath(ID, r.rule.go), r] as const),
  )(
    '%s seeing %s (row %i) goes to %s',
    async (_screen, _status, _index, target, { screen, rule, status }) => {
      const fields = orderFor(screen, rule, status);
      expect(orderScreenRule(screen, makeOrder(fields), rule.onLoad === true)).toBe(rule);
      const { pollMs, firstPollMs = 0 } = ORDER_SCREEN_TABLE[screen];
      if (pollMs === null) throw new Error(`${screen} has rows but is not polled`);
      // An on-load row is seen in the first answer; any other while polling, after a first
      // answer in which the screen stays.
      const served = serveOrder(
        rule.onLoad === true ? fields : { ...fields, status: stayingStatus(screen, fields) },
      );
      served.api.on('GET', `/api/orders/${ID}/requisites`, {
        json: { requisitesNotConfigured: false, requisites: BANK },
      });
      if (screen === 'waiting') localStorage.setItem(`waiting_start_${ID}`, String(NOW));
      const app = renderApp(path(screen), { language: 'en' });
      await advance(firstPollMs);
      if (rule.onLoad !== true) {
        expect(app.currentPath()).toBe(path(screen));
        served.update({ status });
        await advance(pollMs);
      }
      await settle();
      // The screen's entry is replaced: back does not return to a screen that moved on.
      expect(app.location.history).toEqual([target]);
      if (rule.alert === undefined) expect(setup.dialogs.alert).not.toHaveBeenCalled();
      else {
        expect(setup.dialogs.alert.mock.calls).toEqual([
          [alertEn(rule.alert, makeOrder({ ...fields, status }))],
        ]);
      }
      if (rule.passOrder === true) {
        expect(app.location.state).toMatchObject({ order: { id: ID, status } });
      }
      if (screen === 'waiting') expect(localStorage.getItem(`waiting_start_${ID}`)).toBeNull();
      // Leaving is once: later answers change nothing.
      await advance(2 * pollMs);
      expect(app.location.history).toEqual([target]);
      expect(setup.dialogs.alert.mock.calls.length).toBe(rule.alert === undefined ? 0 : 1);
    },
  );

  const STAYS = ORDER_SCREENS.flatMap((screen) =>
    ORDER_STATUSES.flatMap((status) => {
      const fields = { ...SCREEN_ORDER[screen], status };
      const order = makeOrder(fields);
      return orderScreenRule(screen, order, true) === undefined &&
        orderScreenRule(screen, order, false) === undefined
        ? [[screen, status, fields] as const]
        : [];
    }),
  );

  it.each(STAYS)('%s stays on %s, a status no row names', async (screen, _status, fields) => {
    const served = serveOrder(fields);
    served.api.on('GET', `/api/orders/${ID}/requisites`, {
      json: { requisitesNotConfigured: false, requisites: BANK },
    });
    const app = renderApp(path(screen), { language: 'en' });
    await advance(10_000);
    expect(app.location.history).toEqual([path(screen)]);
    expect(onScreen(screen)).toBe(true);
    expect(setup.dialogs.alert).not.toHaveBeenCalled();
    if (screen === 'waiting') expect(localStorage.getItem(`waiting_start_${ID}`)).not.toBeNull();
  });

  it.each(ORDER_SCREENS.map((screen) => [screen, ORDER_SCREEN_TABLE[screen]] as const))(
    '%s asks for its order as the table says: %o',
    async (screen, { pollMs, firstPollMs = 0 }) => {
      const fields = { ...SCREEN_ORDER[screen] };
      const served = serveOrder({ ...fields, status: stayingStatus(screen, fields) });
      renderApp(path(screen), { language: 'en' });
      await settle();
      if (firstPollMs > 0) {
        expect(served.polls()).toBe(0);
        await advance(firstPollMs - 1);
        expect(served.polls()).toBe(0);
        await advance(1);
      }
      expect(served.polls()).toBe(1);
      if (pollMs === null) {
        await advance(30_000);
        expect(served.polls()).toBe(1);
        return;
      }
      await advance(pollMs - 1);
      expect(served.polls()).toBe(1);
      await advance(1);
      expect(served.polls()).toBe(2);
      await advance(pollMs);
      expect(served.polls()).toBe(3);
    },
  );
});

describe('waiting for requisites', () => {
  it('the elapsed counter counts m:ss from waiting_start and continues after a remount', async () => {
    serveOrder({ status: 'WAITING_REQUISITES' });
    const app = renderApp(path('waiting'), { language: 'en' });
    expect(screen.getByTestId('elapsed').textContent).toBe('Elapsed: 0:00');
    await advance(61_000);
    expect(screen.getByTestId('elapsed').textContent).toBe('Elapsed: 1:01');
    app.unmount();
    await advance(10_000);
    renderApp(path('waiting'), { language: 'en' });
    expect(screen.getByTestId('elapsed').textContent).toBe('Elapsed: 1:11');
  });

  it('a start stored by an earlier visit is where the counter starts', () => {
    localStorage.setItem(`waiting_start_${ID}`, String(NOW - 12 * MINUTE - 5000));
    serveOrder({ status: 'WAITING_REQUISITES' });
    renderApp(path('waiting'), { language: 'en' });
    expect(screen.getByTestId('elapsed').textContent).toBe('Elapsed: 12:05');
  });
});

describe('payment, P2P', () => {
  const ready = (fields: Partial<OrderDetails> = {}): Partial<OrderDetails> => ({
    status: 'REQUISITES_READY',
    requisites: CARD,
    requisitesReadyAt: iso(NOW),
    ...fields,
  });

  it('shows the card details: bank, card number in groups of 4, holder, phone, comment', async () => {
    serveOrder(ready());
    renderApp(path('payment'), { language: 'en' });
    await settle();
    expect(screen.getByTestId('req-bank').textContent).toContain('Sberbank');
    expect(screen.getByTestId('req-card').textContent).toContain('2202 2000 0000 0001');
    expect(screen.getByTestId('req-card').dataset['copyValue']).toBe('2202200000000001');
    expect(screen.getByTestId('req-holder').textContent).toContain('IVAN PETROV');
    expect(screen.getByTestId('req-phone').textContent).toContain('+79990000000');
    expect(screen.getByTestId('req-comment').textContent).toContain('Order 1');
  });

  it('shows requisites passed in navigation state before the order is fetched', async () => {
    const api = fakeApi([]);
    const held = deferred<FakeReply>();
    api.on('GET', STATUS, () => held.promise);
    renderApp(path('payment'), {
      language: 'en',
      historyState: { order: makeOrder(ready()) },
    });
    await settle();
    expect(screen.getByTestId('req-card').textContent).toContain('2202 2000 0000 0001');
    expect(screen.getByTestId('countdown').textContent).toContain('Time left: 30:00');
  });

  it('counts down 30 minutes from requisitesReadyAt when expiresAt is absent', async () => {
    serveOrder(ready({ requisitesReadyAt: iso(NOW - 10 * MINUTE) }));
    renderApp(path('payment'), { language: 'en' });
    await settle();
    expect(screen.getByTestId('countdown').textContent).toContain('Time left: 20:00');
    await advance(1000);
    expect(screen.getByTestId('countdown').textContent).toContain('Time left: 19:59');
  });

  it('counts down to expiresAt when the server gives one', async () => {
    serveOrder(ready({ expiresAt: iso(NOW + 7 * MINUTE) }));
    renderApp(path('payment'), { language: 'en' });
    await settle();
    expect(screen.getByTestId('countdown').textContent).toContain('Time left: 7:00');
  });

  it("counts down on the server's clock: a server 10 minutes ahead of the phone leaves 10 minutes less", async () => {
    serveOrder(ready({ expiresAt: iso(NOW + 30 * MINUTE) }), 10 * MINUTE);
    renderApp(path('payment'), { language: 'en' });
    await settle();
    expect(screen.getByTestId('countdown').textContent).toContain('Time left: 20:00');
  });

  it('warns once less than 5 minutes are left', async () => {
    serveOrder(ready({ expiresAt: iso(NOW + 5 * MINUTE + 1000) }));
    renderApp(path('payment'), { language: 'en' });
    await settle();
    const countdown = () => screen.getByTestId('countdown');
    expect(countdown().textContent).not.toContain('Less than 5 minutes left');
    expect(countdown().className).not.toContain('countdown--warning');
    await advance(2000);
    expect(countdown().textContent).toContain('Less than 5 minutes left');
    expect(countdown().className).toContain('countdown--warning');
  });

  it("when the time runs out: posts cancel, alerts 'Payment time expired. Order cancelled.', goes to /", async () => {
    const served = serveOrder(ready({ expiresAt: iso(NOW + 10_000) }));
    served.api.on('POST', `/api/orders/${ID}/cancel`, {
      json: { success: true, status: 'CANCELLED' },
    });
    const app = renderApp(path('payment'), { language: 'en' });
    await settle();
    expect(served.api.callsTo('POST', `/api/orders/${ID}/cancel`)).toHaveLength(0);
    await advance(10_000);
    expect(served.api.callsTo('POST', `/api/orders/${ID}/cancel`)).toHaveLength(1);
    expect(setup.dialogs.alert).toHaveBeenCalledWith('Payment time expired. Order cancelled.');
    expect(app.currentPath()).toBe('/');
  });

  it('when the time runs out and cancel fails, it still alerts and goes to /', async () => {
    const served = serveOrder(ready({ expiresAt: iso(NOW + 1000) }));
    served.api.on('POST', `/api/orders/${ID}/cancel`, 'network-error');
    const app = renderApp(path('payment'), { language: 'en' });
    await advance(1000);
    expect(setup.dialogs.alert).toHaveBeenCalledWith('Payment time expired. Order cancelled.');
    expect(app.currentPath()).toBe('/');
  });

  it("'I have paid' posts payment-confirm and opens upload-receipt", async () => {
    const served = serveOrder(ready());
    served.api.on('POST', `/api/orders/${ID}/payment-confirm`, {
      json: { success: true, status: 'PAYMENT_PENDING' },
    });
    const app = renderApp(path('payment'), { language: 'en' });
    await settle();
    fireEvent.click(screen.getByTestId('i-have-paid'));
    await settle();
    expect(served.api.callsTo('POST', `/api/orders/${ID}/payment-confirm`)).toHaveLength(1);
    expect(app.currentPath()).toBe(path('upload-receipt'));
  });

  it("'I have paid' opens upload-receipt even when payment-confirm fails", async () => {
    const served = serveOrder(ready());
    served.api.on('POST', `/api/orders/${ID}/payment-confirm`, {
      status: 500,
      json: { error: 'x', code: 'INTERNAL' },
    });
    const app = renderApp(path('payment'), { language: 'en' });
    await settle();
    fireEvent.click(screen.getByTestId('i-have-paid'));
    await settle();
    expect(served.api.callsTo('POST', `/api/orders/${ID}/payment-confirm`)).toHaveLength(1);
    expect(app.currentPath()).toBe(path('upload-receipt'));
    expect(setup.dialogs.alert).not.toHaveBeenCalled();
  });
});

describe('bank requisites', () => {
  const REQUISITES = `/api/orders/${ID}/requisites`;

  function serveBank(
    fields: Partial<OrderDetails> = {},
    requisites: FakeReply = {
      json: { requisitesNotConfigured: false, requisites: BANK },
    },
  ): ServedOrder {
    const served = serveOrder({
      status: 'REQUISITES_READY',
      paymentMethod: 'BANK_ACCOUNT',
      totalRub: 600000,
      requisitesReadyAt: iso(NOW),
      ...fields,
    });
    served.api.on('GET', REQUISITES, requisites);
    return served;
  }

  it('polls the status and the requisites at once, then every 3 s', async () => {
    const served = serveBank();
    renderApp(path('bank-requisites'), { language: 'en' });
    await settle();
    expect(served.polls()).toBe(1);
    expect(served.api.callsTo('GET', REQUISITES)).toHaveLength(1);
    await advance(2999);
    expect(served.polls()).toBe(1);
    await advance(1);
    expect(served.polls()).toBe(2);
    expect(served.api.callsTo('GET', REQUISITES)).toHaveLength(2);
  });

  it("shows 'Requisites not configured. Please contact support.' when none are configured", async () => {
    serveBank({}, { json: { requisitesNotConfigured: true, requisites: null } });
    renderApp(path('bank-requisites'), { language: 'en' });
    await settle();
    expect(placeholderHeader()).toBe('Requisites not configured. Please contact support.');
    expect(screen.queryByTestId('i-have-paid')).toBeNull();
  });

  it('shows every bank requisite, beneficiary included', async () => {
    serveBank();
    renderApp(path('bank-requisites'), { language: 'en' });
    await settle();
    const text = document.querySelector('main')?.textContent ?? '';
    for (const value of [BANK.accountNumber, BANK.bik, BANK.correspondentAccount, BANK.inn]) {
      expect(text).toContain(value);
    }
  });

  it('counts down 2 hours from requisitesReadyAt as h:mm:ss', async () => {
    serveBank();
    renderApp(path('bank-requisites'), { language: 'en' });
    await settle();
    expect(screen.getByTestId('countdown').textContent).toContain('Time left: 2:00:00');
    await advance(1000);
    expect(screen.getByTestId('countdown').textContent).toContain('Time left: 1:59:59');
  });

  it('warns once less than 10 minutes are left, still as h:mm:ss', async () => {
    serveBank({ requisitesReadyAt: iso(NOW - 110 * MINUTE - 1000) });
    renderApp(path('bank-requisites'), { language: 'en' });
    await settle();
    const countdown = () => screen.getByTestId('countdown');
    expect(countdown().textContent).toContain('Time left: 0:09:59');
    expect(countdown().textContent).toContain('Less than 10 minutes left');
    expect(countdown().className).toContain('countdown--warning');
  });

  it('does not warn with more than 10 minutes left', async () => {
    serveBank({ requisitesReadyAt: iso(NOW - 109 * MINUTE) });
    renderApp(path('bank-requisites'), { language: 'en' });
    await settle();
    expect(screen.getByTestId('countdown').textContent).not.toContain('Less than 10 minutes');
  });

  it("'I have paid' posts payment-confirm and opens upload-receipt", async () => {
    const served = serveBank();
    served.api.on('POST', `/api/orders/${ID}/payment-confirm`, {
      json: { success: true, status: 'PAYMENT_PENDING' },
    });
    const app = renderApp(path('bank-requisites'), { language: 'en' });
    await settle();
    fireEvent.click(screen.getByTestId('i-have-paid'));
    await settle();
    expect(app.currentPath()).toBe(path('upload-receipt'));
  });

  it("a failed 'I have paid' shows an error, re-enables the button and stays", async () => {
    const served = serveBank();
    const held = deferred<FakeReply>();
    served.api.on('POST', `/api/orders/${ID}/payment-confirm`, () => held.promise);
    const app = renderApp(path('bank-requisites'), { language: 'en' });
    await settle();
    const button = () => screen.getByTestId<HTMLButtonElement>('i-have-paid');
    fireEvent.click(button());
    await settle();
    expect(button().disabled).toBe(true);
    held.resolve({ status: 500, json: { error: 'x', code: 'INTERNAL' } });
    await settle();
    expect(screen.getByTestId('pay-error').textContent).toBe(
      'Something went wrong. Please try again.',
    );
    expect(button().disabled).toBe(false);
    expect(app.currentPath()).toBe(path('bank-requisites'));
  });
});

describe('upload receipt', () => {
  const RECEIPT = `/api/orders/${ID}/receipt`;
  const MB10 = 10 * 1024 * 1024;

  beforeEach(() => {
    // jsdom has no object URLs; the image preview needs one.
    Object.defineProperty(URL, 'createObjectURL', {
      configurable: true,
      value: vi.fn(() => 'blob:preview'),
    });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: vi.fn() });
  });

  /** The first bytes of each kind of file, as a real one starts. */
  const HEADS: Record<string, string> = {
    'image/jpeg': '\xff\xd8\xff\xe0',
    'image/png': '\x89PNG\r\n\x1a\n',
    'application/pdf': '%PDF-1.7',
    'image/gif': 'GIF89a',
  };
  const bytesOf = (mime: string) =>
    Uint8Array.from(`${HEADS[mime] ?? 'plain text '}receipt-bytes`, (c) => c.charCodeAt(0));

  function file(name: string, mime: string, size?: number, realMime: string = mime): File {
    const made = new File([bytesOf(realMime)], name, { type: mime });
    if (size !== undefined) Object.defineProperty(made, 'size', { value: size });
    return made;
  }

  async function choose(picked: File): Promise<void> {
    fireEvent.change(screen.getByTestId('receipt-input'), { target: { files: [picked] } });
    await settle();
  }

  it("refuses a file that is neither an image nor a PDF: 'Please upload an image or PDF file'", async () => {
    serveOrder({ status: 'PAYMENT_PENDING' });
    renderApp(path('upload-receipt'), { language: 'en' });
    await settle();
    await choose(file('receipt.txt', 'text/plain'));
    expect(setup.dialogs.alert).toHaveBeenCalledWith('Please upload an image or PDF file');
    expect(screen.queryByTestId('receipt-preview')).toBeNull();
  });

  it('refuses a GIF named and typed as a PNG: the type is read from its bytes, as the server does', async () => {
    serveOrder({ status: 'PAYMENT_PENDING' });
    renderApp(path('upload-receipt'), { language: 'en' });
    await settle();
    await choose(file('screenshot.png', 'image/png', undefined, 'image/gif'));
    expect(setup.dialogs.alert).toHaveBeenCalledWith('Please upload an image or PDF file');
    expect(screen.queryByTestId('receipt-preview')).toBeNull();
  });

  it('the picker offers exactly the types the server stores, not any image', async () => {
    serveOrder({ status: 'PAYMENT_PENDING' });
    renderApp(path('upload-receipt'), { language: 'en' });
    await settle();
    const accept = screen.getByTestId<HTMLInputElement>('receipt-input').accept;
    expect(accept).toBe(RECEIPT_ACCEPT);
    expect(accept).not.toContain('image/*');
  });

  it("refuses a file above 10 MB: 'File is too large. Maximum size: 10MB'; exactly 10 MB is taken", async () => {
    serveOrder({ status: 'PAYMENT_PENDING' });
    renderApp(path('upload-receipt'), { language: 'en' });
    await settle();
    await choose(file('big.png', 'image/png', MB10 + 1));
    expect(setup.dialogs.alert).toHaveBeenCalledWith('File is too large. Maximum size: 10MB');
    expect(screen.queryByTestId('receipt-preview')).toBeNull();
    await choose(file('fits.png', 'image/png', MB10));
    expect(setup.dialogs.alert).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('receipt-preview')).toBeTruthy();
  });

  it("sending with no file alerts 'Please select a file' and sends nothing", async () => {
    const served = serveOrder({ status: 'PAYMENT_PENDING' });
    renderApp(path('upload-receipt'), { language: 'en' });
    await settle();
    fireEvent.click(screen.getByTestId('send-receipt'));
    await settle();
    expect(setup.dialogs.alert).toHaveBeenCalledWith('Please select a file');
    expect(served.api.callsTo('POST', RECEIPT)).toHaveLength(0);
  });

  it('an image gets a preview, a PDF a placeholder, and the file can be removed', async () => {
    serveOrder({ status: 'PAYMENT_PENDING' });
    renderApp(path('upload-receipt'), { language: 'en' });
    await settle();
    await choose(file('photo.jpg', 'image/jpeg'));
    expect(screen.getByRole('img', { name: 'photo.jpg' }).getAttribute('src')).toBe('blob:preview');
    fireEvent.click(screen.getByTestId('remove-receipt'));
    await settle();
    expect(screen.queryByTestId('receipt-preview')).toBeNull();
    await choose(file('statement.pdf', 'application/pdf'));
    expect(screen.getByTestId('pdf-placeholder')).toBeTruthy();
  });

  it('sends fileName, a base64 data URL and fileSize, then opens complete', async () => {
    const served = serveOrder({ status: 'PAYMENT_PENDING' });
    served.api.on('POST', RECEIPT, { json: { success: true, status: 'RECEIPT_UPLOADED' } });
    const app = renderApp(path('upload-receipt'), { language: 'en' });
    await settle();
    await choose(file('statement.pdf', 'application/pdf'));
    fireEvent.click(screen.getByTestId('send-receipt'));
    await advance(50);
    const sent = served.api.callsTo('POST', RECEIPT).map((c) => c.body);
    expect(sent).toEqual([
      {
        fileName: 'statement.pdf',
        fileData: `data:application/pdf;base64,${btoa('%PDF-1.7receipt-bytes')}`,
        fileSize: '%PDF-1.7receipt-bytes'.length,
      },
    ]);
    expect(app.currentPath()).toBe(path('complete'));
  });

  it("a failed upload alerts 'Error uploading receipt. Please try again.' and stays", async () => {
    const served = serveOrder({ status: 'PAYMENT_PENDING' });
    served.api.on('POST', RECEIPT, { status: 500, json: { error: 'x', code: 'INTERNAL' } });
    const app = renderApp(path('upload-receipt'), { language: 'en' });
    await settle();
    await choose(file('photo.jpg', 'image/jpeg'));
    fireEvent.click(screen.getByTestId('send-receipt'));
    await advance(50);
    expect(setup.dialogs.alert).toHaveBeenCalledWith('Error uploading receipt. Please try again.');
    expect(app.currentPath()).toBe(path('upload-receipt'));
  });

  it('a refused upload says why on a second line, in the chosen language', async () => {
    const served = serveOrder({ status: 'PAYMENT_PENDING' });
    served.api.on('POST', RECEIPT, { status: 409, json: { error: 'x', code: 'INVALID_STATUS' } });
    renderApp(path('upload-receipt'), { language: 'en' });
    await settle();
    await choose(file('photo.jpg', 'image/jpeg'));
    fireEvent.click(screen.getByTestId('send-receipt'));
    await advance(50);
    expect(setup.dialogs.alert).toHaveBeenCalledWith(
      'Error uploading receipt. Please try again.\n' +
        'This action is not available for the order in its current status',
    );
  });
});

describe('complete', () => {
  it.each<[OrderStatus, string]>([
    ['RECEIPT_UPLOADED', 'Checking your receipt'],
    ['PAYMENT_CONFIRMED', 'Sending crypto'],
    ['TX_PENDING', 'Checking the transaction'],
    ['TX_CONFIRMED', 'Sending funds'],
  ])('%s is labelled %s', async (status, label) => {
    serveOrder({ status });
    renderApp(path('complete'), { language: 'en' });
    await settle();
    expect(placeholderHeader()).toBe(label);
  });

  it('a status outside the in-progress set is labelled waiting', async () => {
    serveOrder({ status: 'PAYMENT_PENDING' });
    renderApp(path('complete'), { language: 'en' });
    await settle();
    const header = placeholderHeader();
    expect([
      'Checking your receipt',
      'Sending crypto',
      'Checking the transaction',
      'Sending funds',
    ]).not.toContain(header);
    expect(header).toBeTruthy();
  });

  it('the step under way is the current step to a screen reader, not only in bold', async () => {
    serveOrder({ status: 'PAYMENT_CONFIRMED' });
    renderApp(path('complete'), { language: 'en' });
    await settle();
    const current = document.querySelectorAll('.progress-steps [aria-current="step"]');
    expect([...current].map((step) => step.textContent)).toEqual(['Sending crypto']);
  });

  it('the label follows the status as it moves on', async () => {
    const served = serveOrder({ status: 'RECEIPT_UPLOADED' });
    renderApp(path('complete'), { language: 'en' });
    await settle();
    expect(placeholderHeader()).toBe('Checking your receipt');
    served.update({ status: 'PAYMENT_CONFIRMED' });
    await advance(3000);
    expect(placeholderHeader()).toBe('Sending crypto');
  });

  it('COMPLETED shows success with the electronic receipt (outgoingTxHash, copyable)', async () => {
    const hash = `0x${'ab'.repeat(32)}`;
    serveOrder({ status: 'COMPLETED', outgoingTxHash: hash });
    renderApp(path('complete'), { language: 'en' });
    await settle();
    expect(placeholderHeader()).toBe('Order completed');
    expect(screen.getByText('Electronic receipt')).toBeTruthy();
    expect(screen.getByTestId('outgoing-tx').dataset['copyValue']).toBe(hash);
  });

  it.each([
    ['en', 1, 5, 'Payout on the chain: 1\u00a0of\u00a05\u00a0confirmations'],
    ['en', 1, 1, 'Payout on the chain: 1\u00a0of\u00a01\u00a0confirmation'],
    ['ru', 1, 5, 'Выплата в сети: 1\u00a0из\u00a05\u00a0подтверждений'],
    ['ru', 2, 2, 'Выплата в сети: 2\u00a0из\u00a02\u00a0подтверждений'],
    ['ru', 1, 21, 'Выплата в сети: 1\u00a0из\u00a021\u00a0подтверждения'],
  ] as const)(
    "COMPLETED shows the payout's confirmations until final (%s, %i of %i)",
    async (language, confirmations, required, text) => {
      serveOrder({
        status: 'COMPLETED',
        outgoingTxHash: `0x${'ab'.repeat(32)}`,
        chainCheck: { state: 'seen', confirmations, required },
      });
      renderApp(path('complete'), { language });
      await settle();
      const line = screen.getByTestId('chain-check');
      expect(line.dataset['of']).toBe('payout');
      expect(line.textContent).toBe(text);
    },
  );

  it('COMPLETED with its payout final says so; a network checked by hand shows no line', async () => {
    const served = serveOrder({
      status: 'COMPLETED',
      outgoingTxHash: `0x${'ab'.repeat(32)}`,
      chainCheck: { state: 'confirmed', confirmations: 5, required: 5 },
    });
    renderApp(path('complete'), { language: 'en' });
    await settle();
    expect(screen.getByTestId('chain-check').textContent).toBe('The payout is final on the chain');
    served.update({ chainCheck: null });
    await advance(3000);
    expect(screen.queryByTestId('chain-check')).toBeNull();
  });
});

describe('office waiting', () => {
  const CONFIRM = `/api/orders/${ID}/office-confirm`;
  const officeOrder = (fields: Partial<OrderDetails> = {}): Partial<OrderDetails> => ({
    status: 'OFFICE_PENDING',
    paymentMethod: 'OFFICE',
    currency: 'AED',
    totalRub: 25000,
    cityId: 'dubai',
    ...fields,
  });
  const readyOrder = (fields: Partial<OrderDetails> = {}) =>
    officeOrder({
      status: 'OFFICE_READY',
      officeInstructions: 'Come to desk 3 and show code R-4821',
      reservedUntil: iso(NOW + 3 * 60 * MINUTE),
      reservation: RESERVATION,
      ...fields,
    });

  it('polls at once, then every 2 s, showing the elapsed time while pending', async () => {
    const served = serveOrder(officeOrder());
    renderApp(path('office-waiting'), { language: 'en' });
    await settle();
    expect(served.polls()).toBe(1);
    await advance(1999);
    expect(served.polls()).toBe(1);
    await advance(1);
    expect(served.polls()).toBe(2);
    expect(screen.getByTestId('elapsed').textContent).toBe('Elapsed: 0:02');
    expect(screen.queryByTestId('instructions')).toBeNull();
  });

  it('OFFICE_READY without instructions keeps waiting', async () => {
    serveOrder(officeOrder({ status: 'OFFICE_READY', officeInstructions: null }));
    renderApp(path('office-waiting'), { language: 'en' });
    await settle();
    expect(screen.queryByTestId('instructions')).toBeNull();
    expect(screen.getByTestId('elapsed')).toBeTruthy();
  });

  it('OFFICE_READY with instructions shows them with the rate-fixed countdown, cash to bring, crypto to get, wallet and office', async () => {
    const served = serveOrder(officeOrder());
    renderApp(path('office-waiting'), { language: 'en' });
    await settle();
    served.update(readyOrder());
    await advance(2000);
    // The answer came 2 s after the reservation was made.
    expect(screen.getByTestId('countdown').textContent).toContain('Rate fixed: 2:59:58 left');
    expect(screen.getByTestId('instructions').textContent).toContain(
      'Come to desk 3 and show code R-4821',
    );
    expect(screen.getByTestId('bring-amount').textContent.replace(/\s/g, ' ')).toContain(
      'AED 25,000',
    );
    expect(screen.getByTestId('get-amount').textContent).toContain('51.4774 USDC');
    expect(screen.getByTestId('office-address').textContent).toContain(
      'Dubai, Sheikh Zayed Road 1',
    );
    expect(document.querySelector(`[data-copy-value="${WALLET}"]`)).not.toBeNull();
    await advance(1000);
    expect(screen.getByTestId('countdown').textContent).toContain('Rate fixed: 2:59:57 left');
  });

  it('without reservedUntil the rate-fixed countdown shows 3:00:00', async () => {
    serveOrder(readyOrder({ reservedUntil: null }));
    renderApp(path('office-waiting'), { language: 'en' });
    await settle();
    expect(screen.getByTestId('countdown').textContent).toContain('Rate fixed: 3:00:00 left');
  });

  it('warns once less than 10 minutes of the reservation are left', async () => {
    serveOrder(readyOrder({ reservedUntil: iso(NOW + 9 * MINUTE) }));
    renderApp(path('office-waiting'), { language: 'en' });
    await settle();
    expect(screen.getByTestId('countdown').className).toContain('countdown--warning');
  });

  it("'I received' posts office-confirm and opens complete", async () => {
    const served = serveOrder(readyOrder());
    served.api.on('POST', CONFIRM, { json: { success: true, status: 'COMPLETED' } });
    const app = renderApp(path('office-waiting'), { language: 'en' });
    await settle();
    fireEvent.click(screen.getByTestId('i-received'));
    await settle();
    expect(served.api.callsTo('POST', CONFIRM)).toHaveLength(1);
    expect(app.currentPath()).toBe(path('complete'));
  });

  it("a refused 'I received' alerts 'Confirmation failed' with the reason on a second line, and stays", async () => {
    const served = serveOrder(readyOrder());
    served.api.on('POST', CONFIRM, {
      status: 409,
      json: { error: 'server words', code: 'INVALID_STATUS' },
    });
    const app = renderApp(path('office-waiting'), { language: 'en' });
    await settle();
    fireEvent.click(screen.getByTestId('i-received'));
    await settle();
    expect(setup.dialogs.alert).toHaveBeenCalledWith(
      'Confirmation failed\nThis action is not available for the order in its current status',
    );
    expect(app.currentPath()).toBe(path('office-waiting'));
  });

  it("in Russian a failed 'I received' alerts 'Ошибка при подтверждении'", async () => {
    const served = serveOrder(readyOrder());
    served.api.on('POST', CONFIRM, 'network-error');
    renderApp(path('office-waiting'), { language: 'ru' });
    await settle();
    fireEvent.click(screen.getByTestId('i-received'));
    await settle();
    expect(setup.dialogs.alert).toHaveBeenCalledWith('Ошибка при подтверждении');
  });
});

describe('office details', () => {
  const CONFIRM = `/api/orders/${ID}/office-confirm`;

  /** Opens the reservation and taps 'I received money', office-confirm answering `reply`. */
  async function receivedMoney(reply: FakeReply, language: 'en' | 'ru' = 'en') {
    const api = fakeApi([{ method: 'POST', path: CONFIRM, reply }]);
    const app = renderApp('/office-details', {
      language,
      historyState: { reservation: RESERVATION, orderId: ID },
    });
    await settle();
    fireEvent.click(screen.getByTestId('i-received-money'));
    await settle();
    return { api, app };
  }

  it('without navigation state returns to /', async () => {
    fakeApi([]);
    const app = renderApp('/office-details', { language: 'en' });
    await settle();
    expect(app.currentPath()).toBe('/');
  });

  it('with the reservation in navigation state shows the code, the office and the countdown', async () => {
    fakeApi([]);
    renderApp('/office-details', {
      language: 'en',
      historyState: { reservation: RESERVATION, orderId: ID },
    });
    await settle();
    expect(screen.getByTestId('reservation-code').dataset['copyValue']).toBe('R-4821');
    expect(screen.getByTestId('office-address').textContent).toContain(
      'Dubai, Sheikh Zayed Road 1',
    );
    expect(screen.getByTestId('map-link').getAttribute('href')).toBe(RESERVATION.office.mapLink);
    expect(screen.getByTestId('countdown').textContent).toContain('3:00:00');
  });

  it("'I received money' posts office-confirm and opens complete", async () => {
    const { api, app } = await receivedMoney({ json: { success: true, status: 'COMPLETED' } });
    expect(api.callsTo('POST', CONFIRM)).toHaveLength(1);
    expect(app.currentPath()).toBe(path('complete'));
  });

  it("a refused 'I received money' alerts the generic error and the reason from the server's code, never the server's text", async () => {
    const { app } = await receivedMoney(
      { status: 409, json: { error: 'Server says no', code: 'INVALID_STATUS' } },
      'ru',
    );
    const [[text]] = setup.dialogs.alert.mock.calls as [[string]];
    expect(text.split('\n')[0]).toBe('Произошла ошибка. Пожалуйста, попробуйте снова.');
    expect(text.split('\n')).toHaveLength(2);
    expect(text).not.toContain('Server says no');
    expect(app.currentPath()).toBe('/office-details');
  });
});

describe('order details', () => {
  it('a rejected order shows its rejection reason', async () => {
    serveOrder({ status: 'REJECTED', rejectReason: 'Payment from a third party' });
    renderApp(path('details'), { language: 'en' });
    await settle();
    expect(screen.getByTestId('detail-status').dataset['status']).toBe('REJECTED');
    expect(screen.getByTestId('reject-reason').textContent).toContain('Payment from a third party');
  });

  it.each([
    ['en', 'customer', 'You cancelled the order'],
    ['en', 'expired', 'The time ran out and the order was cancelled automatically'],
    ['en', 'no_operator', 'No operator answered in time, so the order was cancelled'],
    ['ru', 'customer', 'Вы отменили заказ'],
    ['ru', 'expired', 'Время вышло, и заказ отменён автоматически'],
    ['ru', 'no_operator', 'Оператор не ответил вовремя, поэтому заказ отменён'],
  ] as const)('(%s) a cancelled order says why (%s): %s', async (language, cancelReason, text) => {
    serveOrder({ status: 'CANCELLED', cancelReason });
    renderApp(path('details'), { language });
    await settle();
    expect(screen.getByTestId('cancel-reason').textContent).toContain(text);
  });

  it('an order that is not rejected shows no reason', async () => {
    serveOrder({ status: 'COMPLETED', rejectReason: null });
    renderApp(path('details'), { language: 'en' });
    await settle();
    expect(screen.queryByTestId('reject-reason')).toBeNull();
  });

  it.each([
    ['en', 'Order not found'],
    ['ru', 'Заказ не найден'],
  ] as const)("a missing order (404) shows '%s' text", async (language, text) => {
    fakeApi([
      {
        method: 'GET',
        path: STATUS,
        reply: { status: 404, json: { error: 'x', code: 'ORDER_NOT_FOUND' } },
      },
    ]);
    renderApp(path('details'), { language });
    await settle();
    expect(placeholderHeader()).toBe(text);
    expect(setup.dialogs.alert).not.toHaveBeenCalled();
  });

  it('a failed fetch alerts an error', async () => {
    fakeApi([{ method: 'GET', path: STATUS, reply: 'network-error' }]);
    renderApp(path('details'), { language: 'en' });
    await settle();
    expect(setup.dialogs.alert).toHaveBeenCalledWith('Something went wrong. Please try again.');
  });
});

describe('a failed poll (logged only, retried on the next poll)', () => {
  it.each<[string, number, Partial<OrderDetails>, Partial<OrderDetails>, string]>([
    [
      'waiting',
      2000,
      { status: 'WAITING_REQUISITES' },
      { status: 'REQUISITES_READY', requisites: CARD },
      path('payment'),
    ],
    [
      'payment',
      5000,
      { status: 'REQUISITES_READY', requisites: CARD },
      { status: 'REJECTED' },
      '/',
    ],
    [
      'upload-receipt',
      5000,
      { status: 'PAYMENT_PENDING' },
      { status: 'COMPLETED' },
      path('complete'),
    ],
    ['complete', 3000, { status: 'RECEIPT_UPLOADED' }, { status: 'REJECTED' }, '/'],
    [
      'office-waiting',
      2000,
      { status: 'OFFICE_PENDING', paymentMethod: 'OFFICE' },
      { status: 'COMPLETED' },
      path('complete'),
    ],
  ])(
    '%s stays as it was when a poll fails, and the next tick (%i ms) polls again',
    async (name, interval, before, after, target) => {
      const served = serveOrder(before);
      const app = renderApp(path(name), { language: 'en' });
      await advance(500);
      const headerBefore = placeholderHeader();
      const polled = served.polls();
      served.setDown(true);
      await advance(interval);
      expect(served.polls()).toBe(polled + 1);
      expect(app.currentPath()).toBe(path(name));
      expect(onScreen(name)).toBe(true);
      expect(placeholderHeader()).toBe(headerBefore);
      expect(screen.queryByText('Order not found')).toBeNull();
      expect(setup.dialogs.alert).not.toHaveBeenCalled();
      expect(console.warn).toHaveBeenCalled();
      served.setDown(false);
      served.update(after);
      await advance(interval);
      expect(app.currentPath()).toBe(target);
      // (the screen it opened may have polled too)
      expect(served.polls()).toBeGreaterThanOrEqual(polled + 2);
    },
  );
});
