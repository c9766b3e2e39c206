/**
 * The order lifecycle through HTTP, for the lifecycle, operator, sweeper and concurrency tests:
 * an operator identity, requisites an operator would really give, receipts that really are PNG
 * or PDF files, every status-changing call of the transition table, and orders created exactly
 * as the mini-app creates them (the server's rate, amount = total / rate to 4 decimals).
 */
import { OPERATOR_PATHS } from '../../src/shared/operator-api';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { DEMO_DEPOSIT_ADDRESSES, type AppConfig } from '../../src/server/platform/config/config';
import type { Database, NewOrderRow, OrderRow } from '../../src/server/platform/db/schema';
import {
  API_PATHS,
  type ApiErrorBody,
  type BankRequisites,
  type CardRequisites,
  type CreateOrderResponse,
  type OrderActionResponse,
  type OrderDetails,
  type RateResponse,
} from '../../src/shared/api';
import { isEvmNetwork, type CryptoCurrency, type NetworkId } from '../../src/shared/networks';
import type { OrderAction, OrderStatus } from '../../src/shared/order-status';
import { authHeader, initDataFor } from './identity';
import { createTestApp, type TestApp } from './test-app';

export interface TestUser {
  readonly id: number;
  readonly first_name: string;
  readonly username?: string;
  readonly language_code?: string;
}

/** The staff member every lifecycle app lists in OPERATOR_IDS. */
export const OPERATOR: TestUser = {
  id: 700_000_001,
  first_name: 'Оксана',
  username: 'oksana_desk',
  language_code: 'ru',
};

/** A Tron base58check address and an EIP-55 mixed-case one (the EIP's own test vector). */
export const TRON_WALLET = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
export const EVM_WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** 16 digits passing Luhn. */
export const VALID_CARD = '2200700123456781';

/** P2P card requisites as an operator types them (spaces in the number, holder in any case). */
export const CARD_REQUISITES = {
  bankName: 'Т-Банк',
  cardNumber: '2200 7001 2345 6781',
  cardHolder: 'Ivan Petrov',
  comment: 'Перевод по номеру карты, без комментария',
} as const;
/** What the order stores from CARD_REQUISITES. */
export const STORED_CARD_REQUISITES: CardRequisites = {
  bankName: 'Т-Банк',
  cardNumber: VALID_CARD,
  cardHolder: 'IVAN PETROV',
  comment: 'Перевод по номеру карты, без комментария',
};

/** Russian bank details: account and correspondent account 20 digits, BIK 9, INN 10. */
export const BANK_REQUISITES = {
  recipientName: 'ООО «Северный обмен»',
  accountNumber: '40702810938000123456',
  bankName: 'ПАО Сбербанк',
  bik: '044525225',
  correspondentAccount: '30101810400000000225',
  inn: '7707083893',
} as const;
/** What the order stores from BANK_REQUISITES: the beneficiary falls back to the recipient. */
export const STORED_BANK_REQUISITES: BankRequisites = {
  ...BANK_REQUISITES,
  beneficiaryName: BANK_REQUISITES.recipientName,
  beneficiaryAccount: BANK_REQUISITES.accountNumber,
};

export const OFFICE_INSTRUCTIONS =
  'Возьмите паспорт. Назовите код брони на ресепшене башни, вас проводят в офис.';

/** A fresh transaction hash in the shape of the network: EVM `0x` + 64 hex, Tron 64 hex. */
export function txHashFor(network: NetworkId): string {
  const hex = randomBytes(32).toString('hex');
  return isEvmNetwork(network) ? `0x${hex}` : hex;
}

// --- Receipts: real files, different bytes each time (the same file twice flags both orders) ---

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One chunk of a PNG file: its length, type, data and CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid 1×1 RGB PNG whose tEXt comment makes its bytes (and sha256) unique. */
export function pngFile(note: string = randomUUID()): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('tEXt', Buffer.from(`Comment\0${note}`, 'latin1')),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 0x2e, 0x8b, 0x57]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page PDF (empty page) with a unique comment. */
export function pdfFile(note: string = randomUUID()): Buffer {
  return Buffer.from(
    [
      '%PDF-1.4',
      `% receipt ${note}`,
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
      'trailer << /Root 1 0 R >>',
      '%%EOF',
      '',
    ].join('\n'),
    'latin1',
  );
}

/** The receipt body: file name, base64 data URL, size. */
export function receiptBody(bytes: Buffer, mime: string, fileName: string) {
  return {
    fileName,
    fileData: `data:${mime};base64,${bytes.toString('base64')}`,
    fileSize: bytes.length,
  };
}

// --- The app ---

/** A test app with OPERATOR as its operator and receipts in a private temporary directory. */
export async function createLifecycleApp(
  overrides: Partial<AppConfig> = {},
  options: { realClock?: boolean; jobs?: boolean } = {},
): Promise<TestApp> {
  const receiptsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exchange-receipts-'));
  const t = await createTestApp({ operatorIds: [OPERATOR.id], receiptsDir, ...overrides }, options);
  return {
    ...t,
    close: async () => {
      await t.close();
      fs.rmSync(receiptsDir, { recursive: true, force: true });
    },
  };
}

export const headersFor = (user: TestUser) => authHeader(initDataFor(user));

/** One call as `user` (no identity at all when `user` is null). */
export function send(
  t: TestApp,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  user: TestUser | null,
  body?: unknown,
): Promise<LightMyRequestResponse> {
  // Signed with the app's bot token, as Telegram signs it (with the demo token in demo mode),
  // when the app opens in the test's time: the server judges its age by the same clock.
  const token = t.config.botToken;
  const signed = { authDate: new Date(t.clock.now()), ...(token === undefined ? {} : { token }) };
  return t.app.inject({
    method,
    url,
    headers: user === null ? {} : authHeader(initDataFor(user, signed)),
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
}

/** The staff API's paths. */
export { OPERATOR_PATHS };

/** The actions of the transition table that an HTTP call makes, and the call that makes each. */
/**
 * The actions taken over HTTP without a node: 'expire' is the sweeper's; 'attachDeposit' reads
 * the chain (tests/server/chain/chain-deposit-attach.test.ts).
 */
export type HttpAction = Exclude<OrderAction, 'expire' | 'attachDeposit'>;

export const HTTP_ACTIONS: Readonly<
  Record<
    HttpAction,
    { readonly actor: 'customer' | 'operator'; readonly path: (id: string) => string }
  >
> = {
  cancel: { actor: 'customer', path: API_PATHS.cancel },
  confirmPayment: { actor: 'customer', path: API_PATHS.paymentConfirm },
  uploadReceipt: { actor: 'customer', path: API_PATHS.receipt },
  submitTxHash: { actor: 'customer', path: API_PATHS.txHash },
  confirmOfficeReceipt: { actor: 'customer', path: API_PATHS.officeConfirm },
  giveRequisites: { actor: 'operator', path: OPERATOR_PATHS.requisites },
  giveOfficeInstructions: { actor: 'operator', path: OPERATOR_PATHS.officeInstructions },
  operatorConfirmPayment: { actor: 'operator', path: OPERATOR_PATHS.confirmPayment },
  confirmIncomingTx: { actor: 'operator', path: OPERATOR_PATHS.confirmTx },
  complete: { actor: 'operator', path: OPERATOR_PATHS.complete },
  reject: { actor: 'operator', path: OPERATOR_PATHS.reject },
};

/** Makes `action` on an order: as `customer` for a customer action, as OPERATOR otherwise. */
export function perform(
  t: TestApp,
  action: HttpAction,
  orderId: string,
  customer: TestUser,
  body: unknown = {},
): Promise<LightMyRequestResponse> {
  const call = HTTP_ACTIONS[action];
  return send(t, 'POST', call.path(orderId), call.actor === 'customer' ? customer : OPERATOR, body);
}

// --- Reading back ---

export function orderRow(db: Kysely<Database>, id: string): Promise<OrderRow> {
  return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export function eventsOf(db: Kysely<Database>, orderId: string) {
  return db
    .selectFrom('order_events')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
}

export async function statusOf(t: TestApp, id: string, customer: TestUser): Promise<OrderDetails> {
  const res = await send(t, 'GET', API_PATHS.orderStatus(id), customer);
  expect(res.statusCode).toBe(200);
  return res.json<OrderDetails>();
}

/** Expects a 200 action answer with `status`. */
export function expectMoved(res: LightMyRequestResponse, status: OrderStatus): void {
  expect({ code: res.statusCode, body: res.json<unknown>() }).toEqual({
    code: 200,
    body: { success: true, status } satisfies OrderActionResponse,
  });
}

/** Expects 409 INVALID_STATUS naming the order's current status. */
export function expectRefused(res: LightMyRequestResponse, current: OrderStatus): void {
  expect(res.statusCode).toBe(409);
  expect(res.json<ApiErrorBody>()).toMatchObject({ code: 'INVALID_STATUS', status: current });
}

// --- Orders as the mini-app creates them ---

export type OrderKind = 'p2pBuy' | 'bankBuy' | 'officeBuy' | 'sell';

interface KindSpec {
  readonly type: 'BUY' | 'SELL';
  readonly paymentMethod: 'P2P' | 'BANK_ACCOUNT' | 'OFFICE';
  readonly currency: string;
  readonly cryptoCurrency: CryptoCurrency;
  readonly network: NetworkId;
  /** The fiat total the customer typed. */
  readonly total: number;
}

export const ORDER_KINDS: Readonly<Record<OrderKind, KindSpec>> = {
  p2pBuy: {
    type: 'BUY',
    paymentMethod: 'P2P',
    currency: 'RUB',
    cryptoCurrency: 'USDT',
    network: 'TRC20',
    total: 15_000,
  },
  bankBuy: {
    type: 'BUY',
    paymentMethod: 'BANK_ACCOUNT',
    currency: 'RUB',
    cryptoCurrency: 'USDC',
    network: 'BEP20',
    total: 650_000,
  },
  officeBuy: {
    type: 'BUY',
    paymentMethod: 'OFFICE',
    currency: 'USD',
    cryptoCurrency: 'USDT',
    network: 'TRC20',
    total: 12_000,
  },
  sell: {
    type: 'SELL',
    paymentMethod: 'P2P',
    currency: 'RUB',
    cryptoCurrency: 'USDT',
    network: 'TRC20',
    total: 9_300,
  },
};

/** `GET /api/rates/calculate` as the app asks it. */
export async function rateFor(t: TestApp, customer: TestUser, spec: KindSpec): Promise<number> {
  const query = new URLSearchParams({
    amount: String(spec.total),
    currency: spec.currency,
    operation: spec.type,
    cryptoCurrency: spec.cryptoCurrency,
    paymentMethod: spec.paymentMethod,
  });
  const res = await send(t, 'GET', `${API_PATHS.rate}?${query.toString()}`, customer);
  expect(res.statusCode).toBe(200);
  return res.json<RateResponse>().rate;
}

/** The create payload the app builds for a kind of order at `rate`. */
export function createPayload(kind: OrderKind, rate: number, overrides: object = {}) {
  const spec = ORDER_KINDS[kind];
  const common = {
    type: spec.type,
    paymentMethod: spec.paymentMethod,
    currency: spec.currency,
    cryptoCurrency: spec.cryptoCurrency,
    network: spec.network,
    rate,
    amount: Math.round((spec.total / rate) * 10_000) / 10_000,
    totalRub: spec.total,
  };
  const wallet = isEvmNetwork(spec.network) ? EVM_WALLET : TRON_WALLET;
  const byKind: Record<OrderKind, object> = {
    p2pBuy: { walletAddress: wallet },
    bankBuy: { walletAddress: wallet },
    officeBuy: { walletAddress: wallet, cityId: 'moscow' },
    sell: {
      cardNumber: VALID_CARD,
      cardHolder: 'IVAN PETROV',
      bankName: 'Сбербанк',
      phone: '+7 916 123-45-67',
    },
  };
  return { ...common, ...byKind[kind], ...overrides };
}

/** Creates an order through POST /api/orders/create with the server's own rate; its id. */
export async function createOrderViaHttp(
  t: TestApp,
  customer: TestUser,
  kind: OrderKind,
): Promise<string> {
  const res = await send(
    t,
    'POST',
    API_PATHS.createOrder,
    customer,
    createPayload(kind, await rateFor(t, customer, ORDER_KINDS[kind])),
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreateOrderResponse>().orderId;
}

// --- Orders written straight into the database, in the shape of each kind ---

/** Row fields for insertOrder that make an order of `kind` (any status may be given with them). */
export function rowOf(kind: OrderKind): Partial<NewOrderRow> {
  switch (kind) {
    case 'p2pBuy':
      return { type: 'BUY', payment_method: 'P2P', network: 'TRC20', wallet_address: TRON_WALLET };
    case 'bankBuy':
      return {
        type: 'BUY',
        payment_method: 'BANK_ACCOUNT',
        crypto_currency: 'USDC',
        network: 'BEP20',
        wallet_address: EVM_WALLET,
        amount_units: 6_500_000_000,
        total_minor: 65_000_000,
        rate_units: 100_000_000,
      };
    case 'officeBuy':
      return {
        type: 'BUY',
        payment_method: 'OFFICE',
        currency: 'USD',
        network: 'TRC20',
        wallet_address: TRON_WALLET,
        city_id: 'moscow',
        amount_units: 11_881_188_100,
        total_minor: 1_200_000,
        rate_units: 1_010_000,
      };
    case 'sell':
      return {
        type: 'SELL',
        payment_method: 'P2P',
        network: 'TRC20',
        wallet_address: null,
        requisites: JSON.stringify({ walletAddress: DEMO_DEPOSIT_ADDRESSES.trc20 }),
        payout_card: JSON.stringify({
          cardNumber: VALID_CARD,
          cardHolder: 'IVAN PETROV',
          bankName: 'Сбербанк',
        }),
      };
  }
}

/** The kind an order in `status` most naturally is. */
export function naturalKind(status: OrderStatus): OrderKind {
  if (status === 'WAITING_CRYPTO' || status === 'TX_PENDING' || status === 'TX_CONFIRMED') {
    return 'sell';
  }
  if (status === 'OFFICE_PENDING' || status === 'OFFICE_READY') return 'officeBuy';
  return 'p2pBuy';
}
