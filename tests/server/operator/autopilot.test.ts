/**
 * The demo's autopilot operator: it plays the staff side a few seconds after the
 * customer's last step, through the console's own service functions and audit trail, and leaves
 * alone every order a person took.
 */
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { AUTOPILOT_DELAY_MS, runAutopilot } from '../../../src/server/operator/autopilot';
import { ConfigError, loadConfig } from '../../../src/server/platform/config/config';
import { checkTxHash } from '../../../src/shared/addresses';
import { API_PATHS } from '../../../src/shared/api';
import { AUTOPILOT_OPERATOR_ID } from '../../../src/shared/operator-api';
import { ALICE } from '../../helpers/identity';
import {
  CARD_REQUISITES,
  OPERATOR,
  OPERATOR_PATHS,
  createLifecycleApp,
  createOrderViaHttp,
  eventsOf,
  orderRow,
  perform,
  pngFile,
  receiptBody,
  send,
  txHashFor,
} from '../../helpers/lifecycle';
import type { TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createLifecycleApp({ maxActiveOrders: 100 });
});
afterAll(async () => {
  await t.close();
});

/** Lets the autopilot's delay pass, then runs one pass of it. */
async function later(): Promise<void> {
  t.clock.advance(AUTOPILOT_DELAY_MS);
  await runAutopilot(t.app, t.app.log);
}

const status = async (id: string) => (await orderRow(t.database.db, id)).status;

describe('the autopilot plays the operator', () => {
  it('a P2P buy: card requisites, the payment confirmed once a receipt is uploaded, completed with a TRC20 hash', async () => {
    const id = await createOrderViaHttp(t, ALICE, 'p2pBuy');
    t.clock.advance(AUTOPILOT_DELAY_MS - 1);
    await runAutopilot(t.app, t.app.log);
    expect(await status(id)).toBe('WAITING_REQUISITES');
    await later();
    expect(await status(id)).toBe('REQUISITES_READY');
    const requisites = JSON.parse((await orderRow(t.database.db, id)).requisites ?? '{}') as {
      cardNumber: string;
    };
    expect(requisites.cardNumber).toMatch(/^\d{16}$/);
    await perform(t, 'confirmPayment', id, ALICE);
    await later();
    expect(await status(id)).toBe('PAYMENT_PENDING');
    await perform(t, 'uploadReceipt', id, ALICE, receiptBody(pngFile(), 'image/png', 'r.png'));
    await later();
    expect(await status(id)).toBe('PAYMENT_CONFIRMED');
    await later();
    const done = await orderRow(t.database.db, id);
    expect(done.status).toBe('COMPLETED');
    expect(checkTxHash('TRC20', done.outgoing_tx_hash ?? '')).toBeNull();
    const events = await eventsOf(t.database.db, id);
    expect(events.filter((e) => e.actor === 'operator').map((e) => e.actor_id)).toEqual([
      AUTOPILOT_OPERATOR_ID,
      AUTOPILOT_OPERATOR_ID,
      AUTOPILOT_OPERATOR_ID,
    ]);
  });

  it('a bank buy gets bank requisites; an office buy instructions with a reservation code', async () => {
    const bank = await createOrderViaHttp(t, ALICE, 'bankBuy');
    const office = await createOrderViaHttp(t, ALICE, 'officeBuy');
    await later();
    expect(await status(bank)).toBe('REQUISITES_READY');
    expect(JSON.parse((await orderRow(t.database.db, bank)).requisites ?? '{}')).toMatchObject({
      bik: expect.stringMatching(/^\d{9}$/) as unknown,
      accountNumber: expect.stringMatching(/^\d{20}$/) as unknown,
    });
    const row = await orderRow(t.database.db, office);
    expect(row.status).toBe('OFFICE_READY');
    expect(JSON.parse(row.reservation ?? '{}')).toMatchObject({
      reservationCode: expect.stringMatching(/^\w{4,}$/) as unknown,
    });
  });

  it("a sell: the seller's transaction confirmed once its hash is sent, then paid out", async () => {
    const id = await createOrderViaHttp(t, ALICE, 'sell');
    await later();
    expect(await status(id)).toBe('WAITING_CRYPTO');
    await perform(t, 'submitTxHash', id, ALICE, { txHash: txHashFor('TRC20') });
    await later();
    expect(await status(id)).toBe('TX_CONFIRMED');
    await later();
    expect(await status(id)).toBe('COMPLETED');
  });

  it('leaves alone an order an operator opened in the console, and one an operator acted on', async () => {
    const opened = await createOrderViaHttp(t, ALICE, 'p2pBuy');
    const actedOn = await createOrderViaHttp(t, ALICE, 'p2pBuy');
    expect((await send(t, 'GET', OPERATOR_PATHS.order(opened), OPERATOR)).statusCode).toBe(200);
    await perform(t, 'giveRequisites', actedOn, ALICE, CARD_REQUISITES);
    await perform(t, 'confirmPayment', actedOn, ALICE);
    await perform(t, 'uploadReceipt', actedOn, ALICE, receiptBody(pngFile(), 'image/png', 'r.png'));
    await later();
    await later();
    expect(await status(opened)).toBe('WAITING_REQUISITES');
    expect(await status(actedOn)).toBe('RECEIPT_UPLOADED');
    expect((await orderRow(t.database.db, opened)).taken_by).toBe(OPERATOR.id);
  });
});

describe("the autopilot in the order's chat", () => {
  const write = (id: string, text: string) => send(t, 'POST', API_PATHS.chat(id), ALICE, { text });
  const messagesOf = (id: string) =>
    t.database.db
      .selectFrom('order_messages')
      .select(['author', 'author_id', 'text'])
      .where('order_id', '=', id)
      .orderBy('id')
      .execute();

  it("answers a customer's first message once, a few seconds later, as the exchange, in both languages", async () => {
    const id = await createOrderViaHttp(t, ALICE, 'officeBuy');
    expect((await write(id, 'Здравствуйте, когда будут инструкции?')).statusCode).toBe(201);
    t.clock.advance(AUTOPILOT_DELAY_MS - 1);
    await runAutopilot(t.app, t.app.log);
    expect(await messagesOf(id)).toHaveLength(1);
    await later();
    const [, answer] = await messagesOf(id);
    expect(answer).toMatchObject({ author: 'operator', author_id: AUTOPILOT_OPERATOR_ID });
    expect(answer?.text).toMatch(/^Демо: .*\nDemo: /s);
    // The customer is told by the bot, as of any operator's message.
    const told = await t.database.db
      .selectFrom('notifications')
      .select('kind')
      .where('order_id', '=', id)
      .where('kind', '=', 'operator_message')
      .execute();
    expect(told).toHaveLength(1);
    expect((await write(id, 'Спасибо')).statusCode).toBe(201);
    await later();
    await later();
    expect((await messagesOf(id)).map((m) => m.author)).toEqual([
      'customer',
      'operator',
      'customer',
    ]);
  });

  it('leaves the chat of an order a person took to that person', async () => {
    const id = await createOrderViaHttp(t, ALICE, 'p2pBuy');
    expect((await send(t, 'GET', OPERATOR_PATHS.order(id), OPERATOR)).statusCode).toBe(200);
    expect((await write(id, 'Есть кто?')).statusCode).toBe(201);
    await later();
    expect((await messagesOf(id)).map((m) => m.author)).toEqual(['customer']);
  });
});

describe('DEMO_AUTOPILOT', () => {
  const TOKEN = '123456789:AAEhBP0av28FvkX8Q1jUd2fCNNqE-IAjQGc';
  const REAL = {
    BOT_TOKEN: TOKEN,
    DEPOSIT_ADDRESS_TRC20: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
    DEPOSIT_ADDRESS_EVM: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  };

  it('is on in demo mode unless set to off, and off with a bot token', () => {
    expect(loadConfig({}).demoAutopilot).toBe(true);
    expect(loadConfig({ DEMO_AUTOPILOT: 'off' }).demoAutopilot).toBe(false);
    expect(loadConfig(REAL).demoAutopilot).toBe(false);
  });

  it('refuses to start with a bot token: it would confirm real payments nobody checked', () => {
    expect(() => loadConfig({ ...REAL, DEMO_AUTOPILOT: 'on' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...REAL, DEMO_AUTOPILOT: 'on' })).toThrow(/DEMO_AUTOPILOT=on/);
    expect(() => loadConfig({ DEMO_AUTOPILOT: 'yes' })).toThrow(/must be on or off/);
  });
});
