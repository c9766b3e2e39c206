/**
 * The order-screen table: where a history card leads, and that the
 * screens' redirects and the history cards agree, so that no screen sends the customer to a
 * screen that sends them straight on again.
 */
import { describe, expect, it } from 'vitest';
import {
  HISTORY_CARD_TABLE,
  ORDER_SCREENS,
  ORDER_SCREEN_TABLE,
  historyCardTarget,
  orderScreenPath,
  orderScreenRoute,
  orderScreenRule,
  type OrderForRules,
  type OrderScreen,
  type OrderScreenRule,
} from '../../src/shared/order-screens';
import {
  ORDER_STATUSES,
  ORDER_TYPES,
  PAYMENT_METHODS,
  type OrderStatus,
} from '../../src/shared/order-status';

/** Every kind of order there is: each status, type and method, with and without requisites. */
const EVERY_ORDER: readonly OrderForRules[] = ORDER_STATUSES.flatMap((status) =>
  ORDER_TYPES.flatMap((type) =>
    PAYMENT_METHODS.flatMap((paymentMethod) =>
      [null, { walletAddress: 'x' }].map((requisites) => ({
        status,
        type,
        paymentMethod,
        requisites,
      })),
    ),
  ),
);

const describeOrder = (o: OrderForRules) =>
  `${o.type} ${o.paymentMethod} ${o.status}${o.requisites === null ? '' : ' with requisites'}`;

describe('navigation from a history card', () => {
  const card = (
    status: OrderStatus,
    paymentMethod: 'P2P' | 'BANK_ACCOUNT' | 'OFFICE' = 'P2P',
    type: 'BUY' | 'SELL' = 'BUY',
  ) => historyCardTarget({ status, paymentMethod, type });

  it.each([
    ['WAITING_REQUISITES', 'P2P', 'BUY', 'waiting'],
    ['OFFICE_PENDING', 'OFFICE', 'BUY', 'office-waiting'],
    ['OFFICE_READY', 'OFFICE', 'BUY', 'office-waiting'],
    ['REQUISITES_READY', 'BANK_ACCOUNT', 'BUY', 'bank-requisites'],
    ['REQUISITES_READY', 'OFFICE', 'BUY', 'office-waiting'],
    ['REQUISITES_READY', 'P2P', 'BUY', 'payment'],
    ['PAYMENT_PENDING', 'P2P', 'BUY', 'upload-receipt'],
    ['PAYMENT_STARTED', 'BANK_ACCOUNT', 'BUY', 'upload-receipt'],
    ['RECEIPT_UPLOADED', 'P2P', 'BUY', 'complete'],
    ['PAYMENT_CONFIRMED', 'P2P', 'BUY', 'complete'],
    ['WAITING_CRYPTO', 'P2P', 'SELL', 'send-crypto'],
    ['TX_PENDING', 'P2P', 'SELL', 'sell-waiting'],
    ['TX_CONFIRMED', 'P2P', 'SELL', 'sell-waiting'],
    ['COMPLETED', 'P2P', 'SELL', 'details'],
    ['CANCELLED', 'BANK_ACCOUNT', 'BUY', 'details'],
    ['REJECTED', 'OFFICE', 'BUY', 'details'],
  ] as const)('%s (%s %s) opens %s', (status, method, type, target) => {
    expect(card(status, method, type)).toBe(target);
  });

  it('opens the details for a status the table does not name for the type (a BUY in TX_PENDING)', () => {
    expect(card('TX_PENDING', 'P2P', 'BUY')).toBe('details');
    expect(card('WAITING_CRYPTO', 'P2P', 'BUY')).toBe('details');
  });

  it('names every status in some row', () => {
    const named = new Set(HISTORY_CARD_TABLE.flatMap((row) => row.statuses));
    expect([...named].sort()).toEqual([...ORDER_STATUSES].sort());
  });

  it('builds the route /order/{orderId}/{screen}', () => {
    expect(orderScreenPath('abc-123', 'send-crypto')).toBe('/order/abc-123/send-crypto');
  });
});

/** A P2P buy in `status`, without requisites. */
const p2pBuy = (status: OrderStatus): OrderForRules => ({
  status,
  type: 'BUY',
  paymentMethod: 'P2P',
  requisites: null,
});

describe('the order screens', () => {
  it('are the nine, each with its route', () => {
    expect(ORDER_SCREENS.map(orderScreenRoute)).toEqual([
      '/order/:orderId/waiting',
      '/order/:orderId/payment',
      '/order/:orderId/bank-requisites',
      '/order/:orderId/upload-receipt',
      '/order/:orderId/complete',
      '/order/:orderId/details',
      '/order/:orderId/send-crypto',
      '/order/:orderId/sell-waiting',
      '/order/:orderId/office-waiting',
    ]);
  });

  it('encode the order id in the path', () => {
    expect(orderScreenPath('a/b', 'details')).toBe('/order/a%2Fb/details');
  });

  it('stay on a status no row names (the waiting screen on WAITING_REQUISITES)', () => {
    const order = p2pBuy('WAITING_REQUISITES');
    expect(orderScreenRule('waiting', order, true)).toBeUndefined();
  });

  it('apply an on-load row to the first answer only (payment: CANCELLED alerts orderRejected on load, why it ended later)', () => {
    const order = p2pBuy('CANCELLED');
    expect(orderScreenRule('payment', order, true)?.alert).toBe('orderRejected');
    expect(orderScreenRule('payment', order, false)?.alert).toBe('ended');
  });

  it('take REQUISITES_READY on the waiting screen only with requisites present', () => {
    const order = p2pBuy('REQUISITES_READY');
    expect(orderScreenRule('waiting', order, false)).toBeUndefined();
    expect(orderScreenRule('waiting', { ...order, requisites: {} }, false)?.go).toBe('payment');
  });
});

describe('the table agrees with itself', () => {
  const redirects = ORDER_SCREENS.flatMap((screen) =>
    EVERY_ORDER.flatMap((order) =>
      [true, false].flatMap((first) => {
        const rule = orderScreenRule(screen, order, first);
        return rule === undefined || rule.go === '/' || rule.go === '/my-orders'
          ? []
          : [{ screen, order, next: rule.go }];
      }),
    ),
  );

  it('has redirects between order screens to check', () => {
    expect(redirects.length).toBeGreaterThan(0);
  });

  it.each(redirects.map((r) => [r.screen, describeOrder(r.order), r.next, r.order] as const))(
    '%s, seeing %s, goes to %s, which stays',
    (_screen, _label, next, order) => {
      expect(orderScreenRule(next, order, true)).toBeUndefined();
    },
  );

  it.each(EVERY_ORDER.map((order) => [describeOrder(order), historyCardTarget(order), order]))(
    'a history card of a %s order opens %s, which stays',
    (_label, target, order) => {
      expect(orderScreenRule(target, order, true)).toBeUndefined();
    },
  );

  it('names only known statuses, and no screen has a row that can never match', () => {
    for (const screen of ORDER_SCREENS) {
      ORDER_SCREEN_TABLE[screen].rules.forEach((rule, index) => {
        const reachable = EVERY_ORDER.some(
          (order) =>
            [true, false].some((first) => orderScreenRule(screen, order, first) === rule) &&
            rule.statuses.every((s: OrderStatus) => ORDER_STATUSES.includes(s)),
        );
        expect(reachable, `${screen} row ${index}`).toBe(true);
      });
    }
  });
});

describe('the table says what the order statuses say', () => {
  /** A row as a sentence: `statuses [narrowing] → destination [alert] [order passed]`. */
  const sentence = (rule: OrderScreenRule) =>
    [
      rule.statuses.join('|'),
      rule.type,
      rule.paymentMethod,
      rule.withRequisites === true ? 'with requisites' : undefined,
      rule.onLoad === true ? 'on load' : undefined,
      '→',
      rule.go,
      rule.alert === undefined ? undefined : `alert ${rule.alert}`,
      rule.passOrder === true ? 'passing the order' : undefined,
    ]
      .filter((part) => part !== undefined)
      .join(' ');

  it.each<[OrderScreen, readonly string[]]>([
    [
      'waiting',
      [
        'REQUISITES_READY BANK_ACCOUNT with requisites → bank-requisites',
        'REQUISITES_READY with requisites → payment passing the order',
        'REJECTED|CANCELLED → /my-orders alert ended',
      ],
    ],
    [
      'payment',
      [
        'REJECTED|CANCELLED on load → / alert orderRejected',
        'REJECTED → / alert orderRejected',
        'CANCELLED → / alert ended',
        'COMPLETED → complete',
      ],
    ],
    ['bank-requisites', ['REJECTED|CANCELLED → /my-orders alert ended']],
    ['upload-receipt', ['REJECTED → / alert orderRejected', 'COMPLETED → complete']],
    ['complete', ['REJECTED → / alert orderRejected']],
    ['details', []],
    [
      'send-crypto',
      [
        'TX_PENDING|TX_CONFIRMED → sell-waiting',
        'COMPLETED → complete',
        'REJECTED|CANCELLED → /my-orders alert ended',
      ],
    ],
    ['sell-waiting', ['COMPLETED → complete', 'REJECTED|CANCELLED → /my-orders alert ended']],
    ['office-waiting', ['REJECTED|CANCELLED → /my-orders alert ended', 'COMPLETED → complete']],
  ])('%s: %j', (screen, sentences) => {
    expect(ORDER_SCREEN_TABLE[screen].rules.map(sentence)).toEqual(sentences);
  });

  it('complete celebrates COMPLETED and PAYMENT_CONFIRMED with a success haptic, no other screen does', () => {
    expect(
      ORDER_SCREENS.flatMap((screen) =>
        (ORDER_SCREEN_TABLE[screen].successHaptic ?? []).map((status) => `${screen} ${status}`),
      ),
    ).toEqual(['complete COMPLETED', 'complete PAYMENT_CONFIRMED']);
  });

  it('only the read-only details alert a failed call; every polled screen retries it', () => {
    expect(ORDER_SCREENS.filter((s) => ORDER_SCREEN_TABLE[s].onFailure === 'alert')).toEqual([
      'details',
    ]);
  });
});
