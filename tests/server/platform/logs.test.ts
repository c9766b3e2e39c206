/**
 * No credential reaches a log line: neither a customer's init data (it signs in as them for a
 * day), however it is sent and however the URL is spelled, nor the bot token. The server logs at
 * `trace` here, so every line it can write is read; what a request looks like in the log (its
 * path and the values of the API's own query keys) stays readable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { loadConfig, type AppConfig } from '../../../src/server/platform/config/config';
import { API_PATHS } from '../../../src/shared/api';
import { FAULTS, FakeBotApi } from '../../helpers/fake-bot-api';
import { ALICE, initDataFor } from '../../helpers/identity';
import { madeUpFacts } from '../../helpers/outbox-facts';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-database';

const BOT_TOKEN = '7000000001:AAHk3rZ9mQx2VbT8nP4sLw6yJcD1eFgH0iK';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.destroy();
});

/** A server logging everything (or from `level` up) into `lines`. */
async function loggingApp(
  botToken: string | undefined,
  level: 'trace' | 'info' = 'trace',
  options: { readonly config?: Partial<AppConfig>; readonly jobs?: boolean } = {},
) {
  const lines: string[] = [];
  const app = await buildApp(
    {
      ...loadConfig({}),
      database: database.config,
      staticDir: undefined,
      logLevel: level,
      botToken,
      ...options.config,
    },
    {
      db: database.db,
      logStream: { write: (line: string) => void lines.push(line) },
      jobs: options.jobs === true,
    },
  );
  return { app, lines };
}

/** Waits until a line of `lines` passes `test`. */
async function lineWith(lines: readonly string[], test: (line: string) => boolean) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = lines.find(test);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no such line in:\n${lines.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every spelling of a credential that could end up in a line: raw, URL-encoded, its hash. */
function spellings(secret: string): string[] {
  const hash = new URLSearchParams(secret).get('hash');
  return [secret, encodeURIComponent(secret), ...(hash === null ? [] : [hash])];
}

/** Percent-encodes every character, as an odd client might. */
const encodeEveryChar = (s: string) =>
  [...new TextEncoder().encode(s)]
    .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');

describe('logs never carry init data or the bot token', () => {
  const initData = initDataFor(ALICE, { token: BOT_TOKEN });
  const enc = encodeURIComponent(initData);
  const requests: {
    readonly what: string;
    readonly method: 'GET' | 'POST';
    readonly url: string;
    readonly body?: string;
    readonly headers?: Record<string, string>;
  }[] = [
    {
      what: 'the telegramInitData query field',
      method: 'GET',
      url: `${API_PATHS.activeOrders}?telegramInitData=${enc}`,
    },
    {
      what: 'the query key percent-encoded (telegram%49nitData)',
      method: 'GET',
      url: `${API_PATHS.activeOrders}?telegram%49nitData=${enc}`,
    },
    {
      what: 'key and value percent-encoded character by character',
      method: 'GET',
      url: `${API_PATHS.history}?${encodeEveryChar('telegramInitData')}=${encodeEveryChar(initData)}&status=active`,
    },
    {
      what: 'the key twice',
      method: 'GET',
      url: `${API_PATHS.activeOrders}?telegramInitData=x&telegramInitData=${enc}`,
    },
    {
      what: 'another spelling of the key',
      method: 'GET',
      url: `${API_PATHS.activeOrders}?TelegramInitData=${enc}`,
    },
    {
      what: 'a malformed %-escape in the path',
      method: 'GET',
      url: `/api/orders/%zz/status?telegramInitData=${enc}`,
    },
    {
      what: 'a malformed %-escape in the query',
      method: 'GET',
      url: `${API_PATHS.activeOrders}?telegramInitData=${enc}&x=%zz`,
    },
    {
      what: 'a path segment over the router limit',
      method: 'GET',
      url: `/api/orders/${'a'.repeat(200)}/status?telegramInitData=${enc}`,
    },
    { what: 'an unknown route', method: 'GET', url: `/api/nowhere?telegramInitData=${enc}` },
    {
      what: 'the Authorization header',
      method: 'GET',
      url: API_PATHS.activeOrders,
      headers: { authorization: `tma ${initData}` },
    },
    {
      what: 'the body field',
      method: 'POST',
      url: API_PATHS.cancel('00000000-0000-4000-8000-000000000000'),
      body: JSON.stringify({ telegramInitData: initData }),
    },
    {
      what: 'the body field in malformed JSON',
      method: 'POST',
      url: API_PATHS.createOrder,
      body: `{"telegramInitData":"${initData}",`,
    },
    {
      what: 'init data signed with another token',
      method: 'GET',
      url: `${API_PATHS.activeOrders}?telegramInitData=${encodeURIComponent(initDataFor(ALICE))}`,
    },
  ];

  it.each([
    ['with a real BOT_TOKEN', BOT_TOKEN],
    ['in demo mode', undefined],
  ])('%s: no line holds the init data, its hash or the token', async (_label, token) => {
    const { app, lines } = await loggingApp(token);
    const secrets = [...spellings(initData), ...spellings(initDataFor(ALICE)), BOT_TOKEN];
    try {
      for (const request of requests) {
        lines.length = 0;
        await app.inject({
          method: request.method,
          url: request.url,
          headers: { 'content-type': 'application/json', ...request.headers },
          ...(request.body === undefined ? {} : { payload: request.body }),
        });
        expect(lines.length, request.what).toBeGreaterThan(0);
        for (const line of lines) {
          for (const secret of secrets) {
            expect(line.includes(secret), `${request.what}: ${line}`).toBe(false);
          }
        }
      }
    } finally {
      await app.close();
    }
  });

  it('still shows the path and the values of the API query keys', async () => {
    const { app, lines } = await loggingApp(BOT_TOKEN);
    try {
      await app.inject({
        method: 'GET',
        url: `${API_PATHS.history}?status=active&limit=20&telegramInitData=${enc}`,
      });
      const incoming = lines.map((l) => JSON.parse(l) as { msg?: string; req?: { url?: string } });
      const line = incoming.find((l) => l.msg?.startsWith(`GET ${API_PATHS.history}`) === true);
      const shown = `${API_PATHS.history}?status=active&limit=20&telegramInitData=[redacted]`;
      expect(line?.req?.url).toBe(shown);
      expect(line?.msg).toContain(`GET ${shown} `);
    } finally {
      await app.close();
    }
  });
});

describe('the bot token reaches no log line when Telegram cannot be reached', () => {
  // grammY's network errors name the URL called, /bot<TOKEN>/<method>, in their message, their
  // stack and their nested error: every path that logs one is made to fail here.
  const noToken = (lines: readonly string[]) => {
    for (const line of lines) expect(line.includes(BOT_TOKEN), line).toBe(false);
  };

  it(
    "the bot's start-up (setWebhook) and the outbox's send meet dropped connections: the lines say <token>",
    { timeout: 20_000 },
    async () => {
      await database.db.deleteFrom('notification_failures').execute();
      await database.db.deleteFrom('notifications').execute();
      const now = Date.now();
      await database.db
        .insertInto('notifications')
        .values({
          dedupe_key: 'logs:token',
          recipient: `customer:${ALICE.id}`,
          order_id: null,
          kind: 'payment_reminder',
          language: 'en',
          payload: madeUpFacts('00000000-0000-4000-8000-000000000000', { deadline: now + 300_000 }),
          status: 'pending',
          next_attempt_at: now,
          created_at: now,
        })
        .execute();
      const api = await new FakeBotApi(BOT_TOKEN).start();
      const hangUp = (method: string) => (call: { readonly method: string }) =>
        call.method === method ? FAULTS.hangUp() : undefined;
      api.script.push(hangUp('setWebhook'), hangUp('sendMessage'));
      const { app, lines } = await loggingApp(BOT_TOKEN, 'trace', {
        config: { telegramApiRoot: api.url, webhookUrl: 'https://exchange.example/telegram/hook' },
        jobs: true,
      });
      try {
        await app.ready();
        const startUp = await lineWith(lines, (l) => l.includes('bot: could not reach Telegram'));
        const outbox = await lineWith(lines, (l) => l.includes('notification not sent'));
        // What would have carried the token carries the placeholder.
        expect(startUp).toContain('bot<token>/setWebhook');
        expect(outbox).toContain('bot<token>/sendMessage');
      } finally {
        await app.close();
        await api.stop();
      }
      noToken(lines);
      const stored = await database.db
        .selectFrom('notifications')
        .select('last_error')
        .executeTakeFirstOrThrow();
      expect(stored.last_error).toContain('bot<token>/sendMessage');
    },
  );

  it("an update whose reply meets a dropped connection: bot.catch's line says <token>", async () => {
    const api = await new FakeBotApi(BOT_TOKEN).start();
    api.script.push((call) => (call.method === 'sendMessage' ? FAULTS.hangUp() : undefined));
    const { app, lines } = await loggingApp(BOT_TOKEN, 'trace', {
      config: { telegramApiRoot: api.url },
      jobs: true,
    });
    try {
      await app.ready();
      api.pushMessage({ id: ALICE.id, first_name: ALICE.first_name }, '/help');
      const failed = await lineWith(lines, (l) => l.includes('bot update failed'));
      expect(failed).toContain('bot<token>/sendMessage');
    } finally {
      await app.close();
      await api.stop();
    }
    noToken(lines);
  });

  it('an error logged under any key, with the token in its cause, in a message or its arguments', async () => {
    const { app, lines } = await loggingApp(BOT_TOKEN);
    try {
      const cause = new Error(`request to https://api.telegram.org/bot${BOT_TOKEN}/getMe failed`);
      const error = new Error('Network request failed', { cause });
      app.log.error({ err: error }, 'under err');
      app.log.error({ error }, 'under error');
      app.log.error(error);
      app.log.warn(`a message naming bot${BOT_TOKEN}`);
      app.log.warn('%s and %o', `bot${encodeURIComponent(BOT_TOKEN)}`, 'x');
    } finally {
      await app.close();
    }
    expect(lines.length).toBeGreaterThanOrEqual(5);
    noToken(lines);
    noToken(lines.map((line) => decodeURIComponent(line)));
  });
});

describe('one readable line per request', () => {
  it("each request is one line saying what it was and how it ended; a screen's polling is at debug", async () => {
    for (const level of ['info', 'trace'] as const) {
      const { app, lines } = await loggingApp(undefined, level);
      await app.inject({ method: 'GET', url: API_PATHS.health });
      await app.inject({ method: 'GET', url: API_PATHS.appConfig });
      await app.inject({ method: 'GET', url: '/api/nope' });
      await app.close();
      const requests = lines
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((line) => /^GET /.test(line.msg));
      expect(requests.map((r) => r.msg.replace(/ [\d.]+ ms$/, ' … ms'))).toEqual([
        ...(level === 'trace' ? ['GET /api/health 200 … ms'] : []),
        'GET /api/app-config 200 … ms',
        'GET /api/nope 404 … ms',
      ]);
      // No "incoming request" line besides.
      expect(lines.filter((line) => line.includes('incoming request'))).toEqual([]);
    }
  });

  it("a request's lines carry its id, as Fastify's own child logger wrote them (request-logger.ts)", async () => {
    const { app, lines } = await loggingApp(undefined, 'info');
    await app.inject({ method: 'GET', url: API_PATHS.appConfig });
    await app.inject({ method: 'GET', url: '/api/nope' });
    await app.close();
    const requests = lines
      .map((line) => JSON.parse(line) as { msg: string; reqId?: string; req?: unknown })
      .filter((line) => /^GET /.test(line.msg));
    expect(requests).toHaveLength(2);
    for (const line of requests) {
      expect(line.reqId).toMatch(/^req-/);
      expect(line.req).toBeDefined();
    }
    expect(new Set(requests.map((line) => line.reqId)).size).toBe(2);
  });
});
