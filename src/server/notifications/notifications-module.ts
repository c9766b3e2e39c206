/**
 * The notifications module (docs/bot.md): the bot and the outbox worker. In demo mode each
 * message is marked not sent, so the console shows what the customer would have received.
 * Services write messages to the outbox in their own transaction.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Bot } from 'grammy';
import type { Update } from 'grammy/types';
import { AppError } from '../platform/errors';
import { createRateLimiter } from '../platform/limits/rate-limit';
import { described } from '../platform/http/contract';
import type { ModuleOptions } from '../platform/jobs/run-jobs';
import type { DatabaseGauge, Metrics } from '../platform/metrics/metrics';
import { outboxBacklog, outboxOldestDue } from './backlog';
import { ALLOWED_UPDATES, createBot, isWebhookSecret, webhookSecret, type BotMonitor } from './bot';
import { TelegramLimiter } from './telegram-limits';
import { createTelegramSender, observedSender, type MessageSender } from './telegram-sender';
import { startOutbox, type RunningOutbox } from './worker';

const OUTBOX_INTERVAL_MS = 250;
const RESTART_DELAY_MS = 5_000;

const OUTBOX_GAUGES: readonly DatabaseGauge[] = [
  {
    name: 'exchange_outbox_backlog',
    help: 'Messages waiting in the outbox (pending, or being sent), by kind of chat',
    labelNames: ['recipient'],
    read: async (db) => {
      const counts = await outboxBacklog(db);
      return (['customer', 'operators'] as const).map((recipient) => ({
        labels: { recipient },
        value: counts[recipient],
      }));
    },
  },
  {
    name: 'exchange_outbox_oldest_due_seconds',
    help: 'How long the most overdue message in the outbox has been due (0: none is)',
    read: async (db, now) => (await outboxOldestDue(db, now)) / 1000,
  },
];

function botMonitor(metrics: Metrics): BotMonitor {
  const errors = metrics.counter({
    name: 'exchange_bot_errors_total',
    help: "The bot's failures: an update's handler (update), or taking updates at all (start)",
    labelNames: ['kind'],
  });
  for (const kind of ['update', 'start']) errors.inc({ kind }, 0);
  const calls = metrics.counter({
    name: 'exchange_bot_api_failures_total',
    help: "The bot's own Bot API calls that failed, by method and kind of failure",
    labelNames: ['method', 'kind'],
  });
  return {
    updateFailed: () => errors.inc({ kind: 'update' }),
    startFailed: () => errors.inc({ kind: 'start' }),
    callFailed: (method, kind) => calls.inc({ method, kind }),
  };
}

function outboxSender(app: FastifyInstance, limiter: TelegramLimiter) {
  const { config } = app;
  const sends = app.metrics.counter({
    name: 'exchange_outbox_sends_total',
    help: "The outbox's calls to Telegram, by kind of chat and outcome",
    labelNames: ['recipient', 'outcome'],
  });
  return (token: string): MessageSender =>
    observedSender(
      createTelegramSender({ token, apiRoot: config.telegramApiRoot, limiter }),
      (chatId, outcome) => {
        const recipient = chatId === config.operatorChatId ? 'operators' : 'customer';
        sends.inc({ recipient, outcome: outcome.kind });
      },
    );
}

function webhookRoute(app: FastifyInstance, bot: Bot, webhookUrl: string): void {
  const schema = {
    tags: ['telegram'],
    summary: "Telegram's updates for the bot (WEBHOOK_URL), with the bot's secret token",
    response: described('Taken'),
  };
  app.post(new URL(webhookUrl).pathname, { schema }, async (request, reply) => {
    if (!isWebhookSecret(bot.token, request.headers['x-telegram-bot-api-secret-token'])) {
      throw new AppError('FORBIDDEN');
    }
    if (!bot.isInited()) await bot.init();
    await bot.handleUpdate(request.body as Update);
    return reply.send({ ok: true });
  });
}

/** When Telegram cannot be reached, tried again after RESTART_DELAY_MS until the server closes. */
function updatesTaker(app: FastifyInstance, bot: Bot, monitor: BotMonitor, signal: AbortSignal) {
  const { webhookUrl } = app.config;
  const grammySignal = signal as unknown as Parameters<Bot['init']>[0];
  let restart: NodeJS.Timeout | undefined;
  const start = async (): Promise<void> => {
    if (signal.aborted) return;
    try {
      await bot.init(grammySignal);
      if (webhookUrl !== undefined) {
        await bot.api.setWebhook(
          webhookUrl,
          { secret_token: webhookSecret(bot.token), allowed_updates: [...ALLOWED_UPDATES] },
          grammySignal,
        );
        app.log.info({ url: webhookUrl }, 'bot: webhook set');
      } else {
        await bot.start({
          allowed_updates: [...ALLOWED_UPDATES],
          onStart: (me) => app.log.info({ bot: me.username }, 'bot: long polling'),
        });
      }
    } catch (error) {
      // The server may have closed while Telegram was called (TypeScript cannot see it).
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      if (signal.aborted) return;
      app.log.error({ err: error }, 'bot: could not reach Telegram, trying again');
      monitor.startFailed();
      restart = setTimeout(() => void start(), RESTART_DELAY_MS);
    }
  };
  return { start, cancel: () => clearTimeout(restart) };
}

function runNotifications(
  app: FastifyInstance,
  bot: Bot | undefined,
  sender: MessageSender | undefined,
  monitor: BotMonitor,
): void {
  const { config } = app;
  const shutdown = new AbortController();
  const updates = bot === undefined ? undefined : updatesTaker(app, bot, monitor, shutdown.signal);
  let outbox: RunningOutbox | undefined;
  app.addHook('onReady', (ready) => {
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
    void updates?.start();
    ready();
  });
  app.addHook('onClose', async () => {
    shutdown.abort();
    updates?.cancel();
    if (bot?.isRunning() === true) {
      // Stopping confirms the last update with Telegram; unreachable, there is nothing to keep.
      await bot.stop().catch((error: unknown) => {
        app.log.warn({ err: error }, 'bot: stopped without confirming the last update');
      });
    }
    // Sends already on their way are waited for; the rest stay for the next start.
    await outbox?.stop();
  });
}

export const notificationsModule = fp<ModuleOptions>(
  (app, options, done) => {
    const { config } = app;
    const token = config.botToken;
    app.metrics.gauges(OUTBOX_GAUGES);
    const monitor = botMonitor(app.metrics);
    // Telegram's limits are the bot's: its replies and the outbox take places from one limiter.
    const limiter = new TelegramLimiter();
    const sender = outboxSender(app, limiter);
    const bot =
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
            monitor,
            replies: {
              context: app,
              // Read when a reply comes: the identity plugin decorates it after this module.
              isOperator: (telegramId) => app.isOperator(telegramId),
              limiter: createRateLimiter(app.db, app.now, config.callLimits, config.addressLimits),
            },
          });
    if (bot !== undefined && config.webhookUrl !== undefined)
      webhookRoute(app, bot, config.webhookUrl);
    if (options.jobs) {
      runNotifications(app, bot, token === undefined ? undefined : sender(token), monitor);
    }
    done();
  },
  { name: 'notifications', dependencies: ['context', 'metrics'] },
);
