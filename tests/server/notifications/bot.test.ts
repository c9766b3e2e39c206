/**
 * The bot in the server process, against a local fake Bot API: `/start` and `/help`
 * by long polling and by webhook (Telegram's secret token checked), and a status change reaching
 * the customer through the running outbox worker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSecret } from '../../../src/server/notifications/bot';
import { API_PATHS } from '../../../src/shared/api';
import { BOT_INFO, FAKE_TOKEN, FakeBotApi } from '../../helpers/fake-bot-api';
import { authHeader, initDataFor } from '../../helpers/identity';
import {
  CARD_REQUISITES,
  OPERATOR,
  createLifecycleApp,
  createPayload,
  rateFor,
  ORDER_KINDS,
  type TestUser,
} from '../../helpers/lifecycle';
import { startBotApp } from '../../helpers/bot-app';
import type { TestApp } from '../../helpers/test-app';
import { OPERATOR_PATHS } from '../../../src/shared/operator-api';
import type { CreateOrderResponse } from '../../../src/shared/api';

const OPERATOR_CHAT = -1_009_876_543_210;
const MARIA: TestUser = { id: 300_000_001, first_name: 'Мария', language_code: 'ru' };
const JOHN: TestUser = { id: 300_000_002, first_name: 'John', language_code: 'en-GB' };

/** A call from the app in English, signed with the bot's token as Telegram's clients sign it. */
function call(t: TestApp, method: 'GET' | 'POST', url: string, user: TestUser, body?: object) {
  return t.app.inject({
    method,
    url,
    headers: { ...authHeader(initDataFor(user, { token: FAKE_TOKEN })), 'accept-language': 'en' },
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
}

/** A P2P buy created from the app in English. */
async function createFromEnglishApp(t: TestApp, customer: TestUser) {
  const rate = await rateFor(t, customer, ORDER_KINDS.p2pBuy);
  return call(t, 'POST', API_PATHS.createOrder, customer, createPayload('p2pBuy', rate));
}

describe('long polling', () => {
  let api: FakeBotApi;
  let t: TestApp;
  beforeAll(async () => {
    api = await new FakeBotApi(FAKE_TOKEN).start();
    t = await startBotApp(api, OPERATOR_CHAT);
  });
  afterAll(async () => {
    await t.close();
    await api.stop();
  });

  it("/start greets in the customer's Telegram language with a button that opens the app", async () => {
    api.pushMessage(MARIA, '/start');
    api.pushMessage(JOHN, '/start');
    const sent = await api.waitFor('sendMessage', 2);
    const toMaria = sent.find((c) => c.payload['chat_id'] === MARIA.id);
    const toJohn = sent.find((c) => c.payload['chat_id'] === JOHN.id);
    expect(toMaria?.payload['text']).toMatch(/^Здравствуйте, Мария! Здесь можно купить и продать/);
    expect(toJohn?.payload['text']).toMatch(/^Hello, John! Here you can buy and sell USDT/);
    expect(toJohn?.payload['reply_markup']).toEqual({
      inline_keyboard: [
        [{ text: 'Open the exchange', url: `https://t.me/${BOT_INFO.username}?startapp` }],
      ],
    });
    // The bot records whom it met.
    const users = await t.database.db
      .selectFrom('users')
      .select('telegram_id')
      .where('telegram_id', 'in', [MARIA.id, JOHN.id])
      .execute();
    expect(users).toHaveLength(2);
  });

  it("/start order_<id> opens that order; the language chosen in the app wins over Telegram's", async () => {
    const created = await createFromEnglishApp(t, MARIA);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<CreateOrderResponse>().orderId;
    api.pushMessage(MARIA, `/start order_${id}`);
    // Maria's app speaks English (the calls above sent `Accept-Language: en`).
    const reply = await api.waitForMessage(MARIA.id, (text) =>
      text.includes(`Order #${id.slice(0, 8)} opens with the button below.`),
    );
    expect(reply.payload['text']).toMatch(/^Hello, Мария!/);
    expect(reply.payload['reply_markup']).toEqual({
      inline_keyboard: [
        [
          {
            text: 'Open the exchange',
            url: `https://t.me/${BOT_INFO.username}?startapp=order_${id}`,
          },
        ],
      ],
    });
  });

  it('/help gives the support chat', async () => {
    api.pushMessage(JOHN, '/help');
    const reply = await api.waitForMessage(JOHN.id, (text) => text.startsWith('A question'));
    expect(reply.payload['text']).toBe(
      `A question about an order? Write to support: ${t.config.supportUrl}. Give the order number: it is in every message and in the app.`,
    );
    expect(reply.payload['reply_markup']).toEqual({
      inline_keyboard: [[{ text: 'Contact support', url: t.config.supportUrl }]],
    });
  });

  it('/chatid tells a group its id, for OPERATOR_CHAT_ID', async () => {
    api.pushUpdate({
      message: {
        message_id: 99,
        date: Math.floor(Date.now() / 1000),
        chat: { id: OPERATOR_CHAT, type: 'supergroup', title: 'Desk' },
        from: { is_bot: false, ...JOHN },
        text: '/chatid',
        entities: [{ type: 'bot_command', offset: 0, length: 7 }],
      },
    });
    const reply = await api.waitForMessage(OPERATOR_CHAT, (text) =>
      text.includes('OPERATOR_CHAT_ID'),
    );
    expect(reply.payload['text']).toBe(
      `This chat's id: <code>${OPERATOR_CHAT}</code>. For the bot to alert operators here, start the server with OPERATOR_CHAT_ID=${OPERATOR_CHAT}.`,
    );
  });

  it("an operator's requisites reach the customer's chat within a second, and the new order the operators' chat", async () => {
    const created = await createFromEnglishApp(t, JOHN);
    const id = created.json<CreateOrderResponse>().orderId;
    await api.waitForMessage(OPERATOR_CHAT, (text) => text.includes(id.slice(0, 8)));
    const given = await call(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES);
    expect(given.statusCode, given.body).toBe(200);
    const changedAt = Date.now();
    const toJohn = await api.waitForMessage(JOHN.id, (text) => text.includes(id.slice(0, 8)));
    expect(toJohn.at - changedAt).toBeLessThan(1_000);
    expect(toJohn.payload['text']).toMatch(/^Order #\w{8}: the payment details are ready\./);
  });
});

describe('webhook', () => {
  let api: FakeBotApi;
  let t: TestApp;
  const url = 'https://exchange.example/telegram/webhook';
  beforeAll(async () => {
    api = await new FakeBotApi(FAKE_TOKEN).start();
    t = await createLifecycleApp(
      { botToken: FAKE_TOKEN, telegramApiRoot: api.url, webhookUrl: url },
      { realClock: true, jobs: true },
    );
    await t.app.ready();
  });
  afterAll(async () => {
    await t.close();
    await api.stop();
  });

  const update = (text: string) => ({
    update_id: 1,
    message: {
      message_id: 1,
      date: Math.floor(Date.now() / 1000),
      chat: { id: JOHN.id, type: 'private', first_name: JOHN.first_name },
      from: { is_bot: false, ...JOHN },
      text,
      entities: [{ type: 'bot_command', offset: 0, length: text.length }],
    },
  });

  it('at start-up the webhook is set with its secret token and only the updates the bot reads', async () => {
    const [set] = await api.waitFor('setWebhook', 1);
    expect(set?.payload).toEqual({
      url,
      secret_token: webhookSecret(FAKE_TOKEN),
      allowed_updates: ['message'],
    });
    expect(api.callsOf('getUpdates')).toEqual([]);
  });

  it("a call without Telegram's secret token is refused, and does nothing", async () => {
    for (const secret of [undefined, 'guess', webhookSecret('123:other')]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/telegram/webhook',
        headers: secret === undefined ? {} : { 'x-telegram-bot-api-secret-token': secret },
        payload: update('/help'),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json<{ code: string }>().code).toBe('FORBIDDEN');
    }
    expect(api.callsOf('sendMessage')).toEqual([]);
  });

  it('an update with the secret token is answered', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/telegram/webhook',
      headers: { 'x-telegram-bot-api-secret-token': webhookSecret(FAKE_TOKEN) },
      payload: update('/help'),
    });
    expect(res.statusCode).toBe(200);
    const [reply] = await api.waitFor('sendMessage', 1);
    expect(reply?.payload['chat_id']).toBe(JOHN.id);
    expect(reply?.payload['text']).toMatch(/^A question about an order\?/);
  });
});
