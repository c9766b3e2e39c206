/**
 * The bot and the notification outbox in the server process (issue 12). The outbox worker runs
 * with the other jobs: it sends through the Bot API when a BOT_TOKEN is set, and in demo mode
 * marks each message as not sent, so the console shows what the customer would have received.
 * With a token, the bot takes its updates by long polling, or, when WEBHOOK_URL is set, at that
 * URL's path, where a call without Telegram's secret token is refused.
 */
import fp from 'fastify-plugin';
import type { Bot } from 'grammy';
import type { Update } from 'grammy/types';
import { ALLOWED_UPDATES, createBot, isWebhookSecret, webhookSecret } from './bot';
import { TelegramLimiter } from './telegram-limits';
import { createTelegramSender, observedSender } from './telegram-sender';
import { startOutbox, type RunningOutbox } from './worker';
import { AppError } from '../platform/errors';

/** How often the outbox looks for due messages when none were due (or its sends are all busy). */
const OUTBOX_INTERVAL_MS = 250;
/** How long to wait before trying Telegram again when the bot could not start. */
const RESTART_DELAY_MS = 5_000;

export const botPlugin = fp<{ readonly jobs: boolean }>(
  (app, options, done) => {
    const { config } = app;
    const token = config.botToken;
    // Telegram's limits are the bot's: its replies and the outbox take places from one limiter.
    const limiter = new TelegramLimiter();
    const bot: Bot | undefined =
      token === undefined
        ? undefined
        : createBot({
            token,
            apiRoot: config.telegramApiRoot,
            db: app.db,
            now: app.now,
            log: app.log,
            supportUrl: config.supportUrl,
            botUsername: config.botUsername,
            limiter,
            monitor: app.metrics.bot,
          });

    if (bot !== undefined && token !== undefined && config.webhookUrl !== undefined) {
      app.post(new URL(config.webhookUrl).pathname, async (request, reply) => {
        if (!isWebhookSecret(token, request.headers['x-telegram-bot-api-secret-token'])) {
          throw new AppError('FORBIDDEN');
        }
        if (!bot.isInited()) await bot.init();
        await bot.handleUpdate(request.body as Update);
        return reply.send({ ok: true });
      });
    }

    if (!options.jobs) {
      done();
      return;
    }

    const sender =
      token === undefined
        ? undefined
        : observedSender(
            createTelegramSender({ token, apiRoot: config.telegramApiRoot, limiter }),
            (chatId, outcome) => {
              const recipient = chatId === config.operatorChatId ? 'operators' : 'customer';
              app.metrics.outboxSent(recipient, outcome.kind);
            },
          );
    // Aborted when the server closes: the outbox stops claiming and starts no send that has not
    // left, and grammY stops retrying to reach Telegram.
    const shutdown = new AbortController();
    let outbox: RunningOutbox | undefined;
    const startOutboxWorker = () => {
      outbox = startOutbox(
        {
          db: app.db,
          dialect: config.database.kind,
          now: app.now,
          log: app.log,
          sender,
          operatorChatId: config.operatorChatId,
          operatorChatLanguage: config.operatorChatLanguage,
          render: () => ({
            botUsername:
              config.botUsername ?? (bot?.isInited() === true ? bot.botInfo.username : undefined),
            supportUrl: config.supportUrl,
          }),
          signal: shutdown.signal,
          monitor: app.metrics.jobs,
        },
        OUTBOX_INTERVAL_MS,
      );
    };

    // grammY types its signals with the abort-controller shim's type; Node's is the same object.
    const signal = shutdown.signal as unknown as Parameters<Bot['init']>[0];
    let restart: NodeJS.Timeout | undefined;
    const startUpdates = async (): Promise<void> => {
      if (bot === undefined || shutdown.signal.aborted) return;
      try {
        await bot.init(signal);
        if (config.webhookUrl !== undefined) {
          await bot.api.setWebhook(
            config.webhookUrl,
            { secret_token: webhookSecret(bot.token), allowed_updates: [...ALLOWED_UPDATES] },
            signal,
          );
          app.log.info({ url: config.webhookUrl }, 'bot: webhook set');
        } else {
          await bot.start({
            allowed_updates: [...ALLOWED_UPDATES],
            onStart: (me) => app.log.info({ bot: me.username }, 'bot: long polling'),
          });
        }
      } catch (error) {
        // The server may have closed while Telegram was being called (TypeScript cannot see it).
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
        if (shutdown.signal.aborted) return;
        app.log.error({ err: error }, 'bot: could not reach Telegram, trying again');
        app.metrics.bot.startFailed();
        restart = setTimeout(() => void startUpdates(), RESTART_DELAY_MS);
      }
    };

    app.addHook('onReady', (ready) => {
      startOutboxWorker();
      void startUpdates();
      ready();
    });
    app.addHook('onClose', async () => {
      shutdown.abort();
      clearTimeout(restart);
      if (bot?.isRunning() === true) {
        // Stopping confirms the last update with Telegram; unreachable, there is nothing to keep.
        await bot.stop().catch((error: unknown) => {
          app.log.warn({ err: error }, 'bot: stopped without confirming the last update');
        });
      }
      // The sends already on their way to Telegram are waited for; the rest stay for the next start.
      await outbox?.stop();
    });
    done();
  },
  { name: 'bot', dependencies: ['context', 'metrics'] },
);
