/**
 * The audit of what customers are quoted: every change of a base, a spread, a fixed rate or a
 * held jump, with who made it (none: the server itself), kept for good.
 */
import type { Kysely, Transaction } from 'kysely';
import type { RateChangeKind } from '../../shared/rate-rules';
import type { Database } from '../platform/db/schema';

/** The history's name for the market's accepted base of a pair, beside the sources' prices. */
export const BASE_SERIES = 'base';

export async function recordRateChange(
  db: Kysely<Database> | Transaction<Database>,
  operatorId: number | null,
  kind: RateChangeKind,
  subject: string,
  before: number | null,
  after: number | null,
  now: number,
  until: number | null = null,
): Promise<void> {
  await db
    .insertInto('rate_changes')
    .values({
      at: now,
      operator_id: operatorId,
      kind,
      subject,
      before_units: before,
      after_units: after,
      until,
    })
    .execute();
}
