/**
 * The count of unread chat messages last seen for each order, for the chat button beside
 * support: every order screen's status poll notes it (useOrderScreen), and the chat screen sets
 * it to zero once its read has marked the messages read, so a screen the customer returns to does
 * not show a count they have just read while its own poll catches up.
 */
import { keyedStore } from './keyed-store';

const counts = keyedStore<number>();

/** What an answer said of the order's unread messages (the status answer, or a chat just read). */
export function noteUnread(orderId: string, count: number): void {
  counts.note(orderId, count);
}

/** The order's unread messages as last seen; undefined until an answer has said. */
export function useChatUnread(orderId: string): number | undefined {
  return counts.useValue(orderId);
}
