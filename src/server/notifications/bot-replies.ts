/**
 * A reply to the bot's message about an order lands in that order's chat, through the chat's one
 * write: a customer's, to a message about their own order; an operator's (OPERATOR_IDS only) in
 * the operators' chat. The outbox keeps the message id each sent row got, which names the order.
 * A file is fetched through the Bot API and checked as a receipt is; every reply is answered.
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

export interface ReplyOptions {
  readonly context: ServerContext;
  readonly isOperator: (telegramId: number) => boolean;
  /** A reply counts against the customer's chat limit, as a message in the app. */
  readonly limiter: RateLimiter;
  readonly apiRoot: string;
  readonly token: string;
}

interface Writer {
  readonly party: ChatParty;
  readonly recipient: string;
  readonly language: Language;
}

type Refusal = ErrorCode | 'notAboutOrder' | 'notOperator' | 'tooLong';

class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal);
  }
}

/** Only a text, an image or a PDF is a chat message. */
const UNSUPPORTED_MEDIA = [
  'animation',
  'audio',
  'sticker',
  'video',
  'video_note',
  'voice',
] as const satisfies readonly (keyof Message)[];

/** Any other message is left alone. */
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

/** A stranger in the operators' chat is refused; any other chat is not answered. */
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
    // A refused file stays under its temporary name: removed here (kept ones were renamed).
    await input.fileData?.discard();
  }
  return order;
}

/** A flood's summary speaks for many orders, so names none. Message ids are unique per chat. */
async function orderOfMessage(
  db: Kysely<Database>,
  recipient: string,
  messageId: number,
): Promise<{ readonly id: string; readonly code: string } | undefined> {
  // Newest first (notifications_recipient): a reply is mostly to a recent message.
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

/** One Telegram says is too large is not fetched; bytes past RECEIPT_MAX_BYTES are cut off. */
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

function refusalOf(error: unknown): Refusal {
  if (error instanceof Refused) return error.refusal;
  if (error instanceof AppError) return error.code;
  return 'INTERNAL';
}

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
