/**
 * What the order chat leaves in the records: every order written before the chat's migration is
 * given a verification code by it (and a row written without one by the database); a chat's
 * files are evidence that housekeeping never removes; a chat message's order event moves no
 * date the order's status gave (when it was paid, when it ended); and a customer's messages are
 * limited per minute.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paidAtOf } from '../../../src/server/chain/payout-check';
import { demoCustomer } from '../../../src/server/platform/identity/demo-session';
import { migrationProvider } from '../../../src/server/platform/db/migrations';
import { CALL_LIMITS } from '../../../src/server/platform/limits/rate-limit';
import {
  ORPHAN_RECEIPT_AGE_MS,
  removeOrphanReceipts,
} from '../../../src/server/receipts/housekeeping';
import { API_PATHS, type ChatMessage } from '../../../src/shared/api';
import { OPERATOR_PATHS, type OperatorOrderResponse } from '../../../src/shared/operator-api';
import { VERIFICATION_CODE_PATTERN } from '../../../src/shared/verification-code';
import { expectError, get, newCustomer, post } from '../../helpers/api';
import { ALICE, BOB } from '../../helpers/identity';
import { createLifecycleApp, send } from '../../helpers/lifecycle';
import { insertOrder, insertPaidEvent } from '../../helpers/orders';
import { createTestDatabase } from '../../helpers/test-database';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
let receiptsDir: string;
beforeAll(async () => {
  receiptsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-records-'));
  t = await createTestApp({ operatorIds: [BOB.id], receiptsDir });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(receiptsDir, { recursive: true, force: true });
});

const PNG = () =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

describe('the migration of the order chat', () => {
  it('gives every order written before it a verification code of its own', async () => {
    const database = await createTestDatabase();
    try {
      const migrator = new Migrator({
        db: database.db,
        provider: migrationProvider(database.config.kind),
      });
      const back = await migrator.migrateTo('0018_deposit_amounts');
      expect(back.error).toBeUndefined();
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        ids.push(
          await insertOrder(database.db, ALICE, {
            status: 'WAITING_REQUISITES',
            verification_code: undefined,
          }),
        );
      }
      const up = await migrator.migrateToLatest();
      expect(up.error).toBeUndefined();
      const rows = await database.db
        .selectFrom('orders')
        .select(['id', 'verification_code'])
        .where('id', 'in', ids)
        .execute();
      expect(rows).toHaveLength(20);
      for (const row of rows) expect(row.verification_code).toMatch(VERIFICATION_CODE_PATTERN);
      // 32^6 codes: twenty orders sharing one would be a broken generator, not chance.
      expect(new Set(rows.map((row) => row.verification_code)).size).toBeGreaterThan(18);
    } finally {
      await database.destroy();
    }
  });

  it('has the database write a code for an order written without one (an instance of the version before)', async () => {
    const id = await insertOrder(t.database.db, ALICE, {
      status: 'WAITING_REQUISITES',
      verification_code: undefined,
    });
    const row = await t.database.db
      .selectFrom('orders')
      .select('verification_code')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.verification_code).toMatch(VERIFICATION_CODE_PATTERN);
  });
});

describe('housekeeping and the chat', () => {
  it("never removes a chat message's file, however old, and still removes an orphan beside it", async () => {
    const id = await insertOrder(t.database.db, ALICE, { status: 'WAITING_REQUISITES' });
    const res = await post(
      t,
      API_PATHS.chat(id),
      { fileName: 'a.png', fileData: dataUrl(PNG()) },
      ALICE,
    );
    expect(res.statusCode, res.body).toBe(201);
    const { attachment_key: key } = await t.database.db
      .selectFrom('order_messages')
      .select('attachment_key')
      .where('id', '=', res.json<ChatMessage>().id)
      .executeTakeFirstOrThrow();
    const kept = path.join(receiptsDir, key ?? '');
    const orphan = path.join(receiptsDir, 'orphan.png');
    fs.writeFileSync(orphan, 'bytes');
    const old = new Date(Date.now() - ORPHAN_RECEIPT_AGE_MS - 60_000);
    fs.utimesSync(kept, old, old);
    fs.utimesSync(orphan, old, old);
    const removed = await removeOrphanReceipts(t.database.db, receiptsDir, Date.now());
    expect(removed).toEqual(['orphan.png']);
    expect(fs.existsSync(kept)).toBe(true);
  });
});

describe("a chat message's order event", () => {
  it('leaves when a buy was paid as its status says (a payout is judged against it)', async () => {
    const paidAt = t.clock.now() - 60_000;
    const id = await insertOrder(t.database.db, ALICE, { status: 'PAYMENT_CONFIRMED' });
    await insertPaidEvent(t.database.db, id, BOB.id, paidAt);
    const res = await post(t, API_PATHS.chat(id), { text: 'Когда отправите?' }, ALICE);
    expect(res.statusCode, res.body).toBe(201);
    expect(await paidAtOf(t.database.db, id, 'PAYMENT_CONFIRMED')).toBe(paidAt);
  });

  it('leaves when an order ended as its status says', async () => {
    const customer = newCustomer('Carol');
    const id = await insertOrder(t.database.db, customer, { status: 'RECEIPT_UPLOADED' });
    const rejected = await post(t, OPERATOR_PATHS.reject(id), { reason: 'Платёж не найден' }, BOB);
    expect(rejected.statusCode, rejected.body).toBe(200);
    const endedAt = (await get(t, OPERATOR_PATHS.order(id), BOB)).json<OperatorOrderResponse>()
      .endedAt;
    t.clock.advance(60_000);
    expect((await post(t, API_PATHS.chat(id), { text: 'Я оплатил!' }, customer)).statusCode).toBe(
      201,
    );
    const order = (await get(t, OPERATOR_PATHS.order(id), BOB)).json<OperatorOrderResponse>();
    expect(order.endedAt).toBe(endedAt);
    expect(order.events.at(-1)?.messageId).not.toBeNull();
  });
});

describe("a customer's messages per minute", () => {
  it(`takes ${CALL_LIMITS.chat} a minute and refuses the next with 429 RATE_LIMITED, then takes them again`, async () => {
    const limited = await createTestApp({ callLimits: CALL_LIMITS, receiptsDir });
    try {
      const customer = newCustomer('Dave');
      const id = await insertOrder(limited.database.db, customer, { status: 'WAITING_REQUISITES' });
      for (let i = 0; i < CALL_LIMITS.chat; i++) {
        const res = await post(limited, API_PATHS.chat(id), { text: `#${i}` }, customer);
        expect(res.statusCode, res.body).toBe(201);
      }
      const refused = expectError(
        await post(limited, API_PATHS.chat(id), { text: 'one more' }, customer),
        'RATE_LIMITED',
      );
      expect(refused.retryAfter).toBeGreaterThan(0);
      // Another customer has a minute of their own.
      const other = newCustomer('Erin');
      const theirs = await insertOrder(limited.database.db, other, {
        status: 'WAITING_REQUISITES',
      });
      expect((await post(limited, API_PATHS.chat(theirs), { text: 'hi' }, other)).statusCode).toBe(
        201,
      );
      limited.clock.advance(60_000);
      expect(
        (await post(limited, API_PATHS.chat(id), { text: 'later' }, customer)).statusCode,
      ).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

describe("a demo visitor's console and the chat", () => {
  it("writes as an operator on the visitor's own orders, and answers 404 for another visitor's", async () => {
    // Demo mode (no BOT_TOKEN): each visitor's console holds their own orders only.
    const demo = await createLifecycleApp({ botToken: undefined, receiptsDir });
    try {
      const first = demoCustomer('first-browser-0000-aaaa');
      const second = demoCustomer('second-browser-000-bbbb');
      const id = await insertOrder(demo.database.db, first, { status: 'WAITING_REQUISITES' });
      const own = await send(demo, 'POST', OPERATOR_PATHS.chat(id), first, { text: 'Реквизиты' });
      expect(own.statusCode, own.body).toBe(201);
      expect(own.json<ChatMessage>().author).toBe('operator');
      for (const [method, body] of [
        ['GET', undefined],
        ['POST', { text: 'чужой заказ' }],
      ] as const) {
        const res = await send(demo, method, OPERATOR_PATHS.chat(id), second, body);
        expectError(res, 'ORDER_NOT_FOUND');
      }
      const count = await demo.database.db
        .selectFrom('order_messages')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('order_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(Number(count.count)).toBe(1);
    } finally {
      await demo.close();
    }
  });
});
