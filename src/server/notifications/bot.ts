/**
 * The Telegram bot, on grammY, in the server process: `/start` greets in the customer's language
 * with a button that opens the app (on the order of an `order_<id>` payload), `/help` gives the
 * support chat, `/chatid` tells a group its id (for OPERATOR_CHAT_ID); a reply to the bot's message
 * about an order is written into that order's chat (bot-replies.ts). Updates come by long
 * polling, or by webhook when `WEBHOOK_URL` is set (Telegram's secret token checked). The
 * notifications themselves are sent by the outbox worker (src/server/notifications).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Bot, CommandContext, Context, Transformer } from 'grammy';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  DEFAULT_LANGUAGE,
  ORDER_START_PARAM_PREFIX,
  orderIdFromStartParam,
  startAppLink,
  type Language,
} from '../../shared/api';
import { orderNumber } from '../../shared/support-link';
import { recordCustomer } from '../platform/identity/telegram-auth';
import type { Database } from '../platform/db/schema';
import { preferredLanguage, translator } from '../platform/i18n';
import { answerReply, type ReplyOptions } from './bot-replies';
import { escapeHtml } from './render';
import { TelegramLimiter } from './telegram-limits';
import { failureKindOf, type FailureKind } from './telegram-sender';
import { autoRetryPackage, grammyPackage } from '../platform/packages';

export interface BotOptions {
  readonly token: string;
  readonly apiRoot: string;
  readonly db: Kysely<Database>;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
  readonly supportUrl: string;
  /** BOT_USERNAME; else the bot's own, once it has introduced itself (getMe). */
  readonly botUsername: string | undefined;
  /** The process's one limiter, shared with the outbox's sender; a bot of its own without one. */
  readonly limiter?: TelegramLimiter;
  /** Told of the bot's failures (the server's metrics). */
  readonly monitor?: BotMonitor;
  /** How a reply to the bot's message about an order is written into the order's chat. */
  readonly replies: Omit<ReplyOptions, 'apiRoot' | 'token'>;
}

/** What the bot tells the server's metrics (src/server/platform/metrics/metrics.ts). */
export interface BotMonitor {
  /** An update's handler failed (`bot.catch`). */
  updateFailed(): void;
  /** The bot could not start taking updates (its start-up calls, or long polling gave up). */
  startFailed(): void;
  /** A Bot API call of the bot's own failed: refused by Telegram, or never answered. */
  callFailed(method: string, kind: FailureKind): void;
}

/**
 * A grammY transformer that tells `monitor` of every call that fails, each attempt of a call
 * retried counted: Telegram's refusal by its error code, no answer at all as `transient`. A call
 * aborted by the bot itself (stopping its long polling) is no failure.
 */
function failedCallsTo(monitor: BotMonitor): Transformer {
  return async (prev, method, payload, signal) => {
    try {
      const result = await prev(method, payload, signal);
      if (!result.ok) monitor.callFailed(method, failureKindOf(result.error_code));
      return result;
    } catch (error) {
      if (signal?.aborted !== true) monitor.callFailed(method, 'transient');
      throw error;
    }
  };
}

/**
 * The secret Telegram sends with every webhook call (`X-Telegram-Bot-Api-Secret-Token`): derived
 * from the token, so every instance knows it without another variable, and the token itself
 * never travels.
 */
export function webhookSecret(token: string): string {
  return createHash('sha256').update(`webhook:${token}`).digest('hex');
}

/** Whether a webhook call carries the secret, compared in constant time. */
export function isWebhookSecret(token: string, header: unknown): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(webhookSecret(token));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Only messages reach the bot: its commands, and replies to its messages. */
export const ALLOWED_UPDATES = ['message'] as const;

/**
 * The bot, its own calls told to `monitor` when they fail, kept within Telegram's limits and a
 * short wait retried.
 */
function newBot(options: BotOptions): Bot {
  const { autoRetry } = autoRetryPackage();
  const bot = new (grammyPackage().Bot)(options.token, { client: { apiRoot: options.apiRoot } });
  // Installed first, so innermost: it sees every call as it leaves, retries included.
  if (options.monitor !== undefined) bot.api.config.use(failedCallsTo(options.monitor));
  bot.api.config.use((options.limiter ?? new TelegramLimiter()).transformer);
  // A reply may wait out a short 429 or a 5xx; a notification is retried by the outbox instead,
  // and an unreachable Telegram fails the call at once (grammY's own start-up retries it).
  bot.api.config.use(
    autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 10, rethrowHttpErrors: true }),
  );
  return bot;
}

/** What a command's handler answers with: the bot's options, and the bot's username. */
interface CommandDeps {
  readonly options: BotOptions;
  /** BOT_USERNAME; else the bot's own, once it has introduced itself; else undefined. */
  readonly username: () => string | undefined;
}

type CommandHandler = (ctx: CommandContext<Context>, deps: CommandDeps) => Promise<void>;

/** The customer's language: chosen in the app, else their Telegram client's. */
async function languageOf(db: Kysely<Database>, ctx: Context): Promise<Language> {
  const from = ctx.from;
  if (from === undefined) return DEFAULT_LANGUAGE;
  const user = await db
    .selectFrom('users')
    .select('language')
    .where('telegram_id', '=', from.id)
    .executeTakeFirst();
  return preferredLanguage(user?.language, from.language_code);
}

const button = (text: string, url: string) => ({ inline_keyboard: [[{ text, url }]] });

/**
 * `/start`: the customer recorded (and written to again if they had blocked the bot), greeted
 * with a button that opens the app, on the order of an `order_<id>` payload.
 */
const start: CommandHandler = async (ctx, { options, username }) => {
  const from = ctx.from;
  if (from === undefined) return;
  const now = options.now();
  await recordCustomer(
    options.db,
    {
      telegramId: from.id,
      firstName: from.first_name,
      lastName: from.last_name ?? null,
      username: from.username ?? null,
      languageCode: from.language_code ?? null,
    },
    now,
  );
  // A customer who blocked the bot and came back is written to again.
  await options.db
    .updateTable('users')
    .set({ bot_blocked_at: null })
    .where('telegram_id', '=', from.id)
    .execute();
  const LL = translator(await languageOf(options.db, ctx)).bot.start;
  const orderId = orderIdFromStartParam(ctx.match);
  const lines = [LL.greeting({ name: escapeHtml(from.first_name) })];
  if (orderId !== undefined) lines.push(LL.order({ number: orderNumber(orderId) }));
  const bot = username();
  const link =
    bot === undefined
      ? undefined
      : orderId === undefined
        ? `https://t.me/${bot}?startapp`
        : startAppLink(bot, `${ORDER_START_PARAM_PREFIX}${orderId}`);
  await ctx.reply(lines.join('\n\n'), {
    parse_mode: 'HTML',
    ...(link === undefined ? {} : { reply_markup: button(LL.openApp(), link) }),
  });
};

/** `/help`: the support chat, as a link and a button. */
const help: CommandHandler = async (ctx, { options }) => {
  const LL = translator(await languageOf(options.db, ctx)).bot.start;
  await ctx.reply(LL.help({ url: escapeHtml(options.supportUrl) }), {
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
    reply_markup: button(LL.support(), options.supportUrl),
  });
};

/** `/chatid`, for setting up the operators' chat: the id of the chat it is asked in. */
const chatId: CommandHandler = async (ctx, { options }) => {
  const LL = translator(await languageOf(options.db, ctx)).bot.start;
  await ctx.reply(LL.chatId({ id: String(ctx.chat.id) }), { parse_mode: 'HTML' });
};

/** The bot's commands, each by the word it answers to. */
const COMMANDS: Readonly<Record<string, CommandHandler>> = { start, help, chatid: chatId };

export function createBot(options: BotOptions): Bot {
  const bot = newBot(options);
  const deps: CommandDeps = {
    options,
    username: () => options.botUsername ?? (bot.isInited() ? bot.botInfo.username : undefined),
  };
  for (const [command, handler] of Object.entries(COMMANDS)) {
    bot.command(command, (ctx) => handler(ctx, deps));
  }
  const replies = { ...options.replies, apiRoot: options.apiRoot, token: options.token };
  bot.on('message', (ctx) => answerReply(ctx, replies, () => languageOf(options.db, ctx)));

  bot.catch((error) => {
    options.log.error(
      { err: error.error, update: error.ctx.update.update_id },
      'bot update failed',
    );
    options.monitor?.updateFailed();
  });
  return bot;
}
