/**
 * The bot's messages: the outbox rows each change writes in its own transaction, and
 * the worker that sends them through a local fake Bot API, with the exact texts in both
 * languages, the order's thread, and every fault Telegram can answer with.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sweepOnce } from '../../../src/server/orders/sweeper';
import { renderSummary } from '../../../src/server/notifications/render';
import { createTelegramSender } from '../../../src/server/notifications/telegram-sender';
import {
  MAX_ATTEMPTS,
  sendDueNotifications,
  type OutboxSettings,
} from '../../../src/server/notifications/worker';
import { API_PATHS } from '../../../src/shared/api';
import type { OperatorOrderResponse } from '../../../src/shared/operator-api';
import { PAYMENT_REMINDER_BEFORE_MS, P2P_PAYMENT_WINDOW_MS } from '../../../src/shared/limits';
import { BOT_INFO, FAKE_TOKEN, FAULTS, FakeBotApi } from '../../helpers/fake-bot-api';
import { ALICE, BOB } from '../../helpers/identity';
import {
  CARD_REQUISITES,
  createLifecycleApp,
  createOrderViaHttp,
  perform,
  pngFile,
  headersFor,
  OPERATOR,
  OPERATOR_PATHS,
  receiptBody,
  send,
  txHashFor,
} from '../../helpers/lifecycle';
import { madeUpFacts } from '../../helpers/outbox-facts';
import type { TestApp } from '../../helpers/test-app';

const OPERATOR_CHAT = -1_001_234_567_890;

let t: TestApp;
let api: FakeBotApi;
beforeAll(async () => {
  t = await createLifecycleApp({ maxActiveOrders: 100 });
  api = await new FakeBotApi(FAKE_TOKEN).start();
});
afterAll(async () => {
  await api.stop();
  await t.close();
});
beforeEach(async () => {
  await t.database.db.deleteFrom('notification_failures').execute();
  await t.database.db.deleteFrom('notifications').execute();
  await t.database.db.updateTable('users').set({ bot_blocked_at: null, language: null }).execute();
  api.calls.length = 0;
  api.script.length = 0;
  api.blockedChats.clear();
});

function outbox(overrides: Partial<OutboxSettings> = {}): OutboxSettings {
  return {
    db: t.database.db,
    dialect: t.config.database.kind,
    now: t.clock.now,
    log: t.app.log,
    sender: createTelegramSender({ token: FAKE_TOKEN, apiRoot: api.url }),
    operatorChatId: OPERATOR_CHAT,
    operatorChatLanguage: 'ru',
    render: () => ({ botUsername: BOT_INFO.username, supportUrl: t.config.supportUrl }),
    ...overrides,
  };
}

/** Every row, oldest first: kind and recipient. */
async function rows() {
  return t.database.db.selectFrom('notifications').selectAll().orderBy('id').execute();
}

/** Sends until nothing is due now. */
/** The order's verification code, which every message about it ends with. */
async function codeLine(orderId: string, language: 'ru' | 'en'): Promise<string> {
  const { verification_code: code } = await t.database.db
    .selectFrom('orders')
    .select('verification_code')
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  return language === 'ru'
    ? `\n\n🔐 Код проверки заказа: <b>${code}</b>`
    : `\n\n🔐 Order verification code: <b>${code}</b>`;
}

async function drain(settings: OutboxSettings = outbox()): Promise<void> {
  while ((await sendDueNotifications(settings)).claimed > 0);
}

/** A P2P buy of `customer` with requisites given, the customer's app speaking `language`. */
async function p2pBuyWithRequisites(customer: typeof ALICE, language?: 'ru' | 'en') {
  if (language !== undefined) {
    await t.app.inject({
      method: 'GET',
      url: API_PATHS.activeOrders,
      headers: { ...headersFor(customer), 'accept-language': language },
    });
  }
  const id = await createOrderViaHttp(t, customer, 'p2pBuy');
  expect((await perform(t, 'giveRequisites', id, customer, CARD_REQUISITES)).statusCode).toBe(200);
  return id;
}

describe('the outbox: each change writes its messages in its own transaction', () => {
  it('a P2P buy to COMPLETED: operators hear of the order and the receipt, the customer of the requisites, the payment and the completion', async () => {
    const id = await p2pBuyWithRequisites(ALICE);
    await perform(t, 'confirmPayment', id, ALICE);
    await perform(t, 'uploadReceipt', id, ALICE, receiptBody(pngFile(), 'image/png', 'r.png'));
    await perform(t, 'operatorConfirmPayment', id, ALICE);
    await perform(t, 'complete', id, ALICE, { outgoingTxHash: txHashFor('TRC20') });
    const written = (await rows()).filter((row) => row.order_id === id);
    expect(written.map((row) => [row.recipient, row.kind])).toEqual([
      ['operators', 'new_order'],
      [`customer:${ALICE.id}`, 'requisites_ready'],
      ['operators', 'receipt_uploaded'],
      [`customer:${ALICE.id}`, 'payment_confirmed'],
      [`customer:${ALICE.id}`, 'completed'],
    ]);
    expect(written.every((row) => row.status === 'pending')).toBe(true);
  });

  it('an action repeated (a double tap, a second receipt of the same file) writes nothing twice', async () => {
    const id = await p2pBuyWithRequisites(ALICE);
    const file = pngFile();
    for (let i = 0; i < 2; i++) {
      await perform(t, 'confirmPayment', id, ALICE);
      await perform(t, 'uploadReceipt', id, ALICE, receiptBody(file, 'image/png', 'r.png'));
    }
    const kinds = (await rows()).filter((row) => row.order_id === id).map((row) => row.kind);
    expect(kinds).toEqual(['new_order', 'requisites_ready', 'receipt_uploaded']);
  });

  it("the customer's own cancel tells nobody; a rejection tells the customer why", async () => {
    const cancelled = await createOrderViaHttp(t, ALICE, 'p2pBuy');
    await perform(t, 'cancel', cancelled, ALICE);
    const rejected = await createOrderViaHttp(t, ALICE, 'p2pBuy');
    await perform(t, 'reject', rejected, ALICE, { reasonCode: 'limits_or_checks' });
    const all = await rows();
    expect(all.filter((r) => r.order_id === cancelled).map((r) => r.kind)).toEqual(['new_order']);
    expect(all.filter((r) => r.order_id === rejected).map((r) => r.kind)).toEqual([
      'new_order',
      'rejected',
    ]);
  });

  it('a sell: the customer is sent the exact amount to send, the operators hear of the hash, the customer of the confirmed transaction and the payout', async () => {
    const id = await createOrderViaHttp(t, BOB, 'sell');
    await perform(t, 'submitTxHash', id, BOB, { txHash: txHashFor('TRC20') });
    await perform(t, 'confirmIncomingTx', id, BOB);
    await perform(t, 'complete', id, BOB);
    const written = (await rows()).filter((row) => row.order_id === id);
    expect(written.map((row) => row.kind)).toEqual([
      'new_order',
      'deposit_requested',
      'tx_submitted',
      'tx_confirmed',
      'completed',
    ]);
  });

  it('the sweeper reminds a customer who has not paid 5 minutes before the deadline, once, and alerts operators of an order nobody answered', async () => {
    const paid = await p2pBuyWithRequisites(ALICE);
    const unpaid = await p2pBuyWithRequisites(BOB);
    await perform(t, 'confirmPayment', paid, ALICE);
    const waiting = await createOrderViaHttp(t, ALICE, 'officeBuy');
    const database = { db: t.database.db, dialect: t.config.database.kind };
    t.clock.advance(P2P_PAYMENT_WINDOW_MS - PAYMENT_REMINDER_BEFORE_MS - 1_000);
    expect((await sweepOnce(database, t.clock.now())).reminded).toEqual([]);
    t.clock.advance(2_000);
    expect((await sweepOnce(database, t.clock.now())).reminded).toEqual([unpaid]);
    expect((await sweepOnce(database, t.clock.now())).reminded).toEqual([]);
    const all = await rows();
    expect(all.filter((r) => r.kind === 'payment_reminder').map((r) => r.order_id)).toEqual([
      unpaid,
    ]);
    expect(all.filter((r) => r.kind === 'flag_waiting').map((r) => r.order_id)).toContain(waiting);
  });
});

describe('the worker sends through the Bot API', () => {
  it('in the language chosen in the app: the exact texts of the requisites in ru and en, with a button that opens the order', async () => {
    const ru = await p2pBuyWithRequisites(ALICE, 'ru');
    const en = await p2pBuyWithRequisites(BOB, 'en');
    await drain();
    const sent = api.callsOf('sendMessage');
    const toAlice = sent.find((c) => c.payload['chat_id'] === ALICE.id);
    const toBob = sent.find((c) => c.payload['chat_id'] === BOB.id);
    expect(toAlice?.payload['text']).toMatch(
      new RegExp(
        `^Заказ №${ru.slice(0, 8)}: реквизиты готовы\\.\\nПереведите <b>15\\s000\\s₽</b> на карту <code>2200700123456781</code> \\(Т-Банк, IVAN PETROV\\) до <b>\\d\\d:\\d\\d</b> по Москве\\.\\nПосле перевода нажмите «Я оплатил» в приложении и приложите чек\\.${await codeLine(ru, 'ru')}$`,
      ),
    );
    expect(toBob?.payload['text']).toMatch(
      new RegExp(
        `^Order #${en.slice(0, 8)}: the payment details are ready\\.\\nTransfer <b>₽15,000</b> to the card <code>2200700123456781</code> \\(Т-Банк, IVAN PETROV\\) by <b>\\d\\d:\\d\\d</b> Moscow time\\.`,
      ),
    );
    // The deadline is the one stored on the order, in Moscow time.
    const { expires_at } = await t.database.db
      .selectFrom('orders')
      .select('expires_at')
      .where('id', '=', ru)
      .executeTakeFirstOrThrow();
    const moscow = new Date(Number(expires_at) + 3 * 3_600_000).toISOString().slice(11, 16);
    expect(toAlice?.payload['text']).toContain(`до <b>${moscow}</b> по Москве`);
    expect(toAlice?.payload['parse_mode']).toBe('HTML');
    expect(toAlice?.payload['reply_markup']).toEqual({
      inline_keyboard: [
        [{ text: 'Открыть заказ', url: `https://t.me/${BOT_INFO.username}?startapp=order_${ru}` }],
      ],
    });
    expect(toBob?.payload['reply_markup']).toEqual({
      inline_keyboard: [
        [{ text: 'Open the order', url: `https://t.me/${BOT_INFO.username}?startapp=order_${en}` }],
      ],
    });
    expect((await rows()).every((row) => row.status === 'sent' && row.message_id !== null)).toBe(
      true,
    );
  });

  it("an operator's message in the order's chat is a message of its own: the confirmation that follows edits the requisites' message, not it", async () => {
    const id = await p2pBuyWithRequisites(BOB, 'en');
    await drain();
    const requisitesRow = (await rows()).find((r) => r.kind === 'requisites_ready');
    const written = await send(t, 'POST', OPERATOR_PATHS.chat(id), OPERATOR, {
      text: 'We see your transfer coming',
    });
    expect(written.statusCode, written.body).toBe(201);
    await drain();
    const chatRow = (await rows()).find((r) => r.kind === 'operator_message');
    expect(chatRow).toMatchObject({ status: 'sent' });
    expect(chatRow?.message_id).not.toBe(requisitesRow?.message_id);
    await perform(t, 'confirmPayment', id, BOB);
    await perform(t, 'uploadReceipt', id, BOB, receiptBody(pngFile(), 'image/png', 'r.png'));
    await perform(t, 'operatorConfirmPayment', id, BOB);
    await drain();
    const edits = api.callsOf('editMessageText');
    expect(edits.map((e) => e.payload['message_id'])).toEqual([requisitesRow?.message_id]);
  });

  it("one order, one thread: the payment's confirmation edits the message of the requisites; the completion is a new message with the explorer link", async () => {
    const id = await p2pBuyWithRequisites(BOB, 'en');
    await drain();
    const requisites = api.callsOf('sendMessage').find((c) => c.payload['chat_id'] === BOB.id);
    const requisitesRow = (await rows()).find((r) => r.kind === 'requisites_ready');
    await perform(t, 'confirmPayment', id, BOB);
    await perform(t, 'uploadReceipt', id, BOB, receiptBody(pngFile(), 'image/png', 'r.png'));
    await perform(t, 'operatorConfirmPayment', id, BOB);
    const hash = txHashFor('TRC20');
    await perform(t, 'complete', id, BOB, { outgoingTxHash: hash });
    await drain();
    const edits = api.callsOf('editMessageText');
    expect(edits).toHaveLength(1);
    expect(edits[0]?.payload['message_id']).toBe(requisitesRow?.message_id);
    expect(edits[0]?.payload['chat_id']).toBe(BOB.id);
    expect(edits[0]?.payload['text']).toMatch(
      new RegExp(
        `^Order #${id.slice(0, 8)}: your payment of <b>₽[\\d,]+</b> has arrived\\. We are sending <b>[\\d.,]+ USDT</b> to your wallet on TRC20\\.${await codeLine(id, 'en')}$`,
      ),
    );
    const toBob = api.callsOf('sendMessage').filter((c) => c.payload['chat_id'] === BOB.id);
    expect(toBob).toHaveLength(2);
    expect(toBob[0]).toBe(requisites);
    expect(toBob[1]?.payload['text']).toContain(`Order #${id.slice(0, 8)} is complete: <b>`);
    expect(toBob[1]?.payload['text']).toContain(
      `<a href="https://tronscan.org/#/transaction/${hash}">${hash}</a>`,
    );
  });

  it("a rejection reads the catalogue's reason and what happens to the money, in the customer's language, with the support chat", async () => {
    const id = await p2pBuyWithRequisites(BOB, 'en');
    await perform(t, 'reject', id, BOB, {
      reasonCode: 'third_party_payment',
      reason: 'Paid from <Ivanov>',
    });
    await drain();
    const rejected = api.callsOf('sendMessage').filter((c) => c.payload['chat_id'] === BOB.id)[1];
    expect(rejected?.payload['text']).toBe(
      `Order #${id.slice(0, 8)} was rejected. Reason: The payment came from someone else's account: Paid from &lt;Ivanov&gt;\n\n` +
        'Do not pay for this order. If you already paid, contact support: we return the money to the account it came from.' +
        (await codeLine(id, 'en')),
    );
    const buttons = (rejected?.payload['reply_markup'] as { inline_keyboard: { url: string }[][] })
      .inline_keyboard;
    expect(buttons.map((row) => row[0]?.url)).toEqual([
      `https://t.me/${BOT_INFO.username}?startapp=order_${id}`,
      expect.stringMatching(/^https:\/\/t\.me\/exchange_support\?text=Order%20%23/),
    ]);
  });

  it("the operators' chat gets each alert with a button that opens the order in the console", async () => {
    const id = await createOrderViaHttp(t, ALICE, 'p2pBuy');
    await drain();
    const alert = api.callsOf('sendMessage').find((c) => c.payload['chat_id'] === OPERATOR_CHAT);
    expect(alert?.payload['text']).toMatch(
      new RegExp(
        `^🆕 Новый заказ №${id.slice(0, 8)}: покупка, перевод на карту\\n<b>[\\d,]+\\sUSDT</b> за <b>15\\s000\\s₽</b>\\nКлиент: Алиса, @alice, id ${ALICE.id}${await codeLine(id, 'ru')}$`,
      ),
    );
    expect(alert?.payload['reply_markup']).toEqual({
      inline_keyboard: [
        [
          {
            text: 'Открыть в консоли',
            url: `https://t.me/${BOT_INFO.username}?startapp=console_${id}`,
          },
        ],
      ],
    });
  });

  it('with no OPERATOR_CHAT_ID the alerts are skipped, and in demo mode nothing is sent: each row says why', async () => {
    await createOrderViaHttp(t, ALICE, 'officeBuy');
    await drain(outbox({ operatorChatId: undefined }));
    expect((await rows()).map((r) => [r.status, r.last_error])).toEqual([
      ['skipped', 'OPERATOR_CHAT_ID is not set'],
    ]);
    await p2pBuyWithRequisites(ALICE);
    await drain(outbox({ sender: undefined }));
    const demo = (await rows()).slice(1);
    expect(demo.map((r) => [r.status, r.last_error])).toEqual([
      ['skipped', 'demo mode: no BOT_TOKEN, nothing is sent'],
      ['skipped', 'demo mode: no BOT_TOKEN, nothing is sent'],
    ]);
    expect(api.calls).toEqual([]);
  });
});

describe("the console's view of the outbox", () => {
  it('each message of an order as its recipient reads it, where it stands and why it was not sent', async () => {
    const id = await p2pBuyWithRequisites(ALICE);
    await drain(outbox({ sender: undefined }));
    const res = await send(t, 'GET', OPERATOR_PATHS.order(id), OPERATOR);
    expect(res.statusCode).toBe(200);
    const { messages } = res.json<OperatorOrderResponse>();
    expect(messages.map((m) => [m.to, m.kind, m.status, m.lastError])).toEqual([
      ['operators', 'new_order', 'skipped', 'demo mode: no BOT_TOKEN, nothing is sent'],
      ['customer', 'requisites_ready', 'skipped', 'demo mode: no BOT_TOKEN, nothing is sent'],
    ]);
    expect(messages[1]?.text).toMatch(
      /^Заказ №\w{8}: реквизиты готовы\.\nПереведите 15\s000\s₽ на карту 2200700123456781 \(Т-Банк, IVAN PETROV\)/,
    );
  });

  it('a customer gets 403 and no messages', async () => {
    const id = await createOrderViaHttp(t, ALICE, 'p2pBuy');
    const res = await send(t, 'GET', OPERATOR_PATHS.order(id), ALICE);
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('messages');
  });
});

describe("the worker and Telegram's faults", () => {
  afterEach(() => {
    api.script.length = 0;
  });

  it("a 429 is retried after Telegram's retry_after, not before, and the failure is kept", async () => {
    await createOrderViaHttp(t, ALICE, 'officeBuy');
    api.script.push(() => FAULTS.tooManyRequests(7));
    await drain();
    expect(api.callsOf('sendMessage')).toHaveLength(1);
    const [row] = await rows();
    expect(row?.status).toBe('pending');
    expect(row?.next_attempt_at).toBe(t.clock.now() + 7_000);
    t.clock.advance(6_999);
    await drain();
    expect(api.callsOf('sendMessage')).toHaveLength(1);
    t.clock.advance(1);
    await drain();
    expect(api.callsOf('sendMessage')).toHaveLength(2);
    expect((await rows())[0]?.status).toBe('sent');
    const failures = await t.database.db.selectFrom('notification_failures').selectAll().execute();
    expect(failures.map((f) => f.error)).toEqual(['429 Too Many Requests: retry after 7']);
  });

  it(`a 500 is retried with a growing delay, and after ${MAX_ATTEMPTS} attempts the row fails for good`, async () => {
    await createOrderViaHttp(t, ALICE, 'officeBuy');
    for (let i = 0; i < MAX_ATTEMPTS; i++) api.script.push(() => FAULTS.serverError());
    const delays: number[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await drain();
      const [row] = await rows();
      if (row === undefined) throw new Error('no row');
      expect(row.attempts).toBe(attempt);
      if (row.status === 'failed') break;
      delays.push(row.next_attempt_at - t.clock.now());
      t.clock.advance(row.next_attempt_at - t.clock.now());
    }
    expect(delays.slice(0, 4)).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect((await rows())[0]?.status).toBe('failed');
    const failures = await t.database.db.selectFrom('notification_failures').selectAll().execute();
    expect(failures).toHaveLength(MAX_ATTEMPTS);
  });

  it('a Bot API that cannot be reached (a closed port) is a network fault, retried', async () => {
    await createOrderViaHttp(t, ALICE, 'officeBuy');
    const closed = createTelegramSender({ token: FAKE_TOKEN, apiRoot: 'http://127.0.0.1:9' });
    await drain(outbox({ sender: closed }));
    const [row] = await rows();
    expect(row?.status).toBe('pending');
    expect(row?.attempts).toBe(1);
    expect(row?.last_error).toMatch(/^network: /);
    t.clock.advance(2_000);
    await drain();
    expect((await rows())[0]?.status).toBe('sent');
  });

  it('a customer who blocked the bot (403) is marked unreachable and not written to again', async () => {
    api.blockedChats.add(ALICE.id);
    await p2pBuyWithRequisites(ALICE);
    await drain();
    const toAlice = async () =>
      (await rows()).filter((r) => r.recipient === `customer:${ALICE.id}`);
    expect((await toAlice()).map((r) => r.status)).toEqual(['unreachable']);
    const user = await t.database.db
      .selectFrom('users')
      .select('bot_blocked_at')
      .where('telegram_id', '=', ALICE.id)
      .executeTakeFirstOrThrow();
    expect(user.bot_blocked_at).toBe(t.clock.now());
    const calls = api.callsOf('sendMessage').length;
    await p2pBuyWithRequisites(ALICE);
    await drain();
    expect((await toAlice()).map((r) => r.status)).toEqual(['unreachable', 'unreachable']);
    // Only the operators' alert of the second order went out.
    expect(api.callsOf('sendMessage').length).toBe(calls + 1);
  });

  it("a chat's messages go in order: one held back by a fault holds back the next to that chat, not other chats", async () => {
    const first = await p2pBuyWithRequisites(ALICE);
    api.script.push((call) =>
      call.payload['chat_id'] === ALICE.id ? FAULTS.serverError() : undefined,
    );
    await drain();
    await perform(t, 'reject', first, ALICE, { reasonCode: 'limits_or_checks' });
    await p2pBuyWithRequisites(BOB);
    await drain();
    expect(
      api.callsOf('sendMessage').filter((c) => c.payload['chat_id'] === ALICE.id),
    ).toHaveLength(1);
    expect(api.callsOf('sendMessage').some((c) => c.payload['chat_id'] === BOB.id)).toBe(true);
    t.clock.advance(2_000);
    await drain();
    const toAlice = api.callsOf('sendMessage').filter((c) => c.payload['chat_id'] === ALICE.id);
    expect(toAlice.map((c) => String(c.payload['text']).split('\n')[0])).toEqual([
      expect.stringContaining('реквизиты готовы'),
      expect.stringContaining('реквизиты готовы'),
      expect.stringContaining('отклонён'),
    ]);
  });

  it('no error kept or logged carries the token', async () => {
    await createOrderViaHttp(t, ALICE, 'officeBuy');
    api.script.push(() => ({
      status: 400,
      body: { ok: false, error_code: 400, description: `Bad Request: bot${FAKE_TOKEN} is odd` },
    }));
    await drain();
    const [row] = await rows();
    expect(row?.status).toBe('failed');
    expect(row?.last_error).not.toContain(FAKE_TOKEN);
  });
});

/** The facts of a made-up order, its deadline by the test's clock. */
function factsOf(orderId: string, overrides: Record<string, unknown> = {}): string {
  return madeUpFacts(orderId, { deadline: t.clock.now() + 600_000, ...overrides });
}

/** `count` alerts of `kind` to the operators' chat, written at once (a sweeper's backlog). */
async function operatorAlerts(kind: 'flag_waiting' | 'new_order', count: number, from = 0) {
  const now = t.clock.now();
  for (let start = 0; start < count; start += 500) {
    await t.database.db
      .insertInto('notifications')
      .values(
        Array.from({ length: Math.min(500, count - start) }, (_, i) => {
          const n = from + start + i;
          const orderId = `${n.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
          return {
            dedupe_key: `${kind}:${n}:operators`,
            recipient: 'operators',
            order_id: orderId,
            kind,
            language: null,
            payload: factsOf(orderId),
            status: 'pending' as const,
            next_attempt_at: now,
            created_at: now,
          };
        }),
      )
      .execute();
  }
}

describe('a message that cannot be rendered', () => {
  it(`is counted as an attempt, set aside as failed after ${MAX_ATTEMPTS} with its error shown in the console, and the chat's next message goes`, async () => {
    const id = await createOrderViaHttp(t, ALICE, 'p2pBuy');
    const now = t.clock.now();
    // Facts naming a network the texts do not know: rendering throws every time.
    await t.database.db
      .insertInto('notifications')
      .values({
        dedupe_key: 'broken:alice',
        recipient: `customer:${ALICE.id}`,
        order_id: id,
        kind: 'payment_reminder',
        language: 'en',
        payload: factsOf(id, { network: 'NO_SUCH_NETWORK' }),
        status: 'pending',
        next_attempt_at: now,
        created_at: now,
      })
      .execute();
    await perform(t, 'giveRequisites', id, ALICE, CARD_REQUISITES);
    const toAlice = () =>
      api.callsOf('sendMessage').filter((c) => c.payload['chat_id'] === ALICE.id);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await drain();
      const broken = (await rows()).find((r) => r.dedupe_key === 'broken:alice');
      expect(broken?.attempts).toBe(attempt);
      if (attempt < MAX_ATTEMPTS) {
        expect(broken?.status).toBe('pending');
        // The requisites wait behind it: a chat's messages go in order.
        expect(toAlice()).toEqual([]);
        t.clock.advance((broken?.next_attempt_at ?? 0) - t.clock.now());
      }
    }
    const broken = (await rows()).find((r) => r.dedupe_key === 'broken:alice');
    expect(broken?.status).toBe('failed');
    expect(broken?.last_error).toMatch(/^TypeError: /);
    // With the broken one set aside, the requisites went.
    await drain();
    expect(toAlice().map((c) => String(c.payload['text']).split('\n')[0])).toEqual([
      expect.stringContaining('реквизиты готовы'),
    ]);
    const failures = await t.database.db
      .selectFrom('notification_failures')
      .selectAll()
      .where('notification_id', '=', broken?.id ?? 0)
      .execute();
    expect(failures).toHaveLength(MAX_ATTEMPTS);
    const res = await send(t, 'GET', OPERATOR_PATHS.order(id), OPERATOR);
    expect(res.statusCode).toBe(200);
    const shown = res.json<OperatorOrderResponse>().messages.find((m) => m.id === broken?.id);
    expect(shown).toMatchObject({ status: 'failed', text: '', attempts: MAX_ATTEMPTS });
    expect(shown?.lastError).toBe(broken?.last_error);
  });
});

describe('delivery is at least once', () => {
  it('the row is marked sending, its attempt counted, while the call is in flight, and sent right after the answer', async () => {
    await createOrderViaHttp(t, ALICE, 'officeBuy');
    api.delay = () => 300;
    try {
      const pass = drain();
      await api.waitFor('sendMessage', 1);
      const [during] = await rows();
      expect(during).toMatchObject({ status: 'sending', attempts: 1 });
      await pass;
    } finally {
      api.delay = () => 0;
    }
    const [after] = await rows();
    expect(after).toMatchObject({ status: 'sent', attempts: 1, claimed_until: null });
  });

  it('a row left sending by a server killed mid-call is sent again once its lease lapses, once, and the failure says it may have arrived', async () => {
    const id = await createOrderViaHttp(t, ALICE, 'officeBuy');
    const now = t.clock.now();
    // What a server killed between Telegram's answer and the row's update leaves behind.
    await t.database.db
      .updateTable('notifications')
      .set({ status: 'sending', attempts: 1, claimed_until: now + 30_000 })
      .where('order_id', '=', id)
      .execute();
    await drain();
    expect(api.callsOf('sendMessage')).toEqual([]);
    t.clock.advance(30_000);
    await drain();
    await drain();
    expect(api.callsOf('sendMessage')).toHaveLength(1);
    const [row] = await rows();
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    const failures = await t.database.db.selectFrom('notification_failures').selectAll().execute();
    expect(failures.map((f) => f.error)).toEqual([
      expect.stringContaining('it may have reached the chat'),
    ]);
    t.clock.advance(120_000);
    await drain();
    expect(api.callsOf('sendMessage')).toHaveLength(1);
  });
});

describe('a flood of operator alerts is summed up', () => {
  it('5 000 orders waiting: the operators’ chat gets the first two and one summary of the rest, with a button to the console’s queue; every row is kept', async () => {
    await operatorAlerts('flag_waiting', 5_000);
    await drain();
    const calls = api.callsOf('sendMessage');
    expect(calls).toHaveLength(3);
    expect(calls.slice(0, 2).map((c) => String(c.payload['text']))).toEqual([
      expect.stringMatching(/^⏰ Заказ №00000000 ждёт оператора больше 10 минут/),
      expect.stringMatching(/^⏰ Заказ №00000001 ждёт оператора больше 10 минут/),
    ]);
    expect(calls[2]?.payload['text']).toBe(
      '⏰ 4\u00a0998 заказов ждут оператора больше 10 минут. Все они в очереди консоли.',
    );
    expect(calls[2]?.payload['reply_markup']).toEqual({
      inline_keyboard: [
        [{ text: 'Открыть очередь', url: `https://t.me/${BOT_INFO.username}?startapp=console` }],
      ],
    });
    const statuses = await t.database.db
      .selectFrom('notifications')
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('status')
      .execute();
    expect(Object.fromEntries(statuses.map((s) => [s.status, Number(s.n)]))).toEqual({
      sent: 3,
      summarised: 4_997,
    });
  });

  it('more of the kind within the minute wait for a place and come as one summary; another kind is not held up', async () => {
    await operatorAlerts('flag_waiting', 10);
    await drain();
    expect(api.callsOf('sendMessage')).toHaveLength(3);
    t.clock.advance(10_000);
    await operatorAlerts('flag_waiting', 1_234, 10);
    await operatorAlerts('new_order', 1, 20_000);
    await drain();
    // The new order's alert went; the flags wait for the kind's place.
    const texts = () => api.callsOf('sendMessage').map((c) => String(c.payload['text']));
    expect(texts()).toHaveLength(4);
    expect(texts()[3]).toMatch(/^🆕 Новый заказ/);
    t.clock.advance(50_001);
    await drain();
    expect(texts()).toHaveLength(5);
    expect(texts()[4]).toBe(
      '⏰ 1\u00a0234 заказа ждут оператора больше 10 минут. Все они в очереди консоли.',
    );
  });

  it('summaries count in the operators’ language, Russian plurals included', () => {
    const options = { botUsername: undefined, supportUrl: t.config.supportUrl };
    const ru = (n: number) => renderSummary('flag_waiting', n, 'ru', options).text;
    expect(ru(1)).toBe('⏰ 1 заказ ждёт оператора больше 10 минут. Все они в очереди консоли.');
    expect(ru(3)).toMatch(/^⏰ 3 заказа ждут /);
    expect(ru(5)).toMatch(/^⏰ 5 заказов ждут /);
    expect(ru(21)).toMatch(/^⏰ 21 заказ ждёт /);
    expect(ru(111)).toMatch(/^⏰ 111 заказов ждут /);
    expect(renderSummary('flag_waiting', 1_234, 'en', options).text).toBe(
      '⏰ 1,234 orders waiting for an operator over 10 minutes. All of them are in the console’s queue.',
    );
    expect(renderSummary('new_order', 1, 'en', options).text).toMatch(/^🆕 1 new order\. /);
  });
});
