/**
 * `POST /api/orders/create`: the server re-checks everything the app checked (design.md, "The
 * server is the authority") against its own data, then stores the order and its first event in
 * one transaction.
 */
import { randomUUID } from 'node:crypto';
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
import type { Transaction } from 'kysely';
import { ORDER_COLUMNS, type Database, type NewOrderRow } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { alertOperators, notifyCustomer } from '../notifications/outbox';
import { quote } from '../rates/rates';
import { methodTakesCurrency } from '../../shared/currencies';
import { holdDepositAmount } from './deposit-amounts';

/** The customer's total may differ from the server's by rounding, never by more than 1 unit. */
const TOTAL_TOLERANCE_MINOR = MINOR_PER_FIAT;

/** The address a sell's deposit is sent to on `network`, as the order's requisites give it. */
export function depositAddressFor(config: AppConfig, network: NetworkId): string {
  return isEvmNetwork(network) ? config.depositAddresses.evm : config.depositAddresses.trc20;
}

/**
 * A sell as it is stored: its amount the exact amount it is to send (deposit-amounts.ts), held in
 * the order's own transaction, and its rouble total worked out on that amount.
 */
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

export async function createOrder(
  ctx: ServerContext,
  caller: Caller,
  payload: CreateOrderPayload,
): Promise<CreateOrderResponse> {
  const customerId = caller.telegramId;
  const { db, config } = ctx;
  const now = ctx.now();
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

  let cityId: string | null = null;
  if (payload.paymentMethod === 'OFFICE') {
    const city = await db
      .selectFrom('cities')
      .select(['id', 'currencies'])
      .where('id', '=', payload.cityId)
      .executeTakeFirst();
    const takes =
      city !== undefined && (JSON.parse(city.currencies) as string[]).includes(payload.currency);
    if (!takes) throw new AppError('UNKNOWN_CITY');
    cityId = payload.cityId;
  }

  const rateUnits = await quote(db, {
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

  const id = randomUUID();
  let status: OrderStatus;
  let requisites: string | null = null;
  let requisitesReadyAt: number | null = null;
  let expiresAt: number | null = null;
  if (payload.type === 'SELL') {
    status = 'WAITING_CRYPTO';
    requisites = JSON.stringify({ walletAddress: depositAddressFor(config, payload.network) });
    requisitesReadyAt = now;
    expiresAt = now + CRYPTO_SEND_WINDOW_MS;
  } else if (payload.paymentMethod === 'OFFICE') {
    status = 'OFFICE_PENDING';
    expiresAt = now + config.requisitesTimeoutMs;
  } else if (payload.paymentMethod === 'BANK_ACCOUNT' && config.bankAccount !== undefined) {
    status = 'REQUISITES_READY';
    requisites = JSON.stringify(config.bankAccount);
    requisitesReadyAt = now;
    expiresAt = now + PAYMENT_WINDOWS.BANK_ACCOUNT.windowMs;
  } else {
    status = 'WAITING_REQUISITES';
    expiresAt = now + config.requisitesTimeoutMs;
  }

  const row: NewOrderRow = {
    id,
    user_id: customerId,
    type: payload.type,
    status,
    payment_method: method,
    crypto_currency: payload.cryptoCurrency,
    network: payload.network,
    currency: payload.currency,
    amount_units: amountUnits,
    total_minor: totalMinor,
    rate_units: rateUnits,
    wallet_address: payload.type === 'BUY' ? payload.walletAddress : null,
    requisites,
    payout_card:
      payload.type === 'SELL'
        ? JSON.stringify({
            cardNumber: payload.cardNumber.replace(/\s/g, ''),
            cardHolder: payload.cardHolder.toUpperCase(),
            bankName: payload.bankName,
            phone: payload.phone,
            comment: payload.comment,
          })
        : null,
    city_id: cityId,
    office_instructions: null,
    reservation: null,
    reject_reason: null,
    tx_hash: null,
    outgoing_tx_hash: null,
    created_at: now,
    updated_at: now,
    requisites_ready_at: requisitesReadyAt,
    expires_at: expiresAt,
    reserved_until: null,
  };

  await db.transaction().execute(async (trx) => {
    // The order's customer is written here (the authenticator records callers off the request's
    // path, later), which also serialises a customer's creates (PostgreSQL row lock; SQLite runs
    // one transaction at a time), so two quick taps cannot both slip under the active-order limit.
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
    const stored = payload.type === 'SELL' ? await withExactAmount(trx, ctx, row, now) : row;
    const created = await trx
      .insertInto('orders')
      .values(stored)
      .returning(ORDER_COLUMNS)
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('order_events')
      .values({
        order_id: id,
        from_status: null,
        to_status: status,
        actor: 'customer',
        actor_id: customerId,
        reason:
          stored.amount_units === amountUnits
            ? null
            : `exact amount ${unitsToDecimal(stored.amount_units)} for ${unitsToDecimal(amountUnits)} asked`,
        created_at: now,
      })
      .execute();
    await alertOperators(trx, 'new_order', created, `created:${id}`, now);
    // The seller is sent the exact amount and the address in the chat, to copy from there too.
    if (created.type === 'SELL') {
      await notifyCustomer(trx, 'deposit_requested', created, `deposit:${id}`, now);
    }
  });
  return { success: true, orderId: id };
}
