/**
 * The Telegram bot, on grammY, in the server process: `/start`, `/help`, `/chatid`, and replies to
 * its messages about orders (bot-replies.ts). Long polling, or a webhook when `WEBHOOK_URL` is
 * set. The notifications themselves are the outbox worker's.
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
  readonly botUsername: string | undefined;
  /** The process's one limiter, shared with the outbox's sender. */
  readonly limiter?: TelegramLimiter;
  readonly monitor?: BotMonitor;
  readonly replies: Omit<ReplyOptions, 'apiRoot' | 'token'>;
}

export interface BotMonitor {
  updateFailed(): void;
  startFailed(): void;
  callFailed(method: string, kind: FailureKind): void;
}

/** Each attempt counted; a call the bot itself aborted (stopping long polling) is no failure. */
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

/** From the token: every instance knows it with no other variable, and the token never travels. */
export function webhookSecret(token: string): string {
  return createHash('sha256').update(`webhook:${token}`).digest('hex');
}

/** Compared in constant time. */
export function isWebhookSecret(token: string, header: unknown): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(webhookSecret(token));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const ALLOWED_UPDATES = ['message'] as const;

function newBot(options: BotOptions): Bot {
  const { autoRetry } = autoRetryPackage();
  const bot = new (grammyPackage().Bot)(options.token, { client: { apiRoot: options.apiRoot } });
  // Installed first, so innermost: it sees every call as it leaves, retries included.
  if (options.monitor !== undefined) bot.api.config.use(failedCallsTo(options.monitor));
  bot.api.config.use((options.limiter ?? new TelegramLimiter()).transformer);
  // A reply may wait out a short 429 or 5xx; a notification is the outbox's to retry.
  bot.api.config.use(
    autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 10, rethrowHttpErrors: true }),
  );
  return bot;
}

interface CommandDeps {
  readonly options: BotOptions;
  readonly username: () => string | undefined;
}

type CommandHandler = (ctx: CommandContext<Context>, deps: CommandDeps) => Promise<void>;

/** Chosen in the app, else their Telegram client's. */
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

const help: CommandHandler = async (ctx, { options }) => {
  const LL = translator(await languageOf(options.db, ctx)).bot.start;
  await ctx.reply(LL.help({ url: escapeHtml(options.supportUrl) }), {
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
    reply_markup: button(LL.support(), options.supportUrl),
  });
};

const chatId: CommandHandler = async (ctx, { options }) => {
  const LL = translator(await languageOf(options.db, ctx)).bot.start;
  await ctx.reply(LL.chatId({ id: String(ctx.chat.id) }), { parse_mode: 'HTML' });
};

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
