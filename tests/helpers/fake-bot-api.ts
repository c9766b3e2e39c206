/**
 * A local fake of Telegram's Bot API for the bot's tests (grammY's `apiRoot` points at it): it
 * answers `POST /bot<token>/<method>` as Telegram does, records every call, and can be told to
 * fail: a 429 with `retry_after`, a 500, a 403 for a chat that blocked the bot. Updates queued
 * with `pushUpdate` are handed out by `getUpdates` (long polling). Files a user sends (`addFile`)
 * are described by `getFile` and downloaded from `/file/bot<token>/<file_path>`, as Telegram's
 * Bot API serves them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';

export interface BotApiCall {
  readonly method: string;
  readonly payload: Record<string, unknown>;
  /** When the call arrived, in epoch milliseconds. */
  readonly at: number;
}

/** A scripted answer: the HTTP status and Telegram's body; status 0 hangs up with no answer. */
export interface FakeAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** A token in BotFather's shape, for a server whose Bot API is this fake. */
export const FAKE_TOKEN = '7000000001:AAFakeTokenForTheLocalBotApiDouble_x1';

export const BOT_INFO = {
  id: 7_000_000_001,
  is_bot: true,
  first_name: 'Exchange',
  username: 'exchange_test_bot',
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: true,
};

export const FAULTS = {
  tooManyRequests: (retryAfter: number): FakeAnswer => ({
    status: 429,
    body: {
      ok: false,
      error_code: 429,
      description: `Too Many Requests: retry after ${retryAfter}`,
      parameters: { retry_after: retryAfter },
    },
  }),
  serverError: (): FakeAnswer => ({
    status: 500,
    body: { ok: false, error_code: 500, description: 'Internal Server Error' },
  }),
  blocked: (): FakeAnswer => ({
    status: 403,
    body: { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' },
  }),
  /** The connection dropped before any answer: a network error for the caller. */
  hangUp: (): FakeAnswer => ({ status: 0, body: {} }),
};

/** Who sends a message: a Telegram user, as an update's `from` carries them. */
export interface FakeUser {
  readonly id: number;
  readonly first_name: string;
  readonly language_code?: string;
  readonly username?: string;
}

/** A file a user sent, as a message's photo size or document describes it. */
export interface FakeFile {
  readonly file_id: string;
  readonly file_unique_id: string;
  readonly file_size: number;
}

/** What a reply carries: a text, or a photo or a document with an optional caption. */
export type ReplyContent =
  | { readonly text: string }
  | { readonly photo: FakeFile; readonly caption?: string }
  | {
      readonly document: FakeFile & { readonly file_name?: string; readonly mime_type?: string };
      readonly caption?: string;
    }
  | { readonly sticker: FakeFile };

export class FakeBotApi {
  readonly calls: BotApiCall[] = [];
  /** Answers for the next calls, in order, before the normal ones. */
  readonly script: ((call: BotApiCall) => FakeAnswer | undefined)[] = [];
  /** Chats that blocked the bot: every message to them is refused with 403. */
  readonly blockedChats = new Set<number>();
  /** How long a call waits before its answer (a slow Telegram, a call in flight); 0 by default. */
  delay: (call: BotApiCall) => number = () => 0;
  private readonly server: http.Server;
  private readonly updates: Record<string, unknown>[] = [];
  private nextUpdateId = 1;
  private nextMessageId = 1;
  private waiting: (() => void)[] = [];
  /** The message id Telegram gave each message the bot sent. */
  private readonly sentIds = new Map<BotApiCall, number>();
  /** Files users sent, by file_id: where Telegram keeps them and their bytes. */
  private readonly files = new Map<string, { readonly path: string; readonly bytes: Buffer }>();
  url = '';

  constructor(readonly token: string) {
    this.server = http.createServer((request, response) => {
      void this.handle(request, response);
    });
  }

  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const wake of this.waiting) wake();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** An update for the bot's next getUpdates. */
  pushUpdate(update: Record<string, unknown>): void {
    this.updates.push({ update_id: this.nextUpdateId++, ...update });
    for (const wake of this.waiting.splice(0)) wake();
  }

  /** A private message from `user`, as Telegram delivers it. */
  pushMessage(user: FakeUser, text: string): void {
    const command = /^\/\w+/.exec(text);
    this.pushUpdate({
      message: {
        message_id: this.nextMessageId++,
        date: Math.floor(Date.now() / 1000),
        chat: { id: user.id, type: 'private', first_name: user.first_name },
        from: { is_bot: false, ...user },
        text,
        ...(command === null
          ? {}
          : { entities: [{ type: 'bot_command', offset: 0, length: command[0].length }] }),
      },
    });
  }

  /** A file a user sends, kept for getFile and its download; `size` may claim another size. */
  addFile(bytes: Buffer, size = bytes.length): FakeFile {
    const n = this.files.size + 1;
    const file = { file_id: `file-${n}-${randomUUID()}`, file_unique_id: `unique-${n}` };
    this.files.set(file.file_id, { path: `documents/file_${n}.bin`, bytes });
    return { ...file, file_size: size };
  }

  /**
   * A message from `user` in `chat` that replies to the bot's message `replyTo` (a sent message's
   * id, `sentMessageId`), as Telegram delivers it: the message replied to comes with it.
   */
  pushReply(
    user: FakeUser,
    chat: { readonly id: number; readonly type: 'private' | 'supergroup' },
    replyTo: number,
    content: ReplyContent,
  ): number {
    const date = Math.floor(Date.now() / 1000);
    const messageId = this.nextMessageId++;
    const photo =
      'photo' in content
        ? {
            // Telegram gives each size of a photo; the last is the largest.
            photo: [
              { ...content.photo, file_size: 1_000, width: 90, height: 60 },
              { ...content.photo, width: 1280, height: 853 },
            ],
          }
        : {};
    this.pushUpdate({
      message: {
        ...content,
        ...photo,
        message_id: messageId,
        date,
        chat,
        from: { is_bot: false, ...user },
        reply_to_message: {
          message_id: replyTo,
          date,
          chat,
          from: { id: BOT_INFO.id, is_bot: true, first_name: BOT_INFO.first_name },
          text: 'The bot’s message',
        },
      },
    });
    return messageId;
  }

  /** The message id Telegram gave the message of a sendMessage call. */
  sentMessageId(call: BotApiCall): number {
    const id = this.sentIds.get(call);
    if (id === undefined) throw new Error(`no message was sent by this ${call.method} call`);
    return id;
  }

  /** The calls of one method (the messages sent, say). */
  callsOf(method: string): BotApiCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  /** Waits until `count` calls of `method` have arrived. */
  async waitFor(method: string, count: number, timeoutMs = 10_000): Promise<BotApiCall[]> {
    await this.waitUntil(
      () => this.callsOf(method).length >= count,
      timeoutMs,
      () => `${count} ${method} calls, got ${this.callsOf(method).length}`,
    );
    return this.callsOf(method);
  }

  /** Waits for a message sent (or edited) to `chatId` whose text passes `test`. */
  async waitForMessage(
    chatId: number,
    test: (text: string) => boolean,
    timeoutMs = 10_000,
  ): Promise<BotApiCall> {
    const find = () =>
      this.calls.find(
        (call) =>
          (call.method === 'sendMessage' || call.method === 'editMessageText') &&
          call.payload['chat_id'] === chatId &&
          test(String(call.payload['text'])),
      );
    await this.waitUntil(
      () => find() !== undefined,
      timeoutMs,
      () => `a message to ${chatId}`,
    );
    const found = find();
    if (found === undefined) throw new Error('unreachable');
    return found;
  }

  /** Waits for the bot's message to `chatId` that replies to the message `messageId`; its text. */
  async waitForReplyTo(chatId: number, messageId: number, timeoutMs = 10_000): Promise<string> {
    const find = () =>
      this.callsOf('sendMessage').find(
        (call) =>
          call.payload['chat_id'] === chatId &&
          (call.payload['reply_parameters'] as { message_id?: unknown } | undefined)?.message_id ===
            messageId,
      );
    await this.waitUntil(
      () => find() !== undefined,
      timeoutMs,
      () => `a reply to message ${messageId} in ${chatId}`,
    );
    return String(find()?.payload['text']);
  }

  private async waitUntil(done: () => boolean, timeoutMs: number, what: () => string) {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private async handle(
    request: http.IncomingMessage,
    response: http.ServerResponse,
  ): Promise<void> {
    const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(request.url ?? '');
    if (download !== null) {
      this.serveFile(download[1], download[2], response);
      return;
    }
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.url ?? '');
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const reply = (answer: FakeAnswer) => {
      if (answer.status === 0) {
        request.socket.destroy();
        return;
      }
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    };
    if (match?.[1] !== this.token) {
      reply({ status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } });
      return;
    }
    const method = match[2] ?? '';
    const text = Buffer.concat(chunks).toString('utf8');
    const payload = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
    const call: BotApiCall = { method, payload, at: Date.now() };
    if (method !== 'getUpdates') this.calls.push(call);
    const delay = this.delay(call);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));

    for (let i = 0; i < this.script.length; i++) {
      const answer = this.script[i]?.(call);
      if (answer !== undefined) {
        this.script.splice(i, 1);
        reply(answer);
        return;
      }
    }
    const answer = await this.answer(method, payload);
    const sent = (answer.body['result'] as { message_id?: unknown } | undefined)?.message_id;
    if (method === 'sendMessage' && typeof sent === 'number') this.sentIds.set(call, sent);
    reply(answer);
  }

  /** A file's download, as Telegram serves it: its bytes, or 404 for a path it never gave. */
  private serveFile(
    token: string | undefined,
    filePath: string | undefined,
    response: http.ServerResponse,
  ): void {
    const file = [...this.files.values()].find((f) => f.path === filePath);
    if (token !== this.token || file === undefined) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: false, error_code: 404, description: 'Not Found' }));
      return;
    }
    response.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': file.bytes.length,
    });
    response.end(file.bytes);
  }

  /** What Telegram answers when nothing goes wrong (or the chat blocked the bot). */
  private async answer(method: string, payload: Record<string, unknown>): Promise<FakeAnswer> {
    const ok = (result: unknown): FakeAnswer => ({ status: 200, body: { ok: true, result } });
    const chatId = Number(payload['chat_id']);
    switch (method) {
      case 'getMe':
        return ok(BOT_INFO);
      case 'getUpdates':
        return ok(await this.takeUpdates(payload));
      case 'getFile': {
        const fileId = String(payload['file_id']);
        const file = this.files.get(fileId);
        if (file === undefined) {
          return {
            status: 400,
            body: { ok: false, error_code: 400, description: 'Bad Request: invalid file_id' },
          };
        }
        return ok({
          file_id: fileId,
          file_unique_id: fileId.replace(/^file-(\d+)-.*$/, 'unique-$1'),
          file_size: file.bytes.length,
          file_path: file.path,
        });
      }
      case 'sendMessage':
      case 'editMessageText':
        if (this.blockedChats.has(chatId)) return FAULTS.blocked();
        return ok({
          message_id:
            method === 'editMessageText' ? Number(payload['message_id']) : this.nextMessageId++,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chatId, type: chatId < 0 ? 'supergroup' : 'private' },
          text: payload['text'],
        });
      default:
        // deleteWebhook, setWebhook and the rest: done.
        return ok(true);
    }
  }

  /** Long polling: the updates after `offset`, waiting a little for some when there are none. */
  private async takeUpdates(payload: Record<string, unknown>): Promise<unknown[]> {
    const offset = Number(payload['offset'] ?? 0);
    const due = () => this.updates.filter((u) => Number(u['update_id']) >= offset);
    if (due().length === 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return due();
  }
}
