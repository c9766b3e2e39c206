/** Pages of a list: the customer's history and the operator's search read them the same way. */
import type { SelectQueryBuilder } from 'kysely';

export interface PageRequest {
  readonly limit: number;
  readonly offset: number;
}

/**
 * One page of an ordered query, and whether another follows: one row more than asked is read,
 * so the answer costs no count. The query's order should match an index, so that a page reads
 * the index in order rather than sorting every row first.
 */
export async function pageOf<DB, TB extends keyof DB, O>(
  select: SelectQueryBuilder<DB, TB, O>,
  page: PageRequest,
): Promise<{ readonly rows: O[]; readonly hasMore: boolean }> {
  const rows = await select
    .limit(page.limit + 1)
    .offset(page.offset)
    .execute();
  return { rows: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
}
