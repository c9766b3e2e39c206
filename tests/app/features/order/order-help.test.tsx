/**
 * Help on the order screens: cancel, with a confirmation, on every screen where the
 * server lets a customer cancel (waiting, payment, bank-requisites, office-waiting, send-crypto),
 * offered only in the statuses of CUSTOMER_CANCELLABLE, ending on the order's details; and a
 * support button on every order screen that opens the support chat with the order's number typed.
 * The API and the clock are faked; each test names the rule it holds.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { OrderDetails } from '../../../../src/shared/api';
import {
  ORDER_SCREENS,
  orderScreenRule,
  type OrderScreen,
} from '../../../../src/shared/order-screens';
import { CUSTOMER_CANCELLABLE, ORDER_STATUSES } from '../../../../src/shared/order-status';
import {
  TEST_ENVIRONMENT,
  deferred,
  renderApp,
  settle,
  advance,
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
const ID = '3f9c2a7b-61d4-4e0a-9b7c-2d5e8f1a0c34';
const NUMBER = '3f9c2a7b';
const CANCEL = `/api/orders/${ID}/cancel`;
const REQUISITES = `/api/orders/${ID}/requisites`;
const SUPPORT = TEST_ENVIRONMENT.supportUrl;

const CARD = FIXTURE_CARD;
const BANK = FIXTURE_BANK;

const makeOrder = (fields: Partial<OrderDetails> = {}) => fixtureOrder({ id: ID, ...fields });

/** The screens where the server lets a customer cancel, each with an order it shows in full. */
const CANCEL_SCREENS = {
  waiting: { status: 'WAITING_REQUISITES' },
  payment: {
    status: 'REQUISITES_READY',
    requisites: CARD,
    requisitesReadyAt: iso(NOW),
    expiresAt: iso(NOW + 30 * 60_000),
  },
  'bank-requisites': {
    status: 'REQUISITES_READY',
    paymentMethod: 'BANK_ACCOUNT',
    requisitesReadyAt: iso(NOW),
    expiresAt: iso(NOW + 2 * 60 * 60_000),
  },
  'office-waiting': { status: 'OFFICE_PENDING', paymentMethod: 'OFFICE', currency: 'AED' },
  'send-crypto': {
    type: 'SELL',
    status: 'WAITING_CRYPTO',
    network: 'TRC20',
    requisites: { walletAddress: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL' },
  },
} as const satisfies Partial<Record<OrderScreen, Partial<OrderDetails>>>;
type CancelScreen = keyof typeof CANCEL_SCREENS;
const CANCEL_SCREEN_NAMES = Object.keys(CANCEL_SCREENS) as CancelScreen[];

/** Serves the order; a cancel answered with success moves it to CANCELLED, as the server does. */
function serveOrder(fields: Partial<OrderDetails>): ServedOrder {
  return serveFixture({ id: ID }, fields, {
    routes: (update) => [
      {
        method: 'GET',
        path: REQUISITES,
        reply: { json: { requisitesNotConfigured: false, requisites: BANK } },
      },
      {
        method: 'POST',
        path: CANCEL,
        reply: (): FakeReply => {
          update({ status: 'CANCELLED', cancelReason: 'customer' });
          return { json: { success: true, status: 'CANCELLED' } };
        },
      },
    ],
  });
}

const path = (name: string) => `/order/${ID}/${name}`;
const cancelButton = () => screen.queryByTestId<HTMLButtonElement>('cancel-order');

async function open(
  name: OrderScreen,
  fields: Partial<OrderDetails>,
  language: 'en' | 'ru' = 'en',
): Promise<ServedOrder & { app: ReturnType<typeof renderApp> }> {
  const served = serveOrder(fields);
  const app = renderApp(path(name), { language });
  // The waiting screen asks first after 0.5 s.
  await advance(500);
  return { ...served, app };
}

async function pressCancel(): Promise<void> {
  const button = cancelButton();
  if (button === null) throw new Error('no cancel button');
  fireEvent.click(button);
  await settle();
}

const setup = setUpScreenTests(NOW);

describe('cancel is offered only in the statuses a customer may cancel from (CUSTOMER_CANCELLABLE)', () => {
  const cases = CANCEL_SCREEN_NAMES.flatMap((name) =>
    ORDER_STATUSES.filter(
      // Statuses the screen leaves at once are not shown there.
      (status) =>
        orderScreenRule(name, makeOrder({ ...CANCEL_SCREENS[name], status }), true) === undefined,
    ).map((status) => [name, status, CUSTOMER_CANCELLABLE.includes(status)] as const),
  );

  it.each(cases)('%s in %s: offered %s', async (name, status, offered) => {
    const { app } = await open(name, { ...CANCEL_SCREENS[name], status });
    expect(app.currentPath()).toBe(path(name));
    expect(document.querySelector(`[data-screen="${name}"]`)).not.toBeNull();
    expect(cancelButton() !== null).toBe(offered);
  });

  it('every screen of the table is covered in each of its cancellable statuses', () => {
    for (const name of CANCEL_SCREEN_NAMES) {
      expect(cases.some(([n, , offered]) => n === name && offered)).toBe(true);
    }
    expect(cases.filter(([n]) => n === 'office-waiting').map(([, s]) => s)).toEqual(
      expect.arrayContaining(['OFFICE_PENDING', 'OFFICE_READY']),
    );
  });

  it.each(
    ORDER_SCREENS.filter((name) => !(name in CANCEL_SCREENS)).map(
      (name) => [name, name === 'details' ? 'CANCELLED' : 'PAYMENT_CONFIRMED'] as const,
    ),
  )('%s never offers cancel', async (name, status) => {
    await open(name, { status });
    expect(document.querySelector(`[data-screen="${name}"]`)).not.toBeNull();
    expect(cancelButton()).toBeNull();
  });
});

describe.each(CANCEL_SCREEN_NAMES)('cancel on %s', (name) => {
  it('asks first, naming the order; declined, nothing is posted and the screen stays', async () => {
    setup.dialogs.confirm.mockReturnValue(false);
    const { api, app } = await open(name, CANCEL_SCREENS[name]);
    await pressCancel();
    expect(setup.dialogs.confirm).toHaveBeenCalledWith(
      `Cancel order #${NUMBER}? This cannot be undone.`,
    );
    expect(api.callsTo('POST', CANCEL)).toHaveLength(0);
    expect(app.currentPath()).toBe(path(name));
    expect(cancelButton()?.disabled).toBe(false);
  });

  it("confirmed, posts cancel once, then the order's details show it Cancelled", async () => {
    setup.dialogs.confirm.mockReturnValue(true);
    const { api, app } = await open(name, CANCEL_SCREENS[name]);
    await pressCancel();
    expect(api.callsTo('POST', CANCEL)).toHaveLength(1);
    expect(app.currentPath()).toBe(path('details'));
    await settle();
    const status = screen.getByTestId('detail-status');
    expect(status.dataset['status']).toBe('CANCELLED');
    expect(status.textContent).toContain('Cancelled');
    expect(app.location.history).not.toContain('/my-orders');
    expect(setup.dialogs.alert).not.toHaveBeenCalled();
  });

  it('a poll that sees CANCELLED while the cancel is on its way does not send the customer elsewhere first', async () => {
    setup.dialogs.confirm.mockReturnValue(true);
    const { api, app, update } = await open(name, CANCEL_SCREENS[name]);
    const answer = deferred<FakeReply>();
    api.on('POST', CANCEL, () => answer.promise);
    await pressCancel();
    update({ status: 'CANCELLED' });
    await advance(6000);
    expect(app.currentPath()).toBe(path(name));
    answer.resolve({ json: { success: true, status: 'CANCELLED' } });
    await settle();
    expect(app.currentPath()).toBe(path('details'));
    expect(setup.dialogs.alert).not.toHaveBeenCalled();
  });

  it("refused, alerts the generic error and the reason from the server's code, never its text, and stays", async () => {
    setup.dialogs.confirm.mockReturnValue(true);
    const { api, app } = await open(name, CANCEL_SCREENS[name]);
    api.on('POST', CANCEL, {
      status: 409,
      json: { error: 'Server says no', code: 'INVALID_STATUS', status: 'REJECTED' },
    });
    await pressCancel();
    expect(setup.dialogs.alert).toHaveBeenCalledWith(
      'Something went wrong. Please try again.\n' +
        'This action is not available for the order in its current status',
    );
    expect(app.currentPath()).toBe(path(name));
    expect(cancelButton()?.disabled).toBe(false);
  });
});

describe('cancel in Russian', () => {
  it('asks in Russian and a failed call says why in Russian', async () => {
    setup.dialogs.confirm.mockReturnValue(true);
    const { api, app } = await open('waiting', CANCEL_SCREENS.waiting, 'ru');
    api.on('POST', CANCEL, 'network-error');
    await pressCancel();
    expect(setup.dialogs.confirm).toHaveBeenCalledWith(
      `Отменить заказ №${NUMBER}? Вернуть его будет нельзя.`,
    );
    expect(setup.dialogs.alert).toHaveBeenCalledWith(
      'Произошла ошибка. Пожалуйста, попробуйте снова.',
    );
    expect(app.currentPath()).toBe(path('waiting'));
  });
});

/** A status each order screen stays on, with what it needs to show its actions. */
const SUPPORT_ORDERS: Record<OrderScreen, Partial<OrderDetails>> = {
  ...CANCEL_SCREENS,
  'upload-receipt': { status: 'PAYMENT_PENDING' },
  complete: { status: 'RECEIPT_UPLOADED' },
  details: { status: 'COMPLETED' },
  'sell-waiting': { type: 'SELL', status: 'TX_PENDING' },
};

describe('support on every order screen opens the chat with the order number typed', () => {
  it.each(
    ORDER_SCREENS.flatMap((name) =>
      (
        [
          ['en', `Order #${NUMBER}: `],
          ['ru', `Заказ №${NUMBER}: `],
        ] as const
      ).map(([language, text]) => [name, language, text] as const),
    ),
  )('%s (%s): "%s"', async (name, language, text) => {
    await open(name, SUPPORT_ORDERS[name], language);
    expect(document.querySelector(`[data-screen="${name}"]`)).not.toBeNull();
    const buttons = screen.getAllByTestId('order-support');
    expect(buttons).toHaveLength(1);
    fireEvent.click(buttons[0] as HTMLElement);
    expect(setup.dialogs.open).toHaveBeenCalledTimes(1);
    const link = String(setup.dialogs.open.mock.calls[0]?.[0]);
    expect(link).toBe(`${SUPPORT}?text=${encodeURIComponent(text)}`);
    expect(decodeURIComponent(new URL(link).search.slice('?text='.length))).toBe(text);
  });
});
