/**
 * The orders the app's component tests show, in one place: a P2P buy of 51.4774 USDC on Base for
 * 5 000 ₽ waiting for requisites, changed field by field, and a fake server that answers its
 * status (and, when asked, the calls that move it on) as the real one does.
 */
import {
  API_PATHS,
  type BankRequisites,
  type CardRequisites,
  type HistoryResponse,
  type OrderDetails,
  type OrderSummary,
} from '../../src/shared/api';
import { fakeApi, type FakeApi, type FakeReply, type FakeRoute } from './render-app';

export const FIXTURE_NOW = Date.parse('2025-03-01T12:00:00.000Z');
export const FIXTURE_WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
export const iso = (ms: number) => new Date(ms).toISOString();
export const FIXTURE_TRON_DEPOSIT = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

/** The card an operator gives for a P2P buy. */
export const FIXTURE_CARD: CardRequisites = {
  bankName: 'Sberbank',
  cardNumber: '2202200000000001',
  cardHolder: 'IVAN PETROV',
  phone: '+79990000000',
  comment: 'Order 1',
};

/** The bank account of a bank buy; the beneficiary is the recipient, as the server fills it in. */
export const FIXTURE_BANK: BankRequisites = {
  recipientName: 'OOO Exchange',
  accountNumber: '40702810000000000001',
  bankName: 'Sberbank',
  bik: '044525225',
  correspondentAccount: '30101810400000000225',
  inn: '7700000000',
  beneficiaryName: 'OOO Exchange',
  beneficiaryAccount: '40702810000000000001',
};

/** A sell of 100 USDT on Tron for 9 713 ₽, waiting for the crypto at the deposit address. */
export const FIXTURE_SELL: Partial<OrderDetails> = {
  type: 'SELL',
  status: 'WAITING_CRYPTO',
  amount: 100,
  cryptoCurrency: 'USDT',
  network: 'TRC20',
  totalRub: 9713,
  walletAddress: null,
  requisites: { walletAddress: FIXTURE_TRON_DEPOSIT },
  payoutCard: { maskedNumber: '•••• 0366', bankName: 'Sberbank' },
};

/** A history card: the buy above, created at FIXTURE_NOW. */
export function orderSummary(fields: Partial<OrderSummary> = {}): OrderSummary {
  return {
    id: 'ord-1',
    type: 'BUY',
    status: 'WAITING_REQUISITES',
    amount: 51.4774,
    cryptoCurrency: 'USDC',
    network: 'BASE',
    currency: 'RUB',
    totalRub: 5000,
    rate: 97.13,
    paymentMethod: 'P2P',
    createdAt: iso(FIXTURE_NOW),
    updatedAt: iso(FIXTURE_NOW),
    cancelReason: null,
    unreadMessages: 0,
    ...fields,
  };
}

/** The status answer of that order; `serverTime` is the phone's now unless given. */
export function makeOrder(fields: Partial<OrderDetails> = {}): OrderDetails {
  return {
    ...orderSummary(),
    expiresAt: null,
    requisitesReadyAt: null,
    reservedUntil: null,
    cityId: null,
    rejectReason: null,
    rejectReasonCode: null,
    txHash: null,
    outgoingTxHash: null,
    officeInstructions: null,
    walletAddress: FIXTURE_WALLET,
    receipts: [],
    requisites: null,
    reservation: null,
    deepLink: null,
    chainCheck: null,
    verificationCode: 'K7P3QX',
    payoutCard: null,
    appeal: null,
    serverTime: iso(Date.now()),
    ...fields,
  };
}

export interface ServedOrder {
  readonly api: FakeApi;
  /** Changes what the next status polls answer (the server moved the order on). */
  readonly update: (fields: Partial<OrderDetails>) => void;
  /** While down, the status call fails as a network error does. */
  readonly setDown: (down: boolean) => void;
  readonly polls: () => number;
}

/** Serves My orders' first page: `orders`, and no older ones. */
export function serveHistory(orders: readonly OrderSummary[]): FakeApi {
  const answer: HistoryResponse = { orders: [...orders], hasMore: false };
  return fakeApi([{ method: 'GET', path: API_PATHS.history, reply: { json: answer } }]);
}

/**
 * Serves `base` changed by `fields` at GET /api/orders/{id}/status (its `serverTime` the phone's
 * clock plus `clockAheadMs`), with `routes` for the other calls; a route's reply may move the
 * order on through `update`.
 */
export function serveOrder(
  base: Partial<OrderDetails>,
  fields: Partial<OrderDetails> = {},
  options: {
    readonly clockAheadMs?: number;
    readonly routes?: (update: ServedOrder['update']) => readonly FakeRoute[];
  } = {},
): ServedOrder {
  let current: Partial<OrderDetails> = { ...base, ...fields };
  let down = false;
  const update = (next: Partial<OrderDetails>) => {
    current = { ...current, ...next };
  };
  const status = `/api/orders/${makeOrder(current).id}/status`;
  const api = fakeApi([
    {
      method: 'GET',
      path: status,
      reply: (): FakeReply =>
        down
          ? 'network-error'
          : {
              json: makeOrder({
                serverTime: iso(Date.now() + (options.clockAheadMs ?? 0)),
                ...current,
              }),
            },
    },
    ...(options.routes?.(update) ?? []),
  ]);
  return {
    api,
    update,
    setDown: (value) => {
      down = value;
    },
    polls: () => api.callsTo('GET', status).length,
  };
}
