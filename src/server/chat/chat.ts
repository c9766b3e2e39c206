/**
 * An order's chat between its customer and the operators, kept for good as evidence. A customer
 * reaches only their own orders' chats (another's answers ORDER_NOT_FOUND). A message and its
 * order event commit with the order's new version, since the status answer carries the unread
 * count; a reader holding the chat's ETag gets 304, as cheap as a status poll.
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

export interface ChatParty {
  readonly side: ChatAuthor;
  readonly telegramId: number;
}

export type MessageRow = Selectable<OrderMessagesTable>;

const OTHER_SIDE: Readonly<Record<ChatAuthor, ChatAuthor>> = {
  customer: 'operator',
  operator: 'customer',
};

/** Read at every poll: one row, through the messages' index. */
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

export interface KeptChatState {
  readonly version: number;
  readonly state: ChatState;
}

const CHAT_STATES_KEPT = STATUS_ANSWERS_KEPT;

export interface ChatReadContext extends ServerContext {
  readonly statusAnswers: Pick<StatusAnswers, 'versionOf'>;
  readonly chatStates: Map<string, KeptChatState>;
}

/** Every write and read mark moves the order's version: the state at its version is current. */
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

/** No message is ever removed, so a new one changes the count. */
function chatEtag(side: ChatAuthor, count: number, lastId: number): string {
  return `"${side === 'customer' ? 'c' : 'o'}${count}.${lastId}"`;
}

export interface ChatRead {
  readonly etag: string;
  readonly verificationCode: string;
  readonly messages: readonly MessageRow[] | null;
}

/** Only the version when `holds` says the reader has it; the other side's messages are read now. */
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

/** Asked before a message's body is read. */
export async function checkChatOrder(
  ctx: ServerContext,
  party: ChatParty,
  orderId: string,
): Promise<void> {
  await orderRow(ctx.db, orderId, ['id'], party.side === 'customer' ? party.telegramId : undefined);
}

export interface MessageInput {
  readonly text: string;
  readonly fileName: string;
  readonly fileData?: ReceivedDataUrl | undefined;
}

interface KeptFile {
  readonly file: CheckedReceiptFile;
  readonly storageKey: string;
  readonly fileName: string;
}

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

/** A file refused as a receipt's would be; one whose message did not commit is removed. */
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

async function insertMessage(
  trx: Transaction<Database>,
  party: ChatParty,
  orderId: string,
  text: string,
  kept: KeptFile | undefined,
  now: number,
): Promise<MessageRow> {
  // The order first: it moves the version and, on PostgreSQL, locks the order, so its messages
  // take ids in commit order and a last-read id never passes one not yet committed.
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
