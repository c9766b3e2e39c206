/**
 * Sending one message through the Bot API (grammY's `Api`), and what became of it, as the outbox
 * worker decides on it: sent (with its message id), retry after Telegram's `retry_after` (429),
 * the chat blocked the bot (403), a fault worth retrying (5xx, a network error), or refused for
 * good (any other 4xx). Telegram's limits (30 messages in any second overall, one a second per
 * chat, 20 a minute per group) are kept by the process's one TelegramLimiter: the worker takes a
 * place (`reserve`) before it marks the row as being sent, so that the call leaves right after.
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

/** How a call to Telegram failed, as the outbox decides on it and the metrics count it. */
export type FailureKind = Exclude<SendOutcome['kind'], 'sent'>;

/** What Telegram's error code means: wait its `retry_after`, the chat is closed, try again, or never. */
export function failureKindOf(errorCode: number): FailureKind {
  if (errorCode === 429) return 'retry_after';
  if (errorCode === 403) return 'blocked';
  if (errorCode >= 500) return 'transient';
  return 'refused';
}

export interface MessageSender {
  /**
   * Waits until Telegram's limits let one more message go to the chat and takes its place;
   * rejects if `signal` is aborted first (the server closing).
   */
  reserve(chatId: number, signal?: AbortSignal): Promise<Place>;
  /**
   * Sends a message to a chat, or edits the bot's earlier message there when `editMessageId` is
   * given, at once, in the place reserved for it (counted from here).
   */
  send(
    chatId: number,
    message: RenderedMessage,
    editMessageId: number | undefined,
    place: Place,
  ): Promise<SendOutcome>;
}

/** How long one call may take before it counts as a network fault and is retried later. */
const CALL_TIMEOUT_SECONDS = 20;

export function createTelegramSender(options: {
  readonly token: string;
  readonly apiRoot: string;
  /** The process's limiter, shared with the bot's replies; a sender of its own without one. */
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
          // The customer deleted it, or it can no longer be edited: say it anew (another place).
          await limiter.take(chatId);
          return await sendNew(chatId, message);
        }
      } catch (error) {
        return outcomeOf(error);
      }
    },
  };
}

/** What a failed call means for the message. */
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
    // The fetch error says why (refused, reset, timed out), with the URL and so the token, which
    // the worker redacts before it keeps or logs the text.
    const reason = error.error instanceof Error ? ` (${error.error.message})` : '';
    return { kind: 'transient', error: `network: ${error.message}${reason}` };
  }
  return { kind: 'transient', error: error instanceof Error ? error.message : String(error) };
}

/** `sender`, telling `observe` what became of each message it sent (the server's metrics). */
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
