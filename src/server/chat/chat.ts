/**
 * An order's chat: the conversation of its customer and the
 * operators, kept with the order for good as evidence. A customer reaches only their own orders'
 * chats (another's answers ORDER_NOT_FOUND, as every order call), an operator every order's. A
 * message is a text, a file checked and stored as a receipt is (receipts/receipts.ts), or both,
 * and it is written with its order event in one transaction that also moves the order's version,
 * since the status answer carries the customer's unread count. Reading a chat marks the other
 * side's messages read; a reader who holds the chat as it is (its ETag) gets 304 and no body, so
 * an open chat costs no more than a status poll: its state is kept with the order's version.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { ChatAuthor } from '../../shared/api';
import type { ServerContext } from '../platform/context';
import { compiledOnce } from '../platform/db/compiled-once';
import { type Database, type OrderMessagesTable } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { alertOperators, notifyCustomer } from '../orders';
import { STATUS_ANSWERS_KEPT, type StatusAnswers } from '../orders';
import { orderRow } from '../orders';
import { remember } from '../platform/bounded-map';
import type { ReceivedDataUrl } from '../receipts';
import {
  checkReceiptFile,
  cleanFileName,
  keepReceiptFile,
  receiptStorageKey,
  removeReceiptFile,
  type CheckedReceiptFile,
  type ReceiptDownload,
} from '../receipts';
import { markChatRead, touchOrder } from '../orders';

/** Who reads or writes a chat: the order's customer, or an operator; by their Telegram id. */
export interface ChatParty {
  readonly side: ChatAuthor;
  readonly telegramId: number;
}

export type MessageRow = Selectable<OrderMessagesTable>;

/** The side whose messages each side reads. */
const OTHER_SIDE: Readonly<Record<ChatAuthor, ChatAuthor>> = {
  customer: 'operator',
  operator: 'customer',
};

/** How a chat stands, read at every poll: one row, its order's, through the messages' index. */
function chatStateQuery(db: Kysely<Database>, orderId: string) {
  return db
    .selectFrom('orders')
    .select([
      'orders.user_id',
      'orders.verification_code',
      'orders.customer_read_message_id',
      'orders.operator_read_message_id',
    ])
    .select((eb) => {
      const messages = () =>
        eb.selectFrom('order_messages').whereRef('order_messages.order_id', '=', 'orders.id');
      return [
        messages()
          .select((inner) => inner.fn.countAll<number | string>().as('count'))
          .as('message_count'),
        messages()
          .select((inner) => inner.fn.max('order_messages.id').as('last'))
          .as('last_id'),
        messages()
          .select((inner) => inner.fn.max('order_messages.id').as('last'))
          .where('order_messages.author', '=', 'customer')
          .as('last_customer_id'),
        messages()
          .select((inner) => inner.fn.max('order_messages.id').as('last'))
          .where('order_messages.author', '=', 'operator')
          .as('last_operator_id'),
      ];
    })
    .where('orders.id', '=', orderId);
}

const readChatState = compiledOnce((db, orderId: string) => chatStateQuery(db, orderId));

type ChatState = Awaited<ReturnType<typeof readChatState>>[number];

/** A chat's state as read, and the order's version it was read at. */
export interface KeptChatState {
  readonly version: number;
  readonly state: ChatState;
}

/** Chat states kept: as many as the status answers, one per order polled. */
const CHAT_STATES_KEPT = STATUS_ANSWERS_KEPT;

/** What reading a chat needs beyond the server's context: the orders' versions, the states kept. */
export interface ChatReadContext extends ServerContext {
  readonly statusAnswers: Pick<StatusAnswers, 'versionOf'>;
  /** The chat states read, by order: chat-module.ts's `app.chatStates`. */
  readonly chatStates: Map<string, KeptChatState>;
}

/**
 * The chat of `orderId` as `party` may read it: ORDER_NOT_FOUND for a customer's foreign order.
 * Every message written and every read marked moves the order's version (the write and the mark
 * update the order), so the state read at the order's current version is the state now: an open
 * chat polled while nothing moves reads only the version, which the status poll keeps too (on
 * SQLite, from memory while no order changes).
 */
async function chatState(
  ctx: ChatReadContext,
  party: ChatParty,
  orderId: string,
): Promise<ChatState> {
  const current = await ctx.statusAnswers.versionOf(orderId);
  if (current === undefined) throw new AppError('ORDER_NOT_FOUND');
  if (party.side === 'customer' && current.user_id !== party.telegramId) {
    throw new AppError('ORDER_NOT_FOUND');
  }
  const kept = ctx.chatStates.get(orderId);
  if (kept?.version === current.version) return kept.state;
  // Read after the version: a state newer than its version is kept under a version already gone.
  const [state] = await readChatState(ctx.db, orderId);
  if (state === undefined) throw new AppError('ORDER_NOT_FOUND');
  remember(ctx.chatStates, orderId, { version: current.version, state }, CHAT_STATES_KEPT);
  return state;
}

/**
 * The version of a chat as `side` reads it: its count of messages and its last id. Messages are
 * never changed or removed, so a new one changes the count even when it took a smaller id than
 * one committed before it.
 */
function chatEtag(side: ChatAuthor, count: number, lastId: number): string {
  return `"${side === 'customer' ? 'c' : 'o'}${count}.${lastId}"`;
}

/** A chat as read: its version and, unless the reader holds that version, its messages. */
export interface ChatRead {
  readonly etag: string;
  readonly verificationCode: string;
  /** Oldest first; null when the reader holds the chat as it is (304). */
  readonly messages: readonly MessageRow[] | null;
}

/**
 * The chat of `orderId` for `party`, or only its version when they hold it already (`holds`:
 * the route's reading of `If-None-Match`); either way, the other side's messages are read now.
 */
export async function readChat(
  ctx: ChatReadContext,
  party: ChatParty,
  orderId: string,
  holds: (etag: string) => boolean,
): Promise<ChatRead> {
  const state = await chatState(ctx, party, orderId);
  const other = OTHER_SIDE[party.side];
  const read =
    party.side === 'customer' ? state.customer_read_message_id : state.operator_read_message_id;
  const verificationCode = state.verification_code;
  const etag = chatEtag(party.side, Number(state.message_count), state.last_id ?? 0);
  if (holds(etag)) {
    const lastOther = (other === 'customer' ? state.last_customer_id : state.last_operator_id) ?? 0;
    if (lastOther > read) await markChatRead(ctx.db, party.side, orderId, lastOther);
    return { etag, verificationCode, messages: null };
  }
  const messages = await ctx.db
    .selectFrom('order_messages')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  // What was read is what this answer holds, however the chat moved since its state was read.
  const lastOther = messages.findLast((m) => m.author === other)?.id ?? 0;
  if (lastOther > read) await markChatRead(ctx.db, party.side, orderId, lastOther);
  return {
    etag: chatEtag(party.side, messages.length, messages.at(-1)?.id ?? 0),
    verificationCode,
    messages,
  };
}

/**
 * ORDER_NOT_FOUND unless `party` may write in the order's chat: asked before a message's body is
 * read (chat-routes.ts), so that nobody sends a file to an order that is not theirs.
 */
export async function checkChatOrder(
  ctx: ServerContext,
  party: ChatParty,
  orderId: string,
): Promise<void> {
  await orderRow(ctx.db, orderId, ['id'], party.side === 'customer' ? party.telegramId : undefined);
}

/** A message as its route's schema gave it: the text trimmed (or empty), a file if one was sent. */
export interface MessageInput {
  readonly text: string;
  readonly fileName: string;
  readonly fileData?: ReceivedDataUrl | undefined;
}

/** A checked file, and the name it is kept under. */
interface KeptFile {
  readonly file: CheckedReceiptFile;
  readonly storageKey: string;
  readonly fileName: string;
}

/** The message's file checked (receipts' rules) and kept for good under RECEIPTS_DIR, if any. */
async function keepAttachment(
  ctx: ServerContext,
  input: MessageInput,
): Promise<KeptFile | undefined> {
  if (input.fileData === undefined) return undefined;
  const file = checkReceiptFile(input.fileData);
  const storageKey = receiptStorageKey(file, randomUUID());
  await keepReceiptFile(ctx.config.receiptsDir, storageKey, file);
  return { file, storageKey, fileName: cleanFileName(input.fileName, file.type.extension) };
}

/**
 * Writes `party`'s message in the order's chat: MESSAGE_EMPTY with neither text nor file, the
 * file's refusals as a receipt's (FILE_TYPE, FILE_TOO_LARGE, NO_FILE). The message, its order
 * event and the order's new version commit together; a file whose message did not commit is
 * removed.
 */
export async function writeMessage(
  ctx: ServerContext,
  party: ChatParty,
  orderId: string,
  input: MessageInput,
): Promise<MessageRow> {
  await checkChatOrder(ctx, party, orderId);
  if (input.text === '' && input.fileData === undefined) throw new AppError('MESSAGE_EMPTY');
  const kept = await keepAttachment(ctx, input);
  let written: MessageRow | undefined;
  try {
    written = await ctx.db
      .transaction()
      .execute((trx) => insertMessage(trx, party, orderId, input.text, kept, ctx.now()));
  } finally {
    if (written === undefined && kept !== undefined) {
      await removeReceiptFile(ctx.config.receiptsDir, kept.storageKey);
    }
  }
  return written;
}

/** The message and its order event, in the caller's transaction. */
async function insertMessage(
  trx: Transaction<Database>,
  party: ChatParty,
  orderId: string,
  text: string,
  kept: KeptFile | undefined,
  now: number,
): Promise<MessageRow> {
  // The order first: this moves its version (the customer's unread count is in the status
  // answer) and, on PostgreSQL, locks it, so that one order's messages take their ids in the
  // order they commit and a reader's last read id never passes over one not yet committed.
  const order = await touchOrder(trx, orderId, {
    ...(party.side === 'customer' ? { ownerId: party.telegramId } : {}),
  });
  const message = await trx
    .insertInto('order_messages')
    .values({
      order_id: orderId,
      author: party.side,
      author_id: party.telegramId,
      text: text === '' ? null : text,
      attachment_name: kept?.fileName ?? null,
      attachment_type: kept?.file.type.mime ?? null,
      attachment_size: kept?.file.size ?? null,
      attachment_sha256: kept?.file.sha256 ?? null,
      attachment_key: kept?.storageKey ?? null,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // The audit trail names who wrote and when; the order's status stays as it was.
  await trx
    .insertInto('order_events')
    .values({
      order_id: orderId,
      from_status: order.status,
      to_status: order.status,
      actor: party.side,
      actor_id: party.telegramId,
      reason: null,
      message_id: message.id,
      created_at: now,
    })
    .execute();
  // The other side is told through the outbox, in this same transaction: the customer by the
  // bot, the operators in their chat; each message says the order's verification code.
  const said = {
    ...(message.text === null ? {} : { messageText: message.text }),
    ...(message.attachment_name === null ? {} : { messageFile: message.attachment_name }),
  };
  const event = `chat:${message.id}`;
  if (party.side === 'operator') {
    await notifyCustomer(trx, 'operator_message', order, event, now, said);
  } else {
    await alertOperators(trx, 'customer_message', order, event, now, said);
  }
  return message;
}

/**
 * The file attached to a message of the order's chat, for `party`: ORDER_NOT_FOUND for an order
 * they may not read, NOT_FOUND for a message without a file (or whose file is missing).
 */
export async function openAttachment(
  ctx: ServerContext,
  party: ChatParty,
  orderId: string,
  messageId: number,
): Promise<ReceiptDownload> {
  await checkChatOrder(ctx, party, orderId);
  const message = await ctx.db
    .selectFrom('order_messages')
    .select(['attachment_name', 'attachment_type', 'attachment_key'])
    .where('id', '=', messageId)
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  const { attachment_name: name, attachment_type: type, attachment_key: key } = message ?? {};
  if (name == null || type == null || key == null) throw new AppError('NOT_FOUND');
  const file = path.join(ctx.config.receiptsDir, key);
  if (!existsSync(file)) throw new AppError('NOT_FOUND');
  return { fileName: name, mimeType: type, file: createReadStream(file) };
}
