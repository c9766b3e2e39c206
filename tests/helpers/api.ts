/**
 * The customer's calls as the mini-app makes them, for `app.inject` tests: the rate it asks for,
 * the payload it builds from that rate (amount = total / rate, 4 decimals) and the answers' codes.
 */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  API_PATHS,
  type ApiErrorBody,
  type CreateOrderResponse,
  type OrderDetails,
  type RateResponse,
} from '../../src/shared/api';
import type { ErrorCode } from '../../src/shared/errors';
import { ERROR_HTTP_STATUS } from '../../src/shared/errors';
import type { CryptoCurrency, NetworkId } from '../../src/shared/networks';
import type { OrderType, PaymentMethod } from '../../src/shared/order-status';
import { authHeader, initDataFor } from './identity';
import type { TestApp } from './test-app';

export interface TestUser {
  readonly id: number;
  readonly first_name: string;
  readonly username?: string;
  readonly language_code?: string;
}

/** Valid addresses: a Tron base58check address and an EIP-55 mixed-case one (the EIP's vector). */
export const TRON_WALLET = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
export const EVM_WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** A card number that passes Luhn (16 digits). */
export const VALID_CARD = '2200700123456781';

let nextUserId = 300_000_000;
/** A customer no other test has used, so limits and lists start empty. */
export function newCustomer(firstName = 'Customer'): TestUser {
  nextUserId += 1;
  return { id: nextUserId, first_name: firstName, language_code: 'en' };
}

export const headersFor = (user: TestUser) => authHeader(initDataFor(user));

/** Init data of `user` whose user id was changed after signing: someone claiming to be another. */
export function forgedInitData(user: TestUser): string {
  const genuine = initDataFor(user);
  const forged = genuine.replace(
    encodeURIComponent(`"id":${user.id}`),
    encodeURIComponent(`"id":${user.id + 1}`),
  );
  expect(forged).not.toBe(genuine);
  return forged;
}

/** Init data of `user` signed two days ago: older than the 24 h the server accepts. */
export function expiredInitData(user: TestUser): string {
  return initDataFor(user, { authDate: new Date(Date.now() - 2 * 86_400_000) });
}

export function get(t: TestApp, url: string, user?: TestUser) {
  return t.app.inject({ method: 'GET', url, headers: user === undefined ? {} : headersFor(user) });
}

export function post(t: TestApp, url: string, body: unknown, user?: TestUser) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: user === undefined ? {} : headersFor(user),
    payload: body as Record<string, unknown>,
  });
}

/** A POST with a body sent exactly as given (junk, malformed JSON, other content types). */
export function postRaw(
  t: TestApp,
  url: string,
  raw: string | Buffer,
  user?: TestUser,
  contentType = 'application/json',
) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...(user === undefined ? {} : headersFor(user)), 'content-type': contentType },
    payload: raw,
  });
}

/** Asserts an error answer: the HTTP status of the code, and `{error, code}` in the body. */
export function expectError(res: LightMyRequestResponse, code: ErrorCode): ApiErrorBody {
  const body = res.json<ApiErrorBody>();
  expect({ status: res.statusCode, code: body.code }).toEqual({
    status: ERROR_HTTP_STATUS[code],
    code,
  });
  expect(typeof body.error).toBe('string');
  expect(body.error.length).toBeGreaterThan(0);
  return body;
}

export interface RateArgs {
  readonly currency?: string;
  readonly operation?: OrderType;
  readonly cryptoCurrency?: CryptoCurrency;
  readonly paymentMethod?: PaymentMethod;
}

export function rateUrl(args: Record<string, string | number>): string {
  const query = new URLSearchParams(
    Object.entries(args).map(([k, v]) => [k, String(v)] as [string, string]),
  );
  return `${API_PATHS.rate}?${query.toString()}`;
}

/** The rate the app shows before it creates an order (`GET /api/rates/calculate`). */
export async function rateOf(t: TestApp, user: TestUser, args: RateArgs = {}): Promise<number> {
  const res = await get(
    t,
    rateUrl({
      amount: 1000,
      currency: args.currency ?? 'RUB',
      operation: args.operation ?? 'BUY',
      cryptoCurrency: args.cryptoCurrency ?? 'USDT',
      paymentMethod: args.paymentMethod ?? 'P2P',
    }),
    user,
  );
  expect(res.statusCode).toBe(200);
  return res.json<RateResponse>().rate;
}

/** The app's crypto amount for a fiat total: total / rate, rounded to 4 decimals. */
export function cryptoFor(total: number, rate: number): number {
  return Math.round((total / rate) * 10_000) / 10_000;
}

export interface OrderArgs {
  readonly type?: OrderType;
  readonly paymentMethod?: PaymentMethod;
  readonly currency?: string;
  readonly cryptoCurrency?: CryptoCurrency;
  readonly network?: NetworkId;
  /** The fiat total the customer typed. */
  readonly total: number;
}

/**
 * The create payload the app builds: asks the server's rate, then amount = total / rate. Extra
 * fields (wallet, card, city) come from `extra`, which may also override any field.
 */
export async function orderPayload(
  t: TestApp,
  user: TestUser,
  args: OrderArgs,
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const type = args.type ?? 'BUY';
  const paymentMethod = args.paymentMethod ?? 'P2P';
  const currency = args.currency ?? 'RUB';
  const cryptoCurrency = args.cryptoCurrency ?? 'USDT';
  const rate = await rateOf(t, user, { currency, operation: type, cryptoCurrency, paymentMethod });
  const base: Record<string, unknown> = {
    type,
    paymentMethod,
    currency,
    cryptoCurrency,
    network: args.network ?? 'TRC20',
    rate,
    amount: cryptoFor(args.total, rate),
    totalRub: args.total,
  };
  const wallet = (args.network ?? 'TRC20') === 'TRC20' ? TRON_WALLET : EVM_WALLET;
  const ownFields: Record<string, unknown> =
    type === 'SELL'
      ? { cardNumber: VALID_CARD, cardHolder: 'IVAN PETROV', bankName: 'Sberbank' }
      : { walletAddress: wallet };
  return { ...base, ...ownFields, ...extra };
}

export function createRaw(t: TestApp, user: TestUser, payload: unknown) {
  return post(t, API_PATHS.createOrder, payload, user);
}

/** Creates an order the way the app does and returns its id (201 expected). */
export async function createOrder(
  t: TestApp,
  user: TestUser,
  args: OrderArgs,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await createRaw(t, user, await orderPayload(t, user, args, extra));
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json<CreateOrderResponse>();
  expect(body.success).toBe(true);
  return body.orderId;
}

export async function statusOf(t: TestApp, user: TestUser, id: string): Promise<OrderDetails> {
  const res = await get(t, API_PATHS.orderStatus(id), user);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OrderDetails>();
}

/** The order's audit trail as stored: from, to and actor of every event, oldest first. */
export async function eventsOf(t: TestApp, id: string) {
  return t.database.db
    .selectFrom('order_events')
    .select(['from_status', 'to_status', 'actor'])
    .where('order_id', '=', id)
    .orderBy('id')
    .execute();
}
