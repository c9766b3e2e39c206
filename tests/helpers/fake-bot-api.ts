/**
 * A local fake of Telegram's Bot API for the bot's tests (grammY's `apiRoot` points at it): it
 * answers `POST /bot<token>/<method>` as Telegram does, records every call, and can be told to
 * fail: a 429 with `retry_after`, a 500, a 403 for a chat that blocked the bot. Updates queued
 * with `pushUpdate` are handed out by `getUpdates` (long polling).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

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
  pushMessage(
    user: { id: number; first_name: string; language_code?: string; username?: string },
    text: string,
  ): void {
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
    reply(await this.answer(method, payload));
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
