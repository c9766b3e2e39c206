/** Stored orders as the API answers them (src/shared/api.ts), minor units back to numbers. */
import type { Kysely } from 'kysely';
import type {
  ChainCheckView,
  OfficeReservation,
  OrderActionResponse,
  OrderDetails,
  OrderSummary,
  ReceiptInfo,
  Requisites,
} from '../../shared/api';
import { ORDER_START_PARAM_PREFIX, startAppLink } from '../../shared/api';
import { fromMinor, fromUnits } from '../../shared/money';
import { orderDeadline } from '../../shared/order-status';
import type { ChainCheckKind, Database, OrderRow } from '../platform/db/schema';
import { shownPayoutCard } from './payout-card';
import { findAppeal, toAppealView } from './appeal-view';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export const SUMMARY_COLUMNS = [
  'id',
  'type',
  'status',
  'amount_units',
  'crypto_currency',
  'network',
  'currency',
  'total_minor',
  'rate_units',
  'payment_method',
  'created_at',
  'updated_at',
  'cancel_reason',
] as const satisfies readonly (keyof OrderRow)[];

/** Building the status answer reads these columns and no more. */
export const DETAILS_COLUMNS = [
  ...SUMMARY_COLUMNS,
  'expires_at',
  'requisites_ready_at',
  'reserved_until',
  'city_id',
  'reject_reason',
  'reject_reason_code',
  'tx_hash',
  'outgoing_tx_hash',
  'office_instructions',
  'wallet_address',
  'requisites',
  'reservation',
  'office_id',
  'verification_code',
  'payout_card',
] as const satisfies readonly (keyof OrderRow)[];

interface Unread {
  readonly unread_messages: number | string | null;
}

export type SummaryRow = Pick<OrderRow, (typeof SUMMARY_COLUMNS)[number]> & Unread;
export type DetailsRow = Pick<OrderRow, (typeof DETAILS_COLUMNS)[number]> & Unread;

export function toOrderSummary(row: SummaryRow): OrderSummary {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    amount: fromUnits(row.amount_units),
    cryptoCurrency: row.crypto_currency,
    network: row.network,
    currency: row.currency,
    totalRub: fromMinor(row.total_minor),
    rate: fromUnits(row.rate_units),
    paymentMethod: row.payment_method,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    cancelReason: row.status === 'CANCELLED' ? row.cancel_reason : null,
    unreadMessages: Number(row.unread_messages ?? 0),
  };
}

export interface StoredReservation {
  readonly reservationCode: string;
}

async function loadReservation(
  db: Kysely<Database>,
  row: DetailsRow,
): Promise<OfficeReservation | null> {
  if (row.reservation === null || row.office_id === null || row.reserved_until === null) {
    return null;
  }
  const stored = JSON.parse(row.reservation) as StoredReservation;
  const place = await officeWithCity(db, row.office_id);
  if (place === undefined) return null;
  return {
    orderId: row.id,
    reservationCode: stored.reservationCode,
    reservedUntil: new Date(row.reserved_until).toISOString(),
    ...place,
  };
}

export async function officeWithCity(
  db: Kysely<Database>,
  officeId: string,
): Promise<Pick<OfficeReservation, 'office' | 'city'> | undefined> {
  const office = await db
    .selectFrom('offices')
    .innerJoin('cities', 'cities.id', 'offices.city_id')
    .select([
      'offices.id',
      'offices.address_ru',
      'offices.address_en',
      'offices.working_hours_ru',
      'offices.working_hours_en',
      'offices.phone',
      'offices.map_link',
      'cities.name_ru',
      'cities.name_en',
    ])
    .where('offices.id', '=', officeId)
    .executeTakeFirst();
  if (office === undefined) return undefined;
  return {
    office: {
      id: office.id,
      addressRu: office.address_ru,
      addressEn: office.address_en,
      workingHoursRu: office.working_hours_ru,
      workingHoursEn: office.working_hours_en,
      phone: office.phone,
      mapLink: office.map_link,
    },
    city: { nameRu: office.name_ru, nameEn: office.name_en },
  };
}

/** The part the order's version decides. */
export type TimelessDetails = Omit<OrderDetails, 'serverTime'>;

/** A caller that knows the order has no receipts (`receiptCount` 0) saves their query. */
export async function toTimelessDetails(
  db: Kysely<Database>,
  row: DetailsRow,
  options: { readonly botUsername: string | undefined; readonly receiptCount?: number },
): Promise<TimelessDetails> {
  const receipts =
    options.receiptCount === 0
      ? []
      : await db
          .selectFrom('receipts')
          .select(['id', 'file_name', 'uploaded_at'])
          .where('order_id', '=', row.id)
          .orderBy('uploaded_at')
          .orderBy('id')
          .execute();
  const receiptInfo: ReceiptInfo[] = receipts.map((r) => ({
    id: r.id,
    fileName: r.file_name,
    uploadedAt: new Date(r.uploaded_at).toISOString(),
  }));
  // Awaited before the answer is built, not in the middle of it.
  const reservation = row.reservation === null ? null : await loadReservation(db, row);
  const chainCheck =
    row.type === 'SELL' && row.tx_hash !== null
      ? await loadChainCheck(db, row.id, 'deposit')
      : row.type === 'BUY' && row.status === 'COMPLETED' && row.outgoing_tx_hash !== null
        ? await loadChainCheck(db, row.id, 'payout')
        : null;
  const appeal = await findAppeal(db, row.id);
  // Object.assign, not a spread: on Node 20 a spread then sixteen fields takes V8's slow path
  // (18 µs against 0.3 on the status poll's hot path).
  return Object.assign(toOrderSummary(row), {
    expiresAt: iso(row.expires_at),
    requisitesReadyAt: iso(row.requisites_ready_at),
    reservedUntil: iso(row.reserved_until),
    cityId: row.city_id,
    rejectReason: row.reject_reason,
    rejectReasonCode: row.status === 'REJECTED' ? row.reject_reason_code : null,
    txHash: row.tx_hash,
    outgoingTxHash: row.outgoing_tx_hash,
    officeInstructions: row.office_instructions,
    walletAddress: row.type === 'BUY' ? row.wallet_address : null,
    receipts: receiptInfo,
    requisites: row.requisites === null ? null : (JSON.parse(row.requisites) as Requisites),
    reservation,
    deepLink:
      options.botUsername === undefined
        ? null
        : startAppLink(options.botUsername, `${ORDER_START_PARAM_PREFIX}${row.id}`),
    chainCheck,
    verificationCode: row.verification_code,
    payoutCard: shownPayoutCard(row.payout_card),
    appeal: appeal === undefined ? null : toAppealView(appeal),
  });
}

/** A check closed because the order moved by other means says nothing more to the customer. */
async function loadChainCheck(
  db: Kysely<Database>,
  orderId: string,
  kind: ChainCheckKind,
): Promise<ChainCheckView | null> {
  const check = await db
    .selectFrom('chain_checks')
    .select(['state', 'reorged', 'confirmations', 'required_confirmations'])
    .where('order_id', '=', orderId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  if (check === undefined || check.state === 'closed') return null;
  const state =
    check.state === 'wrong'
      ? 'flagged'
      : check.state === 'looking' && check.reorged === 1
        ? 'reorged'
        : check.state;
  return { state, confirmations: check.confirmations, required: check.required_confirmations };
}

export async function toOrderDetails(
  db: Kysely<Database>,
  row: DetailsRow,
  options: { readonly now: number; readonly botUsername: string | undefined },
): Promise<OrderDetails> {
  const details = await toTimelessDetails(db, row, options);
  return Object.assign(details, { serverTime: new Date(options.now).toISOString() });
}

/** `serverTime` added last to the kept JSON, as `toOrderDetails` adds it. */
export function withServerTime(timelessJson: string, now: number): string {
  if (now !== serverTime.at) {
    serverTime.at = now;
    serverTime.iso = new Date(now).toISOString();
  }
  return `${timelessJson.slice(0, -1)},"serverTime":"${serverTime.iso}"}`;
}

/** Polls in the same millisecond (tens under load) share one formatted date. */
const serverTime: { at: number; iso: OrderDetails['serverTime'] } = { at: Number.NaN, iso: '' };

export function actionResponse(result: {
  readonly order: Pick<OrderRow, 'status'>;
}): OrderActionResponse {
  return { success: true, status: result.order.status };
}

export function rowDeadline(
  row: Pick<OrderRow, 'status' | 'expires_at' | 'reserved_until'>,
): number | null {
  return orderDeadline({
    status: row.status,
    expiresAt: row.expires_at,
    reservedUntil: row.reserved_until,
  });
}
