/**
 * Orders written straight into a test database, for screens and calls that read orders before
 * the order service that creates them exists in the test's path.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, NewOrderRow } from '../../src/server/platform/db/schema';
import type { OrderStatus } from '../../src/shared/order-status';
import { VERIFICATION_CODE_LENGTH, verificationCodeFrom } from '../../src/shared/verification-code';

/** What a written order is unless a test says otherwise: a P2P buy of 100 USDT on TRC20. */
export const ORDER_DEFAULTS = {
  type: 'BUY',
  payment_method: 'P2P',
  crypto_currency: 'USDT',
  network: 'TRC20',
  currency: 'RUB',
  amount_units: 100_000_000,
  total_minor: 950_000,
  rate_units: 95_000_000,
  wallet_address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
} as const;

export async function insertOrder(
  db: Kysely<Database>,
  owner: { id: number; first_name: string; username?: string },
  fields: Partial<NewOrderRow> & { status: OrderStatus },
): Promise<string> {
  const now = fields.created_at ?? Date.now();
  await db
    .insertInto('users')
    .values({
      telegram_id: owner.id,
      first_name: owner.first_name,
      last_name: null,
      username: owner.username ?? null,
      language_code: null,
      first_seen_at: now,
      last_seen_at: now,
    })
    .onConflict((oc) => oc.column('telegram_id').doNothing())
    .execute();
  const id = fields.id ?? randomUUID();
  await db
    .insertInto('orders')
    .values({
      id,
      user_id: owner.id,
      ...ORDER_DEFAULTS,
      requisites: null,
      payout_card: null,
      city_id: null,
      office_instructions: null,
      reservation: null,
      reject_reason: null,
      tx_hash: null,
      outgoing_tx_hash: null,
      updated_at: now,
      requisites_ready_at: null,
      expires_at: null,
      reserved_until: null,
      // As the server writes it (orders/create.ts); the database writes one only for a row
      // that comes without (migration 0019), which moves the new row's version.
      verification_code: verificationCodeFrom(randomBytes(VERIFICATION_CODE_LENGTH)),
      ...fields,
      created_at: now,
    })
    .execute();
  return id;
}

/**
 * The event of an operator confirming a buy's payment at `paidAt`, written as the transition
 * writes it: the payout check and the console read when an order was paid from it.
 */
export async function insertPaidEvent(
  db: Kysely<Database>,
  orderId: string,
  operatorId: number,
  paidAt: number,
): Promise<void> {
  await db
    .insertInto('order_events')
    .values({
      order_id: orderId,
      from_status: 'RECEIPT_UPLOADED',
      to_status: 'PAYMENT_CONFIRMED',
      actor: 'operator',
      actor_id: operatorId,
      reason: null,
      created_at: paidAt,
    })
    .execute();
}
