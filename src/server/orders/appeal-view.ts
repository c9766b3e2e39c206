/** An appeal row as the customer reads it (the status answer) and as operators read it. */
import type { Kysely, Selectable } from 'kysely';
import type { AppealView } from '../../shared/api';
import type { AppealsTable, Database } from '../platform/db/schema';

export type AppealRow = Selectable<AppealsTable>;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function toAppealView(row: AppealRow): AppealView {
  return {
    state: row.decided_at === null ? 'open' : 'decided',
    reason: row.reason,
    openedAt: new Date(row.opened_at).toISOString(),
    decision: row.decision,
    outcome: row.outcome,
    decidedAt: iso(row.decided_at),
    refundDetails: row.refund_details,
    refundTxHash: row.refund_tx_hash,
  };
}

/** The order's appeal, if one was opened (an order has at most one). */
export async function findAppeal(
  db: Kysely<Database>,
  orderId: string,
): Promise<AppealRow | undefined> {
  return db.selectFrom('appeals').selectAll().where('order_id', '=', orderId).executeTakeFirst();
}
