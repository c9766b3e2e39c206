/**
 * One message through the Bot API, and what became of it. The worker reserves its place in
 * Telegram's limits before it marks the row as being sent, so the call leaves right after.
 */
import type { InlineKeyboardMarkup } from 'grammy/types';
import { grammyPackage } from '../platform/packages';
import type { RenderedMessage } from './render';
import { TelegramLimiter, type Place } from './telegram-limits';

export type SendOutcome =
  | { readonly kind: 'sent'; readonly messageId: number }
  | { readonly kind: 'retry_after'; readonly seconds: number; readonly error: string }
  | { readonly kind: 'blocked'; readonly error: string }
  | { readonly kind: 'transient'; readonly error: string }
  | { readonly kind: 'refused'; readonly error: string };

export type FailureKind = Exclude<SendOutcome['kind'], 'sent'>;

export function failureKindOf(errorCode: number): FailureKind {
  if (errorCode === 429) return 'retry_after';
  if (errorCode === 403) return 'blocked';
  if (errorCode >= 500) return 'transient';
  return 'refused';
}

export interface MessageSender {
  /** Rejects if `signal` is aborted first (the server closing). */
  reserve(chatId: number, signal?: AbortSignal): Promise<Place>;
  /** Edits the bot's earlier message when `editMessageId` is given; counted from here. */
  send(
    chatId: number,
    message: RenderedMessage,
    editMessageId: number | undefined,
    place: Place,
  ): Promise<SendOutcome>;
}

/** Past it, a call counts as a network fault and is retried later. */
const CALL_TIMEOUT_SECONDS = 20;

export function createTelegramSender(options: {
  readonly token: string;
  readonly apiRoot: string;
  readonly limiter?: TelegramLimiter;
}): MessageSender {
  const limiter = options.limiter ?? new TelegramLimiter();
  const { Api, GrammyError } = grammyPackage();
  const api = new Api(options.token, {
    apiRoot: options.apiRoot,
    timeoutSeconds: CALL_TIMEOUT_SECONDS,
  });

  const markupOf = (message: RenderedMessage): InlineKeyboardMarkup | undefined =>
    message.buttons.length === 0
      ? undefined
      : {
          inline_keyboard: message.buttons.map((button) => [
            { text: button.text, url: button.url },
          ]),
        };

  const sendNew = async (chatId: number, message: RenderedMessage): Promise<SendOutcome> => {
    const markup = markupOf(message);
    const sent = await api.sendMessage(chatId, message.text, {
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      ...(markup === undefined ? {} : { reply_markup: markup }),
    });
    return { kind: 'sent', messageId: sent.message_id };
  };

  return {
    reserve: (chatId, signal) => limiter.reserve(chatId, signal),
    async send(chatId, message, editMessageId, place) {
      place.leave();
      try {
        if (editMessageId === undefined) return await sendNew(chatId, message);
        try {
          const markup = markupOf(message);
          await api.editMessageText(chatId, editMessageId, message.text, {
            parse_mode: 'HTML',
            link_preview_options: { is_disabled: true },
            ...(markup === undefined ? {} : { reply_markup: markup }),
          });
          return { kind: 'sent', messageId: editMessageId };
        } catch (error) {
          if (!(error instanceof GrammyError) || error.error_code !== 400) throw error;
          // The same text again: the message already says it.
          if (error.description.includes('message is not modified')) {
            return { kind: 'sent', messageId: editMessageId };
          }
          // Deleted, or no longer editable: said anew, in another place.
          await limiter.take(chatId);
          return await sendNew(chatId, message);
        }
      } catch (error) {
        return outcomeOf(error);
      }
    },
  };
}

export function outcomeOf(error: unknown): SendOutcome {
  const { GrammyError, HttpError } = grammyPackage();
  if (error instanceof GrammyError) {
    const text = `${error.error_code} ${error.description}`;
    const kind = failureKindOf(error.error_code);
    return kind === 'retry_after'
      ? { kind, seconds: error.parameters.retry_after ?? 1, error: text }
      : { kind, error: text };
  }
  if (error instanceof HttpError) {
    // The fetch error's message carries the URL, so the token: the worker redacts it.
    const reason = error.error instanceof Error ? ` (${error.error.message})` : '';
    return { kind: 'transient', error: `network: ${error.message}${reason}` };
  }
  return { kind: 'transient', error: error instanceof Error ? error.message : String(error) };
}

export function observedSender(
  sender: MessageSender,
  observe: (chatId: number, outcome: SendOutcome) => void,
): MessageSender {
  return {
    reserve: (chatId, signal) => sender.reserve(chatId, signal),
    async send(chatId, message, editMessageId, place) {
      const outcome = await sender.send(chatId, message, editMessageId, place);
      observe(chatId, outcome);
      return outcome;
    },
  };
}
