/**
 * The order chat: the customer reads and writes the chat of
 * their own orders only (404 ORDER_NOT_FOUND for anyone else's, as every order call), operators
 * that of any order; a message is a text, a file checked as a receipt is, or both; every message
 * is an order event; an unchanged chat answers 304; unread counts follow what each side read;
 * every order carries a verification code.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_PATHS,
  type ChatMessage,
  type ChatResponse,
  type HistoryResponse,
  type ActiveOrdersResponse,
} from '../../../src/shared/api';
import { CHAT_TEXT_MAX_CHARS, RECEIPT_MAX_BYTES } from '../../../src/shared/limits';
import {
  OPERATOR_PATHS,
  type OperatorChatMessage,
  type OperatorChatResponse,
  type OperatorOrderResponse,
  type OperatorQueueResponse,
} from '../../../src/shared/operator-api';
import { renderStored } from '../../../src/server/notifications/render';
import { VERIFICATION_CODE_PATTERN } from '../../../src/shared/verification-code';
import {
  createOrder,
  expectError,
  forgedInitData,
  get,
  headersFor,
  newCustomer,
  post,
  statusOf,
  type TestUser,
} from '../../helpers/api';
import { authHeader, BOB } from '../../helpers/identity';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
let receiptsDir: string;
beforeAll(async () => {
  receiptsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-test-'));
  t = await createTestApp({ operatorIds: [BOB.id], receiptsDir });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(receiptsDir, { recursive: true, force: true });
});

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = () => Buffer.concat([PNG_HEAD, randomBytes(2_000)]);
const exe = () => Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00', 'latin1'), randomBytes(500)]);
const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

const OPERATOR = BOB;

const readChat = (user: TestUser, id: string, etag?: string) =>
  t.app.inject({
    method: 'GET',
    url: API_PATHS.chat(id),
    headers: { ...headersFor(user), ...(etag === undefined ? {} : { 'if-none-match': etag }) },
  });
const write = (user: TestUser, id: string, body: Record<string, unknown>) =>
  post(t, API_PATHS.chat(id), body, user);
const operatorRead = (id: string, etag?: string) =>
  t.app.inject({
    method: 'GET',
    url: OPERATOR_PATHS.chat(id),
    headers: { ...headersFor(OPERATOR), ...(etag === undefined ? {} : { 'if-none-match': etag }) },
  });
const operatorWrite = (id: string, body: Record<string, unknown>) =>
  post(t, OPERATOR_PATHS.chat(id), body, OPERATOR);

/** A message's answer: 201 and the message, as the customer or an operator reads it. */
function created(res: LightMyRequestResponse): ChatMessage {
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ChatMessage>();
}

const filesOnDisk = () => fs.readdirSync(receiptsDir).sort();

async function newOrder(name = 'Alice'): Promise<{ user: TestUser; id: string }> {
  const user = newCustomer(name);
  return { user, id: await createOrder(t, user, { total: 10_000 }) };
}

describe("the customer's chat of their order", () => {
  it('takes a text, trimmed, and gives it back as the customer wrote it, emoji and right-to-left text whole', async () => {
    const { user, id } = await newOrder();
    const text = 'Оплатил 🙂 — مرحبا بالعالم\nвторая строка';
    const sent = created(await write(user, id, { text: `  ${text}\n ` }));
    expect(sent).toMatchObject({ author: 'customer', text, attachment: null });
    const res = await readChat(user, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ChatResponse>().messages).toEqual([sent]);
  });

  it('keeps a message as an order event: who wrote it and when, the status as it was', async () => {
    const { user, id } = await newOrder();
    const sent = created(await write(user, id, { text: 'Где реквизиты?' }));
    const events = await t.database.db
      .selectFrom('order_events')
      .select(['from_status', 'to_status', 'actor', 'actor_id', 'message_id', 'created_at'])
      .where('order_id', '=', id)
      .orderBy('id')
      .execute();
    expect(events.at(-1)).toEqual({
      from_status: 'WAITING_REQUISITES',
      to_status: 'WAITING_REQUISITES',
      actor: 'customer',
      actor_id: user.id,
      message_id: sent.id,
      created_at: Date.parse(sent.createdAt),
    });
    const order = (await get(t, OPERATOR_PATHS.order(id), OPERATOR)).json<OperatorOrderResponse>();
    expect(order.events.at(-1)).toMatchObject({ actor: 'customer', messageId: sent.id });
  });

  it('answers 404 ORDER_NOT_FOUND to another customer, for reading, writing and a file, and keeps nothing they sent', async () => {
    const { user, id } = await newOrder();
    const withFile = created(
      await write(user, id, { fileName: 'a.png', fileData: dataUrl('image/png', png()) }),
    );
    const mallory = newCustomer('Mallory');
    const before = filesOnDisk();
    expectError(await readChat(mallory, id), 'ORDER_NOT_FOUND');
    expectError(
      await write(mallory, id, { text: 'hi', fileData: dataUrl('image/png', png()) }),
      'ORDER_NOT_FOUND',
    );
    expectError(
      await get(t, API_PATHS.chatAttachment(id, withFile.id), mallory),
      'ORDER_NOT_FOUND',
    );
    expect(filesOnDisk()).toEqual(before);
    expect((await readChat(user, id)).json<ChatResponse>().messages).toHaveLength(1);
  });

  it('answers 401 to a forged identity and to none', async () => {
    const { user, id } = await newOrder();
    const forged = authHeader(forgedInitData(user));
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({
        method,
        url: API_PATHS.chat(id),
        headers: forged,
        ...(method === 'POST' ? { payload: { text: 'hi' } } : {}),
      });
      expectError(res, 'AUTH_INVALID');
    }
    expectError(await get(t, API_PATHS.chat(id)), 'AUTH_MISSING');
    expectError(await post(t, API_PATHS.chat(id), { text: 'hi' }), 'AUTH_MISSING');
  });

  it('refuses a message with neither text nor file (MESSAGE_EMPTY), one too long and one with control characters (VALIDATION_FAILED)', async () => {
    const { user, id } = await newOrder();
    expectError(await write(user, id, {}), 'MESSAGE_EMPTY');
    expectError(await write(user, id, { text: ' \n\t ' }), 'MESSAGE_EMPTY');
    const tooLong = expectError(
      await write(user, id, { text: 'я'.repeat(CHAT_TEXT_MAX_CHARS + 1) }),
      'VALIDATION_FAILED',
    );
    expect(tooLong.fields).toEqual(['text']);
    expectError(await write(user, id, { text: 'a\u0000b' }), 'VALIDATION_FAILED');
    created(await write(user, id, { text: 'я'.repeat(CHAT_TEXT_MAX_CHARS) }));
  });

  it('takes an image with a text, stores it as a receipt is, and gives it to its owner and to operators', async () => {
    const { user, id } = await newOrder();
    const bytes = png();
    const sent = created(
      await write(user, id, {
        text: 'Скриншот перевода',
        fileName: 'screen.jpg',
        fileData: dataUrl('image/jpeg', bytes),
        fileSize: bytes.length,
      }),
    );
    expect(sent.attachment).toEqual({
      fileName: 'screen.jpg',
      mimeType: 'image/png',
      sizeBytes: bytes.length,
    });
    for (const res of [
      await get(t, API_PATHS.chatAttachment(id, sent.id), user),
      await get(t, OPERATOR_PATHS.chatAttachment(id, sent.id), OPERATOR),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.rawPayload.equals(bytes)).toBe(true);
    }
    const text = created(await write(user, id, { text: 'без файла' }));
    expectError(await get(t, API_PATHS.chatAttachment(id, text.id), user), 'NOT_FOUND');
    expectError(await get(t, API_PATHS.chatAttachment(id, 999_999_999), user), 'NOT_FOUND');
  });

  it('refuses a file by its bytes, whatever its name, and one over 10 MB, keeping no file', async () => {
    const { user, id } = await newOrder();
    const before = filesOnDisk();
    expectError(
      await write(user, id, {
        text: 'вот',
        fileName: 'receipt.pdf',
        fileData: dataUrl('application/pdf', exe()),
      }),
      'FILE_TYPE',
    );
    const big = Buffer.concat([PNG_HEAD, Buffer.alloc(RECEIPT_MAX_BYTES + 1 - PNG_HEAD.length)]);
    expectError(
      await write(user, id, { fileName: 'big.png', fileData: dataUrl('image/png', big) }),
      'FILE_TOO_LARGE',
    );
    expect(filesOnDisk()).toEqual(before);
    expect((await readChat(user, id)).json<ChatResponse>().messages).toEqual([]);
  });

  it('answers 304 with no body while the chat is unchanged, and the chat again once a message is written', async () => {
    const { user, id } = await newOrder();
    created(await write(user, id, { text: 'первое' }));
    const first = await readChat(user, id);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"/);
    const same = await readChat(user, id, etag);
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    created(await operatorWrite(id, { text: 'Реквизиты будут через минуту' }));
    const changed = await readChat(user, id, etag);
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json<ChatResponse>().messages.map((m) => m.author)).toEqual([
      'customer',
      'operator',
    ]);
  });
});

describe("the operators' chat of an order", () => {
  it('reads and writes the chat of any order, with who wrote and the file digest', async () => {
    const { user, id } = await newOrder();
    created(await write(user, id, { fileName: 'p.png', fileData: dataUrl('image/png', png()) }));
    const written = await operatorWrite(id, { text: 'Получили' });
    expect(written.statusCode, written.body).toBe(201);
    const answer = written.json<OperatorChatMessage>();
    expect(answer).toMatchObject({ author: 'operator', authorId: OPERATOR.id, text: 'Получили' });
    const res = await operatorRead(id);
    expect(res.statusCode).toBe(200);
    const chat = res.json<OperatorChatResponse>();
    expect(chat.messages.map((m) => [m.author, m.authorId])).toEqual([
      ['customer', user.id],
      ['operator', OPERATOR.id],
    ]);
    expect(chat.messages[0]?.attachment?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await operatorRead(id, res.headers.etag as string)).statusCode).toBe(304);
  });

  it('is closed to a customer who is no operator (403), and answers 404 for an order that does not exist', async () => {
    const { user, id } = await newOrder();
    expectError(await get(t, OPERATOR_PATHS.chat(id), user), 'FORBIDDEN');
    expectError(await post(t, OPERATOR_PATHS.chat(id), { text: 'I am staff' }, user), 'FORBIDDEN');
    const missing = '00000000-0000-4000-8000-000000000000';
    expectError(await operatorRead(missing), 'ORDER_NOT_FOUND');
    expectError(await operatorWrite(missing, { text: 'hello' }), 'ORDER_NOT_FOUND');
    expectError(await operatorWrite(id, {}), 'MESSAGE_EMPTY');
  });
});

describe('unread counts', () => {
  it("count the operators' messages on the customer's order, cards and status until the customer reads the chat", async () => {
    const { user, id } = await newOrder();
    created(await operatorWrite(id, { text: 'Здравствуйте' }));
    created(await operatorWrite(id, { text: 'Проверяем оплату' }));
    const unreadOnCards = async () => {
      const active = (await get(t, API_PATHS.activeOrders, user)).json<ActiveOrdersResponse>();
      const history = (await get(t, API_PATHS.history, user)).json<HistoryResponse>();
      return [
        (await statusOf(t, user, id)).unreadMessages,
        active.orders.find((o) => o.id === id)?.unreadMessages,
        history.orders.find((o) => o.id === id)?.unreadMessages,
      ];
    };
    expect(await unreadOnCards()).toEqual([2, 2, 2]);
    // The customer's own messages are never unread to them.
    created(await write(user, id, { text: 'Жду' }));
    expect(await unreadOnCards()).toEqual([2, 2, 2]);
    expect((await readChat(user, id)).statusCode).toBe(200);
    expect(await unreadOnCards()).toEqual([0, 0, 0]);
    created(await operatorWrite(id, { text: 'Готово' }));
    expect(await unreadOnCards()).toEqual([1, 1, 1]);
  });

  it('are read by a 304 too: the chat the customer holds is the chat as it is', async () => {
    const { user, id } = await newOrder();
    const empty = (await readChat(user, id)).headers.etag as string;
    created(await operatorWrite(id, { text: 'Вопрос' }));
    const held = await readChat(user, id, empty);
    expect(held.statusCode).toBe(200);
    // Marked unread again by hand, the chat unchanged: the next poll (304) reads it again.
    await t.database.db
      .updateTable('orders')
      .set({ customer_read_message_id: 0 })
      .where('id', '=', id)
      .execute();
    expect((await statusOf(t, user, id)).unreadMessages).toBe(1);
    expect((await readChat(user, id, held.headers.etag as string)).statusCode).toBe(304);
    expect((await statusOf(t, user, id)).unreadMessages).toBe(0);
  });

  it("count the customer's messages in the console's queue and order until an operator reads the chat", async () => {
    const { user, id } = await newOrder();
    created(await write(user, id, { text: 'Когда реквизиты?' }));
    created(await write(user, id, { text: 'Жду' }));
    created(await operatorWrite(id, { text: 'Скоро' }));
    const unreadInConsole = async () => {
      const queue = (await get(t, OPERATOR_PATHS.queue, OPERATOR)).json<OperatorQueueResponse>();
      const row = queue.groups.flatMap((g) => g.orders).find((o) => o.id === id);
      const order = (
        await get(t, OPERATOR_PATHS.order(id), OPERATOR)
      ).json<OperatorOrderResponse>();
      return [row?.unreadMessages, order.order.unreadMessages];
    };
    expect(await unreadInConsole()).toEqual([2, 2]);
    expect((await operatorRead(id)).statusCode).toBe(200);
    expect(await unreadInConsole()).toEqual([0, 0]);
    // What the operators read is not what the customer read.
    expect((await statusOf(t, user, id)).unreadMessages).toBe(1);
  });
});

describe('the verification code', () => {
  it("is in the customer's status answer, the operator's order and both chats, the same everywhere", async () => {
    const { user, id } = await newOrder();
    const code = (await statusOf(t, user, id)).verificationCode;
    expect(code).toMatch(VERIFICATION_CODE_PATTERN);
    const order = (await get(t, OPERATOR_PATHS.order(id), OPERATOR)).json<OperatorOrderResponse>();
    expect(order.order.verificationCode).toBe(code);
    expect((await readChat(user, id)).json<ChatResponse>().verificationCode).toBe(code);
    expect((await operatorRead(id)).json<OperatorChatResponse>().verificationCode).toBe(code);
  });

  it('differs between orders', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const { user, id } = await newOrder();
      codes.add((await statusOf(t, user, id)).verificationCode);
    }
    expect(codes.size).toBe(5);
  });
});

describe('the other side is told, through the outbox, with the verification code', () => {
  const options = { botUsername: 'exchange_bot', supportUrl: 'https://t.me/exchange_support' };
  const toldOf = async (id: string) =>
    t.database.db
      .selectFrom('notifications')
      .select(['kind', 'recipient', 'payload', 'language'])
      .where('order_id', '=', id)
      .where('kind', 'in', ['operator_message', 'customer_message'])
      .orderBy('id')
      .execute();

  /** The one message told of an order's chat. */
  const only = <T>(rows: readonly T[]): T => {
    expect(rows).toHaveLength(1);
    const [row] = rows;
    if (row === undefined) throw new Error('no message was told');
    return row;
  };

  it("an operator's message reaches the customer by the bot: the text as text, the file named, the code, a button to the order", async () => {
    const { user, id } = await newOrder();
    const code = (await statusOf(t, user, id)).verificationCode;
    created(
      await operatorWrite(id, {
        text: 'Пришлите, пожалуйста, чек <b>целиком</b>',
        fileName: 'how-to.png',
        fileData: dataUrl('image/png', png()),
        fileSize: 2_008,
      }),
    );
    const row = only(await toldOf(id));
    expect(row).toMatchObject({ kind: 'operator_message', recipient: `customer:${user.id}` });
    // In the customer's language (their Telegram's here: English), whatever the operators' chat's.
    expect(row.language).toBe('en');
    const { text, buttons } = renderStored(row, 'ru', options);
    expect(text).toContain(`<b>${code}</b>`);
    expect(text).toContain('Пришлите, пожалуйста, чек &lt;b&gt;целиком&lt;/b&gt;');
    expect(text).toContain('📎 File: how-to.png');
    expect(text).toMatch(/never asks you to pay outside the order’s own details/);
    // The button opens the chat, to answer where the message was written, in the customer's language.
    expect(buttons).toEqual([
      { text: "Open the order's chat", url: `https://t.me/exchange_bot?startapp=chat_${id}` },
    ]);
  });

  it("a customer's message reaches the operators' chat: the text, the code and who wrote, a button to the console", async () => {
    const { user, id } = await newOrder('Вера');
    const code = (await statusOf(t, user, id)).verificationCode;
    created(await write(user, id, { text: 'Оплатил, где монеты?' }));
    const row = only(await toldOf(id));
    expect(row).toMatchObject({ kind: 'customer_message', recipient: 'operators', language: null });
    const { text, buttons } = renderStored(row, 'en', options);
    expect(text).toContain(`<b>${code}</b>`);
    expect(text).toContain('Оплатил, где монеты?');
    expect(text).toContain(`id ${user.id}`);
    expect(buttons).toHaveLength(1);
    expect(buttons[0]?.url).toContain(`console_${id}`);
  });

  it('a message refused is told to nobody', async () => {
    const { user, id } = await newOrder();
    expectError(await write(user, id, { text: '   ' }), 'MESSAGE_EMPTY');
    expect(await toldOf(id)).toEqual([]);
  });
});
