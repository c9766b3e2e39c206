/**
 * Appeals (src/shared/appeals.ts, src/server/appeals/): who may open one and when, one per order,
 * an open appeal holding the order against its deadline and against every end but a senior
 * operator's decision, each decision's result, and every step in the audit trail and the outbox.
 * Against the real server (app.inject) on a fresh database; no node is configured, so a buy's
 * payout hash is taken as given (chain-payout.test.ts checks it on a chain).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderNotification } from '../../../src/server/notifications/render';
import type { NotificationFacts } from '../../../src/server/orders/order-facts';
import { AUTOPILOT_DELAY_MS, runAutopilot } from '../../../src/server/operator/autopilot';
import { sweepOnce } from '../../../src/server/orders/sweeper';
import type { NewOrderRow } from '../../../src/server/platform/db/schema';
import { API_PATHS, type AppealView } from '../../../src/shared/api';
import type {
  OperatorAppealResponse,
  OperatorQueueResponse,
} from '../../../src/shared/operator-api';
import type { OrderStatus } from '../../../src/shared/order-status';
import {
  OPERATOR,
  OPERATOR_PATHS,
  createLifecycleApp,
  eventsOf,
  naturalKind,
  orderRow,
  pngFile,
  receiptBody,
  rowOf,
  send,
  statusOf,
  txHashFor,
  type TestUser,
} from '../../helpers/lifecycle';
import { expectError } from '../../helpers/api';
import { insertFlaggedDeposit } from '../../helpers/appeals';
import { insertOrder } from '../../helpers/orders';
import { madeUpFacts } from '../../helpers/outbox-facts';
import type { TestApp } from '../../helpers/test-app';

const SENIOR: TestUser = { id: 200_000_778, first_name: 'Sergey' };
const ALICE: TestUser = { id: 200_000_101, first_name: 'Alice' };
const BOB: TestUser = { id: 200_000_102, first_name: 'Bob' };
const MINUTE = 60_000;

let t: TestApp;

beforeAll(async () => {
  t = await createLifecycleApp({
    operatorIds: [OPERATOR.id, SENIOR.id],
    seniorOperatorIds: [SENIOR.id],
  });
});

afterAll(async () => {
  await t.close();
});

/** Alice's order in `status`, its deadline `deadlineIn` from now (past when negative). */
function orderIn(
  status: OrderStatus,
  deadlineIn: number | null = -MINUTE,
  fields: Partial<NewOrderRow> = {},
): Promise<string> {
  const now = t.clock.now();
  return insertOrder(t.database.db, ALICE, {
    ...rowOf(naturalKind(status)),
    status,
    created_at: now - 40 * MINUTE,
    expires_at: deadlineIn === null ? null : now + deadlineIn,
    ...fields,
  });
}

/** A sell waiting for its deposit, which the chain checker flagged for an operator. */
async function sellWithFlaggedDeposit(deadlineIn = 10 * MINUTE): Promise<string> {
  const hash = txHashFor('TRC20');
  const id = await orderIn('WAITING_CRYPTO', deadlineIn, { tx_hash: hash });
  await insertFlaggedDeposit(t.database.db, { id, network: 'TRC20', hash }, t.clock.now());
  return id;
}

const open = (id: string, body: object = { reason: 'payment_not_confirmed' }, who = ALICE) =>
  send(t, 'POST', API_PATHS.appeal(id), who, body);

const decide = (id: string, body: object, who: TestUser = SENIOR) =>
  send(t, 'POST', OPERATOR_PATHS.appealDecision(id), who, body);

/** The outbox rows of an order, as kind and recipient. */
async function outboxOf(id: string): Promise<{ kind: string; recipient: string }[]> {
  return t.database.db
    .selectFrom('notifications')
    .select(['kind', 'recipient'])
    .where('order_id', '=', id)
    .orderBy('id')
    .execute();
}

describe('who may open an appeal, and when', () => {
  it('a paid order before its deadline is APPEAL_TOO_EARLY; past it the appeal opens and the status answer says "under review"', async () => {
    const id = await orderIn('PAYMENT_PENDING', 5 * MINUTE);
    expectError(await open(id), 'APPEAL_TOO_EARLY');
    t.clock.advance(6 * MINUTE);
    const res = await open(id, { reason: 'payment_not_confirmed', text: 'Оплатила в 12:05' });
    expect(res.statusCode).toBe(201);
    expect(res.json<AppealView>()).toMatchObject({ state: 'open', decision: null });
    expect((await statusOf(t, id, ALICE)).appeal).toMatchObject({
      state: 'open',
      reason: 'payment_not_confirmed',
      decision: null,
      outcome: null,
    });
  });

  it('an order nobody paid for yet takes no appeal: APPEAL_NOT_TAKEN', async () => {
    for (const status of ['REQUISITES_READY', 'WAITING_REQUISITES', 'COMPLETED'] as const) {
      expectError(await open(await orderIn(status)), 'APPEAL_NOT_TAKEN');
    }
  });

  it('a rejected order, and a sell whose deposit the chain left for an operator, take one at once', async () => {
    expect(
      (await open(await orderIn('REJECTED', null), { reason: 'rejected_wrongly' })).statusCode,
    ).toBe(201);
    const sell = await sellWithFlaggedDeposit();
    expect((await open(sell, { reason: 'crypto_not_received' })).statusCode).toBe(201);
    // The same sell without the flag waits for the chain: no appeal.
    expectError(await open(await orderIn('WAITING_CRYPTO', 10 * MINUTE)), 'APPEAL_NOT_TAKEN');
  });

  it("another customer's order is ORDER_NOT_FOUND, as every order call", async () => {
    const res = await open(await orderIn('REJECTED', null), { reason: 'other' }, BOB);
    expectError(res, 'ORDER_NOT_FOUND');
  });

  it("evidence is the order's chat messages with files; a text message or another order's file is VALIDATION_FAILED", async () => {
    const id = await orderIn('REJECTED', null);
    const other = await orderIn('REJECTED', null);
    const withFile = async (orderId: string) =>
      (
        await send(t, 'POST', API_PATHS.chat(orderId), ALICE, {
          text: 'Чек',
          ...receiptBody(pngFile(), 'image/png', 'check.png'),
        })
      ).json<{ id: number }>().id;
    const textOnly = (await send(t, 'POST', API_PATHS.chat(id), ALICE, { text: 'Привет' })).json<{
      id: number;
    }>().id;
    const file = await withFile(id);
    const foreign = await withFile(other);
    for (const evidence of [[textOnly], [foreign]]) {
      expectError(await open(id, { reason: 'other', evidence }), 'VALIDATION_FAILED');
    }
    expect((await open(id, { reason: 'other', evidence: [file] })).statusCode).toBe(201);
    const operatorView = await send(t, 'GET', OPERATOR_PATHS.appeal(id), OPERATOR);
    expect(operatorView.json<OperatorAppealResponse>().appeal?.evidence).toEqual([file]);
  });

  it('an order has one appeal: a second is APPEAL_EXISTS, open or decided', async () => {
    const id = await orderIn('REJECTED', null);
    expect((await open(id, { reason: 'rejected_wrongly' })).statusCode).toBe(201);
    expectError(await open(id, { reason: 'other' }), 'APPEAL_EXISTS');
    await decide(id, { decision: 'uphold', outcome: 'Проверили' });
    expectError(await open(id, { reason: 'other' }), 'APPEAL_EXISTS');
  });
});

describe('an open appeal holds the order', () => {
  it('its deadline no longer cancels it: the sweeper leaves it, and cancels the same order without an appeal', async () => {
    const held = await sellWithFlaggedDeposit(MINUTE);
    const free = await sellWithFlaggedDeposit(MINUTE);
    expect((await open(held, { reason: 'crypto_not_received' })).statusCode).toBe(201);
    t.clock.advance(2 * MINUTE);
    const swept = await sweepOnce(t.database, t.clock.now());
    expect(swept.expired).toContain(free);
    expect(swept.expired).not.toContain(held);
    expect((await orderRow(t.database.db, held)).status).toBe('WAITING_CRYPTO');
  });

  it("an operator's completion or rejection, and the customer's cancel, are APPEAL_HELD, a senior's ordinary call too", async () => {
    const paid = await orderIn('PAYMENT_CONFIRMED', -MINUTE);
    await t.database.db
      .updateTable('orders')
      .set({ status: 'PAYMENT_PENDING' })
      .where('id', '=', paid)
      .execute();
    expect((await open(paid)).statusCode).toBe(201);
    await t.database.db
      .updateTable('orders')
      .set({ status: 'PAYMENT_CONFIRMED' })
      .where('id', '=', paid)
      .execute();
    const hash = { outgoingTxHash: txHashFor('TRC20') };
    for (const who of [OPERATOR, SENIOR]) {
      expectError(await send(t, 'POST', OPERATOR_PATHS.complete(paid), who, hash), 'APPEAL_HELD');
      const reject = { reason: 'Нет оплаты' };
      expectError(await send(t, 'POST', OPERATOR_PATHS.reject(paid), who, reject), 'APPEAL_HELD');
    }
    const sell = await sellWithFlaggedDeposit();
    expect((await open(sell, { reason: 'crypto_not_received' })).statusCode).toBe(201);
    expectError(await send(t, 'POST', API_PATHS.cancel(sell), ALICE, {}), 'APPEAL_HELD');
    expect((await orderRow(t.database.db, paid)).status).toBe('PAYMENT_CONFIRMED');
    expect((await orderRow(t.database.db, sell)).status).toBe('WAITING_CRYPTO');
  });

  it('only a senior operator decides: an operator is 403 SENIOR_ONLY and is told so in the appeal answer', async () => {
    const id = await orderIn('REJECTED', null);
    expect((await open(id, { reason: 'rejected_wrongly' })).statusCode).toBe(201);
    expectError(await decide(id, { decision: 'uphold', outcome: 'Нет' }, OPERATOR), 'SENIOR_ONLY');
    const seen = (who: TestUser) =>
      send(t, 'GET', OPERATOR_PATHS.appeal(id), who).then((r) => r.json<OperatorAppealResponse>());
    expect(await seen(OPERATOR)).toMatchObject({ senior: false, decisions: ['refund', 'uphold'] });
    expect((await seen(SENIOR)).senior).toBe(true);
    expect((await statusOf(t, id, ALICE)).appeal?.state).toBe('open');
  });

  it("the demo's autopilot leaves an order under appeal to the person deciding it, and moves the same order without one", async () => {
    const held = await orderIn('RECEIPT_UPLOADED');
    const free = await orderIn('RECEIPT_UPLOADED');
    expect((await open(held)).statusCode).toBe(201);
    t.clock.advance(AUTOPILOT_DELAY_MS);
    await runAutopilot(t.app, t.app.log);
    expect((await orderRow(t.database.db, held)).status).toBe('RECEIPT_UPLOADED');
    expect((await orderRow(t.database.db, free)).status).toBe('PAYMENT_CONFIRMED');
  });

  it('the queue heads with the open appeals, oldest first, with when each was opened', async () => {
    const older = await orderIn('REJECTED', null);
    expect((await open(older, { reason: 'other' })).statusCode).toBe(201);
    const openedAt = new Date(t.clock.now()).toISOString();
    t.clock.advance(MINUTE);
    const newer = await orderIn('REJECTED', null);
    expect((await open(newer, { reason: 'other' })).statusCode).toBe(201);
    const queue = (
      await send(t, 'GET', OPERATOR_PATHS.queue, OPERATOR)
    ).json<OperatorQueueResponse>();
    const [first] = queue.groups;
    expect(first?.group).toBe('appeals');
    const ids = first?.orders.map((o) => o.id) ?? [];
    expect(ids.indexOf(older)).toBeLessThan(ids.indexOf(newer));
    expect(first?.orders.find((o) => o.id === older)?.appealOpenedAt).toBe(openedAt);
  });
});

describe("a senior operator's decision", () => {
  it("complete: a paid buy's payment is confirmed and the order completes with its payout; the appeal is decided, in the audit trail and told by the bot", async () => {
    const id = await orderIn('PAYMENT_PENDING');
    expect((await open(id)).statusCode).toBe(201);
    const res = await decide(id, {
      decision: 'complete',
      outcome: 'Платёж нашёлся, монеты отправлены',
      outgoingTxHash: txHashFor('TRC20'),
    });
    expect(res.json()).toEqual({ success: true, status: 'COMPLETED' });
    const appeal = (await statusOf(t, id, ALICE)).appeal;
    expect(appeal).toMatchObject({
      state: 'decided',
      decision: 'complete',
      outcome: 'Платёж нашёлся, монеты отправлены',
    });
    const events = await eventsOf(t.database.db, id);
    expect(events.map((e) => [e.to_status, e.actor, e.actor_id])).toEqual([
      ['PAYMENT_PENDING', 'customer', ALICE.id],
      ['PAYMENT_CONFIRMED', 'operator', SENIOR.id],
      ['COMPLETED', 'operator', SENIOR.id],
      ['COMPLETED', 'operator', SENIOR.id],
    ]);
    expect(events[0]?.reason).toBe('appeal opened: payment_not_confirmed');
    expect(events[3]?.reason).toBe('appeal decided: complete: Платёж нашёлся, монеты отправлены');
    expect(await outboxOf(id)).toEqual(
      expect.arrayContaining([
        { kind: 'appeal_opened', recipient: 'operators' },
        { kind: 'completed', recipient: `customer:${ALICE.id}` },
        { kind: 'appeal_decided', recipient: `customer:${ALICE.id}` },
      ]),
    );
    expectError(await decide(id, { decision: 'uphold', outcome: 'x' }), 'APPEAL_NOT_OPEN');
  });

  it("refund of a rejected buy: it stays REJECTED with the refund's details; without them VALIDATION_FAILED; complete is INVALID_STATUS", async () => {
    const id = await orderIn('REJECTED', null);
    expect((await open(id, { reason: 'rejected_wrongly' })).statusCode).toBe(201);
    expectError(await decide(id, { decision: 'refund', outcome: 'Вернём' }), 'VALIDATION_FAILED');
    expectError(
      await decide(id, {
        decision: 'complete',
        outcome: 'Нет',
        outgoingTxHash: txHashFor('TRC20'),
      }),
      'INVALID_STATUS',
    );
    const res = await decide(id, {
      decision: 'refund',
      outcome: 'Деньги возвращены',
      refundDetails: 'Возврат на карту •• 6781, платёж 4417',
    });
    expect(res.json()).toEqual({ success: true, status: 'REJECTED' });
    expect((await statusOf(t, id, ALICE)).appeal).toMatchObject({
      state: 'decided',
      decision: 'refund',
      refundDetails: 'Возврат на карту •• 6781, платёж 4417',
      refundTxHash: null,
    });
    expect((await outboxOf(id)).map((r) => r.kind)).toEqual([
      'appeal_opened',
      'appeal_received',
      'appeal_decided',
    ]);
  });

  it('uphold of an active order ends it REJECTED with the outcome as its reason, told by the decision alone (no ordinary rejection notice)', async () => {
    const id = await sellWithFlaggedDeposit();
    expect((await open(id, { reason: 'wrong_amount' })).statusCode).toBe(201);
    const res = await decide(id, { decision: 'uphold', outcome: 'Перевод не найден в сети' });
    expect(res.json()).toEqual({ success: true, status: 'REJECTED' });
    const row = await orderRow(t.database.db, id);
    expect({ code: row.reject_reason_code, reason: row.reject_reason }).toEqual({
      code: 'other',
      reason: 'Перевод не найден в сети',
    });
    expect((await outboxOf(id)).filter((r) => r.recipient !== 'operators')).toEqual([
      { kind: 'appeal_received', recipient: `customer:${ALICE.id}` },
      { kind: 'appeal_decided', recipient: `customer:${ALICE.id}` },
    ]);
  });

  it("a sell's refund on a network checked by hand (no node) keeps its hash as given; the customer hears the decision, not the ordinary rejection", async () => {
    const id = await sellWithFlaggedDeposit();
    expect((await open(id, { reason: 'wrong_amount' })).statusCode).toBe(201);
    const refundTxHash = txHashFor('TRC20');
    const res = await decide(id, { decision: 'refund', outcome: 'Вернули', refundTxHash });
    expect(res.json()).toEqual({ success: true, status: 'REJECTED' });
    expect((await statusOf(t, id, ALICE)).appeal?.refundTxHash).toBe(refundTxHash);
    const events = await eventsOf(t.database.db, id);
    expect(events.at(-1)?.reason).toBe(
      `appeal decided: refund: refund ${refundTxHash} on TRC20, checked by hand: Вернули`,
    );
    expect((await outboxOf(id)).filter((r) => r.recipient !== 'operators')).toEqual([
      { kind: 'appeal_received', recipient: `customer:${ALICE.id}` },
      { kind: 'appeal_decided', recipient: `customer:${ALICE.id}` },
    ]);
  });
});

describe("the bot's words", () => {
  const facts = JSON.parse(
    madeUpFacts('3f2a9c1e-0000-4000-8000-000000000000', { verificationCode: 'K7P3QX' }),
  ) as NotificationFacts;
  const options = { botUsername: undefined, supportUrl: 'https://t.me/support' };
  /** A message's text in Russian and in English. */
  const inBoth = (
    kind: Parameters<typeof renderNotification>[0],
    more: Partial<NotificationFacts>,
  ) => ({
    ru: renderNotification(kind, { ...facts, ...more }, 'ru', options).text,
    en: renderNotification(kind, { ...facts, ...more }, 'en', options).text,
  });

  it("the customer reads the decision's standard wording in their language, then the senior's text (escaped)", () => {
    const { ru, en } = inBoth('appeal_decided', {
      appealDecision: 'refund',
      appealOutcome: 'Вернули <b>всё</b>',
    });
    expect(ru).toContain('Старший оператор решил вернуть вам деньги');
    expect(ru).toContain('Вернули &lt;b&gt;всё&lt;/b&gt;');
    expect(ru).toContain('K7P3QX');
    expect(en).toContain('A senior operator decided to return your money');
  });

  it('the customer is told their appeal is received, its reason and what happens next, in their language', () => {
    const { ru, en } = inBoth('appeal_received', { appealReason: 'payment_not_confirmed' });
    expect(ru).toContain('апелляция принята');
    expect(ru).toContain('Решение по заказу примет старший оператор');
    expect(en).toContain('your appeal is received. Reason: ');
    expect(en).toContain('A senior operator decides this order.');
    expect(en).toContain('K7P3QX');
  });

  it("the operators' chat reads the appeal's reason and the customer's words", () => {
    const { ru, en } = inBoth('appeal_opened', {
      appealReason: 'wrong_amount',
      appealText: 'Пришло 90',
    });
    expect(ru).toContain('Получена не та сумма');
    expect(ru).toContain('Пришло 90');
    expect(en).toContain('A wrong amount was received');
  });
});
