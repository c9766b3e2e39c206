/** Orders written for the appeal tests: a sell's deposit the chain checker left for an operator. */
import type { Kysely } from 'kysely';
import type { ChainChecksTable, Database } from '../../src/server/platform/db/schema';

/**
 * Writes the deposit check of a sell as the chain checker leaves one it flagged (state `wrong`):
 * its transfer, where `transfer` gives one (sender, amount, block), or none the chain showed.
 */
export async function insertFlaggedDeposit(
  db: Kysely<Database>,
  order: {
    readonly id: string;
    readonly network: ChainChecksTable['network'];
    readonly hash: string;
  },
  now: number,
  transfer: Partial<
    Pick<ChainChecksTable, 'sender' | 'amount' | 'decimals' | 'contract' | 'block_time'>
  > = {},
): Promise<void> {
  await db
    .insertInto('chain_checks')
    .values({
      order_id: order.id,
      kind: 'deposit',
      network: order.network,
      tx_hash: order.hash,
      state: 'wrong',
      log_index: null,
      block_number: null,
      block_time: null,
      required_confirmations: 19,
      amount: null,
      decimals: null,
      sender: null,
      contract: null,
      next_check_at: now,
      look_until: now,
      created_at: now,
      updated_at: now,
      ...transfer,
    })
    .execute();
}
