/** An order's facts taken when the event happens: a message sent later still says what was true. */
import type { Transaction } from 'kysely';
import type { CardRequisites, WalletRequisites } from '../../shared/api';
import type { AppealDecision, AppealReason } from '../../shared/appeals';
import type { CryptoCurrency, NetworkId } from '../../shared/networks';
import {
  isCustomerNotice,
  type ChainFlag,
  type NotificationKind,
} from '../../shared/notifications';
import type { CancelReason, OrderType, PaymentMethod } from '../../shared/order-status';
import type { RejectReason } from '../../shared/reject-reasons';
import type { Database, OrderRow } from '../platform/db/schema';
import { officeWithCity, rowDeadline, type StoredReservation } from './order-view';
import { readPayoutCard } from './payout-card';

export interface Bilingual {
  readonly ru: string;
  readonly en: string;
}

export interface NotificationFacts {
  readonly orderId: string;
  readonly type: OrderType;
  readonly method: PaymentMethod;
  readonly crypto: CryptoCurrency;
  readonly network: NetworkId;
  readonly currency: string;
  readonly amountUnits: number;
  readonly totalMinor: number;
  /** The deadline of the current wait (payment, sending, the office's reservation). */
  readonly deadline: number | null;
  readonly card: CardRequisites | null;
  readonly depositAddress?: string;
  readonly txHash: string | null;
  readonly outgoingTxHash: string | null;
  readonly rejectReasonCode: RejectReason | null;
  readonly rejectReason: string | null;
  readonly cancelReason: CancelReason | null;
  readonly reservationCode: string | null;
  readonly office: {
    readonly city: Bilingual;
    readonly address: Bilingual;
    readonly hours: Bilingual;
  } | null;
  readonly payoutCardLast4: string | null;
  readonly customer: {
    readonly telegramId: number;
    readonly name: string;
    readonly username: string | null;
  } | null;
  readonly chainFlag?: ChainFlag;
  /** An underpaid or overpaid deposit's difference, in whole coins. */
  readonly chainDifference?: string;
  /** What a transfer of another amount, a late deposit or another hash moved, in whole coins. */
  readonly chainAmount?: string;
  readonly chainHash?: string;
  readonly verificationCode?: string;
  readonly messageText?: string;
  readonly messageFile?: string;
  readonly appealReason?: AppealReason;
  readonly appealText?: string;
  readonly appealDecision?: AppealDecision;
  readonly appealOutcome?: string;
  readonly otherOrderIds?: readonly string[];
  /** How many alerts of its kind a flood's summary stands for, itself included. */
  readonly summaryCount?: number;
}

export async function orderFacts(
  trx: Transaction<Database>,
  order: OrderRow,
  kind: NotificationKind,
): Promise<NotificationFacts> {
  const forCustomer = isCustomerNotice(kind);
  return {
    orderId: order.id,
    type: order.type,
    method: order.payment_method,
    crypto: order.crypto_currency,
    network: order.network,
    currency: order.currency,
    amountUnits: order.amount_units,
    totalMinor: order.total_minor,
    deadline: rowDeadline(order),
    card:
      order.payment_method === 'P2P' && order.type === 'BUY' && order.requisites !== null
        ? (JSON.parse(order.requisites) as CardRequisites)
        : null,
    ...(order.type === 'SELL' && order.requisites !== null
      ? { depositAddress: (JSON.parse(order.requisites) as WalletRequisites).walletAddress }
      : {}),
    txHash: order.tx_hash,
    outgoingTxHash: order.outgoing_tx_hash,
    rejectReasonCode: order.reject_reason_code,
    rejectReason: order.reject_reason,
    cancelReason: order.cancel_reason,
    reservationCode:
      order.reservation === null
        ? null
        : (JSON.parse(order.reservation) as StoredReservation).reservationCode,
    office: kind === 'office_ready' ? await officeOf(trx, order) : null,
    payoutCardLast4: readPayoutCard(order.payout_card)?.cardNumber.slice(-4) ?? null,
    customer: forCustomer ? null : await customerOf(trx, order.user_id),
    verificationCode: order.verification_code,
  };
}

async function officeOf(
  trx: Transaction<Database>,
  order: OrderRow,
): Promise<NotificationFacts['office']> {
  if (order.office_id === null) return null;
  const place = await officeWithCity(trx, order.office_id);
  if (place === undefined) return null;
  const { office, city } = place;
  return {
    city: { ru: city.nameRu, en: city.nameEn },
    address: { ru: office.addressRu, en: office.addressEn },
    hours: { ru: office.workingHoursRu, en: office.workingHoursEn },
  };
}

async function customerOf(
  trx: Transaction<Database>,
  telegramId: number,
): Promise<NotificationFacts['customer']> {
  const user = await trx
    .selectFrom('users')
    .select(['first_name', 'last_name', 'username'])
    .where('telegram_id', '=', telegramId)
    .executeTakeFirst();
  return {
    telegramId,
    name: [user?.first_name, user?.last_name].filter((part) => part).join(' '),
    username: user?.username ?? null,
  };
}
