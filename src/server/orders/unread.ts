/** An order chat's unread count as a column over `orders`, read through (order_id, author, id). */
import type { ExpressionBuilder } from 'kysely';
import type { ChatAuthor } from '../../shared/api';
import type { Database } from '../platform/db/schema';

const READS = {
  customer: { of: 'operator', read: 'orders.customer_read_message_id' },
  operator: { of: 'customer', read: 'orders.operator_read_message_id' },
} as const satisfies Readonly<Record<ChatAuthor, { of: ChatAuthor; read: string }>>;

/** `unread_messages`: the messages `reader` (a customer, or any operator) has not read. */
export function unreadMessages(reader: ChatAuthor) {
  const { of, read } = READS[reader];
  return (eb: ExpressionBuilder<Database, 'orders'>) =>
    eb
      .selectFrom('order_messages')
      .select((inner) => inner.fn.countAll<number | string>().as('count'))
      .whereRef('order_messages.order_id', '=', 'orders.id')
      .where('order_messages.author', '=', of)
      .whereRef('order_messages.id', '>', read)
      .as('unread_messages');
}
