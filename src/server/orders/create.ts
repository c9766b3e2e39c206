/**
 * `POST /api/orders/create`: the server is the authority, so it re-checks everything the app
 * checked against its own data, then stores the order and its first event in one transaction.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { CreateOrderResponse } from '../../shared/api';
import { checkWalletAddress } from '../../shared/addresses';
import { DEFAULT_SELL_AMOUNT, fiatBounds } from '../../shared/limits';
import {
  fiatTotalMinor,
  fromUnits,
  MINOR_PER_FIAT,
  toMinor,
  toUnits,
  unitsToDecimal,
} from '../../shared/money';
import { isEvmNetwork, networksFor, type NetworkId } from '../../shared/networks';
import { ACTIVE_STATUSES, type OrderStatus } from '../../shared/order-status';
import { CRYPTO_SEND_WINDOW_MS, PAYMENT_WINDOWS } from '../../shared/limits';
import type { CreateOrderPayload } from '../../shared/schemas/create-order';
import type { AppConfig } from '../platform/config/config';
import type { Caller } from '../platform/identity/authenticator';
import { recordCustomer } from '../platform/identity/telegram-auth';
import type { ServerContext } from '../platform/context';
import type { Kysely, Transaction } from 'kysely';
import { ORDER_COLUMNS, type Database, type NewOrderRow } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { alertOperators, notifyCustomer } from './order-messages';
import type { Quote } from './pricing';
import { methodTakesCurrency } from '../../shared/currencies';
import { holdDepositAmount } from './deposit-amounts';
import { storedPayoutCard } from './payout-card';
import { VERIFICATION_CODE_LENGTH, verificationCodeFrom } from '../../shared/verification-code';

/** The customer's total may differ from the server's by rounding, never by more than 1 unit. */
const TOTAL_TOLERANCE_MINOR = MINOR_PER_FIAT;

interface Priced {
  readonly rateUnits: number;
  readonly amountUnits: number;
  readonly totalMinor: number;
}

interface Start {
  readonly status: OrderStatus;
  readonly requisites: string | null;
  readonly requisitesReadyAt: number | null;
  readonly expiresAt: number | null;
}

export function depositAddressFor(config: AppConfig, network: NetworkId): string {
  return isEvmNetwork(network) ? config.depositAddresses.evm : config.depositAddresses.trc20;
}

/** A sell's amount is its exact amount (deposit-amounts.ts), its rouble total worked out on it. */
async function withExactAmount(
  trx: Transaction<Database>,
  ctx: ServerContext,
  row: NewOrderRow,
  now: number,
): Promise<NewOrderRow> {
  const key = { network: row.network, coin: row.crypto_currency };
  const exact = await holdDepositAmount(
    trx,
    key,
    row.amount_units,
    row.id,
    now,
    ctx.config.depositAmountHoldMs,
  );
  return { ...row, amount_units: exact, total_minor: fiatTotalMinor(exact, row.rate_units) };
}

/** Checked before pricing: the method takes the currency and the network, the wallet is valid. */
function checkRoute(payload: CreateOrderPayload): void {
  const method = payload.paymentMethod;
  if (!methodTakesCurrency(method, payload.currency)) throw new AppError('VALIDATION_FAILED');
  if (!networksFor(method, payload.cryptoCurrency).includes(payload.network)) {
    throw new AppError('UNSUPPORTED_NETWORK');
  }
  if (
    payload.type === 'BUY' &&
    checkWalletAddress(payload.network, payload.walletAddress) !== null
  ) {
    throw new AppError('INVALID_WALLET_ADDRESS');
  }
}

async function officeCityId(
  db: Kysely<Database>,
  payload: CreateOrderPayload,
): Promise<string | null> {
  if (payload.paymentMethod !== 'OFFICE') return null;
  const city = await db
    .selectFrom('cities')
    .select(['id', 'currencies'])
    .where('id', '=', payload.cityId)
    .executeTakeFirst();
  const takes =
    city !== undefined && (JSON.parse(city.currencies) as string[]).includes(payload.currency);
  if (!takes) throw new AppError('UNKNOWN_CITY');
  return payload.cityId;
}

/** Today's quote, a positive amount (a sell without one sends the default), within limits. */
async function priceOrder(
  ctx: ServerContext,
  quote: Quote,
  payload: CreateOrderPayload,
): Promise<Priced> {
  const method = payload.paymentMethod;
  const rateUnits = await quote(ctx, {
    fiat: payload.currency,
    crypto: payload.cryptoCurrency,
    method,
    operation: payload.type,
  });
  if (toUnits(payload.rate) !== rateUnits) {
    throw new AppError('RATE_CHANGED', { rate: fromUnits(rateUnits) });
  }

  const amount = payload.amount ?? (payload.type === 'SELL' ? DEFAULT_SELL_AMOUNT : undefined);
  const amountUnits = amount === undefined ? undefined : toUnits(amount);
  if (amountUnits === undefined || amountUnits <= 0) throw new AppError('VALIDATION_FAILED');

  const totalMinor = fiatTotalMinor(amountUnits, rateUnits);
  const claimedMinor = toMinor(payload.totalRub);
  if (claimedMinor === undefined || Math.abs(claimedMinor - totalMinor) > TOTAL_TOLERANCE_MINOR) {
    throw new AppError('TOTAL_MISMATCH');
  }
  const bounds = fiatBounds(method, payload.currency);
  const limitDetails = { min: bounds.min, max: bounds.max, currency: payload.currency };
  if (totalMinor < bounds.min * MINOR_PER_FIAT) throw new AppError('AMOUNT_TOO_LOW', limitDetails);
  if (totalMinor > bounds.max * MINOR_PER_FIAT) throw new AppError('AMOUNT_TOO_HIGH', limitDetails);
  return { rateUnits, amountUnits, totalMinor };
}

/** A sell waits for the coins, an office buy for the office, a bank buy has the account at once. */
function startOf(config: AppConfig, payload: CreateOrderPayload, now: number): Start {
  if (payload.type === 'SELL') {
    return {
      status: 'WAITING_CRYPTO',
      requisites: JSON.stringify({ walletAddress: depositAddressFor(config, payload.network) }),
      requisitesReadyAt: now,
      expiresAt: now + CRYPTO_SEND_WINDOW_MS,
    };
  }
  if (payload.paymentMethod === 'OFFICE') {
    return {
      status: 'OFFICE_PENDING',
      requisites: null,
      requisitesReadyAt: null,
      expiresAt: now + config.requisitesTimeoutMs,
    };
  }
  if (payload.paymentMethod === 'BANK_ACCOUNT' && config.bankAccount !== undefined) {
    return {
      status: 'REQUISITES_READY',
      requisites: JSON.stringify(config.bankAccount),
      requisitesReadyAt: now,
      expiresAt: now + PAYMENT_WINDOWS.BANK_ACCOUNT.windowMs,
    };
  }
  return {
    status: 'WAITING_REQUISITES',
    requisites: null,
    requisitesReadyAt: null,
    expiresAt: now + config.requisitesTimeoutMs,
  };
}

/** A sell's exact amount is held later, on insert. */
function newOrderRow(
  customerId: number,
  payload: CreateOrderPayload,
  priced: Priced,
  cityId: string | null,
  start: Start,
  now: number,
): NewOrderRow {
  return {
    id: randomUUID(),
    user_id: customerId,
    type: payload.type,
    status: start.status,
    payment_method: payload.paymentMethod,
    crypto_currency: payload.cryptoCurrency,
    network: payload.network,
    currency: payload.currency,
    amount_units: priced.amountUnits,
    total_minor: priced.totalMinor,
    rate_units: priced.rateUnits,
    wallet_address: payload.type === 'BUY' ? payload.walletAddress : null,
    requisites: start.requisites,
    payout_card: storedPayoutCard(payload),
    city_id: cityId,
    office_instructions: null,
    reservation: null,
    reject_reason: null,
    tx_hash: null,
    outgoing_tx_hash: null,
    created_at: now,
    updated_at: now,
    requisites_ready_at: start.requisitesReadyAt,
    expires_at: start.expiresAt,
    reserved_until: null,
    verification_code: verificationCodeFrom(randomBytes(VERIFICATION_CODE_LENGTH)),
  };
}

async function insertOrder(
  ctx: ServerContext,
  caller: Caller,
  row: NewOrderRow,
  now: number,
): Promise<void> {
  const { config } = ctx;
  const customerId = caller.telegramId;
  await ctx.db.transaction().execute(async (trx) => {
    // Writing the customer here also serialises their creates (row lock; SQLite's single writer),
    // so two quick taps cannot both slip under the active-order limit.
    await recordCustomer(trx, caller, now, caller.language);
    const { count } = await trx
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('user_id', '=', customerId)
      .where('status', 'in', ACTIVE_STATUSES)
      .executeTakeFirstOrThrow();
    if (Number(count) >= config.maxActiveOrders) {
      throw new AppError('TOO_MANY_ACTIVE_ORDERS', { max: config.maxActiveOrders });
    }
    const stored = row.type === 'SELL' ? await withExactAmount(trx, ctx, row, now) : row;
    const created = await trx
      .insertInto('orders')
      .values(stored)
      .returning(ORDER_COLUMNS)
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('order_events')
      .values({
        order_id: row.id,
        from_status: null,
        to_status: row.status,
        actor: 'customer',
        actor_id: customerId,
        reason:
          stored.amount_units === row.amount_units
            ? null
            : `exact amount ${unitsToDecimal(stored.amount_units)} for ${unitsToDecimal(row.amount_units)} asked`,
        created_at: now,
      })
      .execute();
    await alertOperators(trx, 'new_order', created, `created:${row.id}`, now);
    // The seller also gets the exact amount and the address in the chat, to copy from there.
    if (created.type === 'SELL') {
      await notifyCustomer(trx, 'deposit_requested', created, `deposit:${row.id}`, now);
    }
  });
}

export async function createOrder(
  ctx: ServerContext,
  quote: Quote,
  caller: Caller,
  payload: CreateOrderPayload,
): Promise<CreateOrderResponse> {
  const now = ctx.now();
  checkRoute(payload);
  const cityId = await officeCityId(ctx.db, payload);
  const priced = await priceOrder(ctx, quote, payload);
  const start = startOf(ctx.config, payload, now);
  const row = newOrderRow(caller.telegramId, payload, priced, cityId, start, now);
  await insertOrder(ctx, caller, row, now);
  return { success: true, orderId: row.id };
}
