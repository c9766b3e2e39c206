/**
 * A reply to the bot's message about an order lands in that order's chat (chat/chat.ts's one
 * write: its limits, its order event, its notice to the other side): a customer's, in their
 * private chat with the bot, to a message about their own order; an operator's, in the operators'
 * chat (OPERATOR_CHAT_ID), to an alert about an order, from an id of OPERATOR_IDS only. Which order
 * a message is about is the outbox's own record: each row it sent keeps the message id Telegram
 * gave it in its chat. A photo or a document sent as the reply is fetched through the Bot API
 * (getFile, then its download) and checked and kept as a receipt is. The bot answers every reply to
 * it: that it landed, or why not, in the writer's language.
 */
import type { Context } from 'grammy';
import type { Message } from 'grammy/types';
import type { Kysely } from 'kysely';
import * as v from 'valibot';
import type { TranslationFunctions } from '../../../i18n/i18n-types';
import type { Language } from '../../shared/api';
import type { ErrorCode } from '../../shared/errors';
import { formatNumber } from '../../shared/format';
import { CHAT_TEXT_MAX_CHARS, RECEIPT_MAX_BYTES } from '../../shared/limits';
import { ChatMessageBodySchema } from '../../shared/schemas/order-actions';
import { orderNumber } from '../../shared/support-link';
import { writeMessage, type ChatParty, type MessageInput } from '../chat';
import type { ServerContext } from '../platform/context';
import type { Database } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { translator } from '../platform/i18n';
import type { RateLimiter } from '../platform/limits/rate-limit';
import { PartialReceiptFile } from '../receipts';
import { ReceivedDataUrl } from '../receipts';
import type { NotificationFacts } from '../orders';
import { customerRecipient, OPERATORS_RECIPIENT, sentTo } from '../platform/outbox';
import { escapeHtml, withVerificationCode } from './render';

/** What the bot needs to write a reply into an order's chat. */
export interface ReplyOptions {
  /** The server's context: the chat's write path, RECEIPTS_DIR, OPERATOR_CHAT_ID. */
  readonly context: ServerContext;
  /** Who may answer customers from the operators' chat (OPERATOR_IDS). */
  readonly isOperator: (telegramId: number) => boolean;
  /** The customers' call limits: a reply counts against their chat's, as a message in the app. */
  readonly limiter: RateLimiter;
  /** Where the Bot API serves a file's download: `<apiRoot>/file/bot<token>/<file_path>`. */
  readonly apiRoot: string;
  readonly token: string;
}

/** Who wrote the reply, as the chat knows them, and where its answer goes. */
interface Writer {
  readonly party: ChatParty;
  /** The outbox's recipient of the chat the reply was written in. */
  readonly recipient: string;
  readonly language: Language;
}

/** Why a reply did not land, beyond the chat's own refusals (its error codes). */
type Refusal = ErrorCode | 'notAboutOrder' | 'notOperator' | 'tooLong';

class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal);
  }
}

/** Kinds of message the chat cannot keep: only a text, an image or a PDF is a chat message. */
const UNSUPPORTED_MEDIA = [
  'animation',
  'audio',
  'sticker',
  'video',
  'video_note',
  'voice',
] as const satisfies readonly (keyof Message)[];

/**
 * Answers a message that replies to the bot's own: written into the order's chat it is about,
 * or refused with why. Any other message is left alone.
 */
export async function answerReply(
  ctx: Context,
  options: ReplyOptions,
  customerLanguage: () => Promise<Language>,
): Promise<void> {
  const message = ctx.message;
  const replied = message?.reply_to_message;
  if (message?.from === undefined || replied?.from?.id !== ctx.me.id) return;
  const writer = await writerOf(message, options, customerLanguage);
  if (writer === undefined) return;
  const LL = translator(writer.language);
  const answer = (text: string) =>
    ctx.reply(text, {
      parse_mode: 'HTML',
      reply_parameters: { message_id: message.message_id, allow_sending_without_reply: true },
    });
  let landed: string;
  try {
    if (!('party' in writer)) throw new Refused(writer.refusal);
    const order = await landReply(ctx, options, writer, message, replied.message_id);
    const text =
      writer.party.side === 'customer'
        ? LL.bot.replies.landedFromCustomer
        : LL.bot.replies.landedFromOperator;
    landed = withVerificationCode(text({ number: orderNumber(order.id) }), order.code, LL);
  } catch (error) {
    const refusal = refusalOf(error);
    await answer(refusalText(LL, refusal, writer.language));
    if (refusal === 'INTERNAL') throw error;
    return;
  }
  // Outside the refusals: a confirmation that fails to leave never says a written reply was not.
  await answer(landed);
}

/**
 * Who wrote: a customer in their private chat with the bot, an operator in the operators' chat,
 * a stranger there (refused); undefined in any other chat, which the bot does not answer.
 */
async function writerOf(
  message: Message,
  options: ReplyOptions,
  customerLanguage: () => Promise<Language>,
): Promise<Writer | { readonly refusal: Refusal; readonly language: Language } | undefined> {
  const from = message.from?.id;
  if (from === undefined) return undefined;
  const { config } = options.context;
  if (message.chat.type === 'private' && message.chat.id === from) {
    return {
      party: { side: 'customer', telegramId: from },
      recipient: customerRecipient(from),
      language: await customerLanguage(),
    };
  }
  if (config.operatorChatId === undefined || message.chat.id !== config.operatorChatId) {
    return undefined;
  }
  const language = config.operatorChatLanguage;
  if (!options.isOperator(from)) return { refusal: 'notOperator', language };
  return {
    party: { side: 'operator', telegramId: from },
    recipient: OPERATORS_RECIPIENT,
    language,
  };
}

/** Writes the reply into the chat of the order its message is about; that order. */
async function landReply(
  ctx: Context,
  options: ReplyOptions,
  writer: Writer,
  message: Message,
  repliedTo: number,
): Promise<{ readonly id: string; readonly code: string }> {
  const { party } = writer;
  // Counted as the app's writes are, before anything is looked at or fetched.
  if (party.side === 'customer') await options.limiter.hit(party.telegramId, 'chat');
  const order = await orderOfMessage(options.context.db, writer.recipient, repliedTo);
  if (order === undefined) throw new Refused('notAboutOrder');
  const input = await messageInput(ctx, options, message);
  try {
    await writeMessage(options.context, party, order.id, input);
  } finally {
    // A file refused stays under its temporary name: removed here (kept ones were renamed).
    await input.fileData?.discard();
  }
  return order;
}

/**
 * The order a message the bot sent to `recipient`'s chat is about, with its verification code:
 * the outbox row that sent it (or last edited it), unless it was a flood's summary, which
 * speaks for many orders. Message ids are unique only within a chat, hence the recipient.
 */
async function orderOfMessage(
  db: Kysely<Database>,
  recipient: string,
  messageId: number,
): Promise<{ readonly id: string; readonly code: string } | undefined> {
  // The recipient's sent rows, newest first (notifications_recipient): a reply is mostly to a
  // recent message, found after a few rows.
  const row = await sentTo(db, recipient)
    .innerJoin('orders', 'orders.id', 'notifications.order_id')
    .select(['orders.id', 'orders.verification_code', 'notifications.payload'])
    .where('notifications.message_id', '=', messageId)
    .limit(1)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const facts = JSON.parse(row.payload) as Partial<NotificationFacts>;
  if (facts.summaryCount !== undefined) return undefined;
  return { id: row.id, code: row.verification_code };
}

/** The reply as a chat message: its text (or a caption) as the app's is checked, its file. */
async function messageInput(
  ctx: Context,
  options: ReplyOptions,
  message: Message,
): Promise<MessageInput> {
  if (UNSUPPORTED_MEDIA.some((kind) => message[kind] !== undefined)) {
    throw new AppError('FILE_TYPE');
  }
  const parsed = v.safeParse(ChatMessageBodySchema, { text: message.text ?? message.caption });
  if (!parsed.success) {
    throw parsed.issues[0].message === 'tooLong'
      ? new Refused('tooLong')
      : new AppError('VALIDATION_FAILED');
  }
  // Telegram sends a photo in several sizes, the largest last.
  const file = message.photo?.at(-1) ?? message.document;
  return {
    text: parsed.output.text,
    fileName: message.document?.file_name ?? '',
    fileData: file === undefined ? undefined : await downloadFile(ctx, options, file),
  };
}

/**
 * A file of Telegram's, fetched through the Bot API and written as an upload's would be: one
 * Telegram says is too large is not fetched, and one whose bytes pass RECEIPT_MAX_BYTES is cut off.
 */
async function downloadFile(
  ctx: Context,
  options: ReplyOptions,
  file: { readonly file_id: string; readonly file_size?: number },
): Promise<ReceivedDataUrl> {
  if ((file.file_size ?? 0) > RECEIPT_MAX_BYTES)
    return new ReceivedDataUrl(undefined, 'FILE_TOO_LARGE');
  const described = await ctx.api.getFile(file.file_id);
  if (described.file_path === undefined) return new ReceivedDataUrl(undefined, 'NO_FILE');
  const response = await fetch(
    `${options.apiRoot}/file/bot${options.token}/${described.file_path}`,
  );
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new Error(`the file's download answered ${response.status}`);
  }
  const sink = new PartialReceiptFile(options.context.config.receiptsDir);
  const reader = response.body.getReader();
  try {
    let size = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      size += chunk.value.length;
      if (size > RECEIPT_MAX_BYTES) {
        await reader.cancel();
        await sink.discard();
        return new ReceivedDataUrl(undefined, 'FILE_TOO_LARGE');
      }
      await sink.write(Buffer.from(chunk.value));
    }
    return new ReceivedDataUrl(await sink.finish(), undefined, () => sink.discard());
  } catch (error) {
    await sink.discard();
    throw error;
  }
}

/** Why a reply did not land; INTERNAL for a fault of ours or of Telegram's. */
function refusalOf(error: unknown): Refusal {
  if (error instanceof Refused) return error.refusal;
  if (error instanceof AppError) return error.code;
  return 'INTERNAL';
}

/** A refusal as its writer reads it: the bot's own words, or the app's for the chat's refusals. */
function refusalText(LL: TranslationFunctions, refusal: Refusal, language: Language): string {
  const { replies } = LL.bot;
  switch (refusal) {
    case 'notAboutOrder':
      return replies.notAboutOrder();
    case 'notOperator':
      return replies.notOperator();
    case 'tooLong':
      return replies.tooLong({ max: formatNumber(CHAT_TEXT_MAX_CHARS, language) });
    default:
      return replies.refused({ reason: escapeHtml(LL.apiErrors[refusal]()) });
  }
}
