/**
 * A reply to the bot lands in the order's chat, against a local fake Bot API: a customer's reply
 * (a text, a photo fetched through getFile and its download) to the bot's message about their
 * order is written as the customer's and passed on to the operators; an operator's reply in the
 * operators' chat to an alert, from an id of OPERATOR_IDS, as the operator's and passed on to the
 * customer. A stranger's reply, a reply to the message about another customer's order, and a file
 * the chat cannot keep write nothing, and the bot says why in the writer's language.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateOrderResponse } from '../../../src/shared/api';
import { FAKE_TOKEN, FakeBotApi, type FakeUser } from '../../helpers/fake-bot-api';
import {
  CARD_REQUISITES,
  OPERATOR,
  OPERATOR_PATHS,
  ORDER_KINDS,
  createPayload,
  orderRow,
  pngFile,
  rateFor,
  send,
} from '../../helpers/lifecycle';
import { API_PATHS } from '../../../src/shared/api';
import { CHAT_TEXT_MAX_CHARS } from '../../../src/shared/limits';
import type { AppConfig } from '../../../src/server/platform/config/config';
import { CALL_LIMITS } from '../../../src/server/platform/limits/rate-limit';
import { startBotApp } from '../../helpers/bot-app';
import type { TestApp } from '../../helpers/test-app';

const OPERATOR_CHAT = -1_009_876_543_211;
const GROUP = { id: OPERATOR_CHAT, type: 'supergroup' } as const;
const MARIA: FakeUser = { id: 310_000_001, first_name: 'Мария', language_code: 'ru' };
const JOHN: FakeUser = { id: 310_000_002, first_name: 'John', language_code: 'en-GB' };
/** In the operators' chat, but not in OPERATOR_IDS. */
const STRANGER: FakeUser = { id: 310_000_099, first_name: 'Visitor', language_code: 'en' };
const privateChat = (user: FakeUser) => ({ id: user.id, type: 'private' }) as const;

let api: FakeBotApi;
let t: TestApp;

/**
 * A server with its bot and outbox running against a fake Bot API of its own, for one describe:
 * the operators' chat takes only a few alerts of a kind a minute before it sums them up, so each
 * describe's alerts start afresh.
 */
function withBot(overrides: Partial<AppConfig> = {}): void {
  beforeAll(async () => {
    api = await new FakeBotApi(FAKE_TOKEN).start();
    t = await startBotApp(api, OPERATOR_CHAT, { operatorChatLanguage: 'en', ...overrides });
  });
  afterAll(async () => {
    await t.close();
    await api.stop();
  });
}

/** The bot's messages about one order: to its customer (the requisites), and the operators' alert. */
interface OrderMessages {
  readonly id: string;
  readonly code: string;
  readonly toCustomer: number;
  /** Waited for only where needed: past a few a minute, new orders are summed up instead. */
  readonly alert: () => Promise<number>;
}

/** A P2P buy given its requisites: the customer was told by the bot, the operators alerted. */
async function orderWithRequisites(customer: FakeUser): Promise<OrderMessages> {
  const rate = await rateFor(t, customer, ORDER_KINDS.p2pBuy);
  const created = await send(
    t,
    'POST',
    API_PATHS.createOrder,
    customer,
    createPayload('p2pBuy', rate),
  );
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json<CreateOrderResponse>().orderId;
  const given = await send(t, 'POST', OPERATOR_PATHS.requisites(id), OPERATOR, CARD_REQUISITES);
  expect(given.statusCode, given.body).toBe(200);
  const number = id.slice(0, 8);
  const toCustomer = await api.waitForMessage(customer.id, (text) => text.includes(number));
  return {
    id,
    code: (await orderRow(t.database.db, id)).verification_code,
    toCustomer: api.sentMessageId(toCustomer),
    alert: async () =>
      api.sentMessageId(
        await api.waitForMessage(OPERATOR_CHAT, (text) => text.includes(`#${number}`)),
      ),
  };
}

/** The order's chat as the database keeps it. */
function chatOf(orderId: string) {
  return t.database.db
    .selectFrom('order_messages')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
}

/** The bot's answer to a reply: its message in the same chat, replying to it. */
const answerTo = (chatId: number, messageId: number) => api.waitForReplyTo(chatId, messageId);

describe("a customer's reply to the bot", { timeout: 20_000 }, () => {
  withBot();

  it("lands in the order's chat as the customer's, reaches the operators, and the bot confirms with the code", async () => {
    const order = await orderWithRequisites(MARIA);
    const reply = api.pushReply(MARIA, privateChat(MARIA), order.toCustomer, {
      text: 'Оплатила с карты мужа, <b>это</b> нормально?',
    });
    expect(await answerTo(MARIA.id, reply)).toBe(
      `✅ Сообщение передано в чат заказа №${order.id.slice(0, 8)}. Ответ придёт сюда и в чат заказа в приложении.\n\n` +
        `🔐 Код проверки заказа: <b>${order.code}</b>`,
    );
    const [message, ...more] = await chatOf(order.id);
    expect(more).toEqual([]);
    expect(message).toMatchObject({
      author: 'customer',
      author_id: MARIA.id,
      text: 'Оплатила с карты мужа, <b>это</b> нормально?',
      attachment_key: null,
    });
    // Passed on as a message written in the app is: the operators' chat hears of it.
    const alert = await api.waitForMessage(OPERATOR_CHAT, (text) =>
      text.includes('Оплатила с карты мужа, &lt;b&gt;это&lt;/b&gt; нормально?'),
    );
    expect(alert.payload['text']).toContain(`<b>${order.code}</b>`);
  });

  it("a photo sent as the reply is fetched from Telegram and kept as the message's file, by its bytes", async () => {
    const order = await orderWithRequisites(JOHN);
    const bytes = pngFile();
    const photo = api.addFile(bytes);
    const reply = api.pushReply(JOHN, privateChat(JOHN), order.toCustomer, {
      photo,
      caption: 'The receipt',
    });
    expect(await answerTo(JOHN.id, reply)).toMatch(/^✅ Your message is in the chat of order #/);
    expect(api.callsOf('getFile').map((c) => c.payload['file_id'])).toContain(photo.file_id);
    const [message] = await chatOf(order.id);
    expect(message).toMatchObject({
      author: 'customer',
      text: 'The receipt',
      attachment_type: 'image/png',
      attachment_size: bytes.length,
    });
    const kept = path.join(t.config.receiptsDir, message?.attachment_key ?? '');
    expect(fs.readFileSync(kept).equals(bytes)).toBe(true);
  });

  it('a file that is not an image or a PDF is refused by its bytes, and a sticker by its kind: nothing is written', async () => {
    const order = await orderWithRequisites(JOHN);
    const exe = api.addFile(Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), pngFile()]));
    const asDocument = api.pushReply(JOHN, privateChat(JOHN), order.toCustomer, {
      document: { ...exe, file_name: 'receipt.png', mime_type: 'image/png' },
    });
    expect(await answerTo(JOHN.id, asDocument)).toBe(
      '⚠️ The message was not passed on to the order’s chat.\nPlease upload an image or PDF file',
    );
    const sticker = api.pushReply(JOHN, privateChat(JOHN), order.toCustomer, {
      sticker: api.addFile(pngFile()),
    });
    expect(await answerTo(JOHN.id, sticker)).toMatch(/Please upload an image or PDF file$/);
    expect(await chatOf(order.id)).toEqual([]);
    // The refused download left nothing behind.
    expect(fs.readdirSync(t.config.receiptsDir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it("a reply to the message about another customer's order writes nothing, in either order", async () => {
    const maria = await orderWithRequisites(MARIA);
    const john = await orderWithRequisites(JOHN);
    // Message ids are a chat's own: in John's chat, Maria's message id names nothing of his.
    const reply = api.pushReply(JOHN, privateChat(JOHN), maria.toCustomer, { text: 'Mine now' });
    expect(await answerTo(JOHN.id, reply)).toMatch(
      /^⚠️ Nothing was passed on: this message of the bot is not about an order\./,
    );
    expect(await chatOf(maria.id)).toEqual([]);
    expect(await chatOf(john.id)).toEqual([]);
  });
});

describe("a customer's replies past the chat's limits", { timeout: 20_000 }, () => {
  withBot({ callLimits: { ...CALL_LIMITS, chat: 1 } });

  it("a text longer than the app's is refused with the limit, and a reply past the minute's limit with the app's words", async () => {
    const order = await orderWithRequisites(JOHN);
    const long = api.pushReply(JOHN, privateChat(JOHN), order.toCustomer, {
      text: 'я'.repeat(CHAT_TEXT_MAX_CHARS + 1),
    });
    expect(await answerTo(JOHN.id, long)).toBe(
      '⚠️ The message was not passed on to the order’s chat: it is longer than 3,000 characters. Shorten it or split it into several.',
    );
    // The long one was counted, as the app's refused writes are: the minute's one is spent.
    const next = api.pushReply(JOHN, privateChat(JOHN), order.toCustomer, { text: 'Hello?' });
    expect(await answerTo(JOHN.id, next)).toBe(
      '⚠️ The message was not passed on to the order’s chat.\nToo many requests. Please try again shortly.',
    );
    expect(await chatOf(order.id)).toEqual([]);
  });
});

describe("an operator's reply in the operators' chat", { timeout: 20_000 }, () => {
  withBot();

  it("from an id of OPERATOR_IDS lands as the operator's, and reaches the customer by the bot", async () => {
    const order = await orderWithRequisites(JOHN);
    const reply = api.pushReply(OPERATOR, GROUP, await order.alert(), {
      text: 'Payment seen, sending the coins',
    });
    expect(await answerTo(OPERATOR_CHAT, reply)).toBe(
      `✅ The answer is passed on to the customer in the chat of order #${order.id.slice(0, 8)}.\n\n` +
        `🔐 Order verification code: <b>${order.code}</b>`,
    );
    const [message] = await chatOf(order.id);
    expect(message).toMatchObject({
      author: 'operator',
      author_id: OPERATOR.id,
      text: 'Payment seen, sending the coins',
    });
    const told = await api.waitForMessage(JOHN.id, (text) =>
      text.includes('Payment seen, sending the coins'),
    );
    expect(told.payload['text']).toContain(`<b>${order.code}</b>`);
  });

  it('from anyone else writes nothing, and the bot says who may answer', async () => {
    const order = await orderWithRequisites(MARIA);
    const reply = api.pushReply(STRANGER, GROUP, await order.alert(), {
      text: 'Send it to me instead',
    });
    expect(await answerTo(OPERATOR_CHAT, reply)).toBe(
      '⚠️ The answer was not passed on to the customer: only operators listed in OPERATOR_IDS can write to customers from here.',
    );
    // A customer who found their way into the group is a stranger there too.
    const customer = api.pushReply(MARIA, GROUP, await order.alert(), { text: 'Hello?' });
    expect(await answerTo(OPERATOR_CHAT, customer)).toMatch(
      /only operators listed in OPERATOR_IDS/,
    );
    expect(await chatOf(order.id)).toEqual([]);
  });
});
