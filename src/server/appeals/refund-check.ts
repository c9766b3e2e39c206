/**
 * A sell's refund checked like a payout, but back to the deposit's sender, at least what it moved,
 * after it. Looked up once while the senior waits; nothing is followed after (the order is over).
 */
import { checkTxHash } from '../../shared/addresses';
import { tokenAmountToDecimal, unitsToTokenAmount } from '../../shared/money';
import { AppError } from '../platform/errors';
import type { ServerContext } from '../platform/context';
import type { OrderRow } from '../platform/db/schema';
import { PERSON_WAITS_MS, depositTargetOf, nodeFaultOf, settledWithin } from '../chain';
import { judgePayout, refusalDetails } from '../chain';

/** REFUND_SENDER_UNKNOWN when the chain never showed the sender; a manual network takes it. */
export async function checkRefund(
  ctx: Pick<ServerContext, 'db' | 'config' | 'chain'>,
  order: OrderRow,
  hash: string,
): Promise<string> {
  if (checkTxHash(order.network, hash) !== null) throw new AppError('INVALID_TX_HASH');
  const target = depositTargetOf(ctx, order);
  if (target === undefined) return `refund ${hash} on ${order.network}, checked by hand`;
  const deposit = await ctx.db
    .selectFrom('chain_checks')
    .select(['sender', 'amount', 'block_time'])
    .where('order_id', '=', order.id)
    .where('kind', '=', 'deposit')
    .executeTakeFirst();
  const sender = deposit?.sender ?? null;
  if (sender === null) throw new AppError('REFUND_SENDER_UNKNOWN');
  const [lookup] = await settledWithin(
    order.network,
    'refund',
    PERSON_WAITS_MS,
    target.reader.transaction(hash),
    Promise.resolve(null),
  );
  if (lookup.status === 'rejected') {
    nodeFaultOf(lookup);
    throw new AppError('TX_UNCONFIRMED');
  }
  const found = lookup.value;
  if (found.status === 'not_found') throw new AppError('TX_UNCONFIRMED');
  const decimals = await target.reader.decimals(target.contract);
  const amount =
    deposit?.amount == null
      ? unitsToTokenAmount(order.amount_units, decimals)
      : BigInt(deposit.amount);
  const judged = judgePayout(found, {
    coin: order.crypto_currency,
    contract: target.contract,
    customerWallet: sender,
    payoutAddress: target.settings.payoutAddress,
    amount,
    decimals,
    paidAt: deposit?.block_time ?? order.created_at,
  });
  if (!judged.ok) {
    throw new AppError(
      judged.problem.code,
      refusalDetails(judged.problem, order.crypto_currency, decimals),
    );
  }
  const coins = tokenAmountToDecimal(judged.transfer.amount, decimals);
  return `refund checked on ${order.network}: ${coins} ${order.crypto_currency} to ${sender}, tx ${hash} block ${found.blockNumber}`;
}
