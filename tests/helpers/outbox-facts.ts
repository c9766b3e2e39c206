/** What the outbox keeps of an order, made up for rows the tests and the bench write to it. */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/platform/db/schema';
import type { NotificationFacts } from '../../src/server/orders/order-facts';

/**
 * The facts of a made-up P2P buy of 100 USDT for 9 500 RUB (as `orderFacts` writes them), as the
 * payload of a notification row; `overrides` replaces any of them.
 */
export function madeUpFacts(orderId: string, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    orderId,
    type: 'BUY',
    method: 'P2P',
    crypto: 'USDT',
    network: 'TRC20',
    currency: 'RUB',
    amountUnits: 100_000_000,
    totalMinor: 950_000,
    deadline: Date.now() + 600_000,
    card: null,
    txHash: null,
    outgoingTxHash: null,
    rejectReasonCode: null,
    rejectReason: null,
    cancelReason: null,
    reservationCode: null,
    office: null,
    payoutCardLast4: null,
    customer: { telegramId: 42, name: 'Иван', username: null },
    ...overrides,
  });
}

/** The facts of the operators' chain alerts (`flag_chain_deposit`) written about an order. */
export async function chainAlertsOf(
  db: Kysely<Database>,
  orderId: string,
): Promise<NotificationFacts[]> {
  const rows = await db
    .selectFrom('notifications')
    .select('payload')
    .where('order_id', '=', orderId)
    .where('kind', '=', 'flag_chain_deposit')
    .execute();
  return rows.map((row) => JSON.parse(row.payload) as NotificationFacts);
}
