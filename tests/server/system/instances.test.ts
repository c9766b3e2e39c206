/**
 * Several server instances on one PostgreSQL database, as the server scales out: each request goes
 * to either instance, and what one instance acknowledges the other can never undo or double.
 * - two different transaction hashes sent at once for one sell: one kept and answered 200, the
 *   other 409 TX_HASH_ALREADY_SUBMITTED (never two 200s with one hash dropped);
 * - a receipt racing the operator's confirmation on the other instance: always kept;
 * - the per-customer call limits count across instances;
 * - two sweepers split the due orders between them (FOR UPDATE SKIP LOCKED), each cancelled once.
 * SQLite serves one instance, so this file runs on PostgreSQL only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { openDatabase, type OpenDatabase } from '../../../src/server/platform/db/database';
import { sweepOnce } from '../../../src/server/orders/sweeper';
import { CALL_LIMITS } from '../../../src/server/platform/limits/rate-limit';
import { API_PATHS, type ApiErrorBody, type OrderDetails } from '../../../src/shared/api';
import { ALICE } from '../../helpers/identity';
import {
  OPERATOR,
  OPERATOR_PATHS,
  createLifecycleApp,
  eventsOf,
  orderRow,
  pdfFile,
  pngFile,
  receiptBody,
  rowOf,
  send,
  txHashFor,
} from '../../helpers/lifecycle';
import { insertOrder } from '../../helpers/orders';
import type { TestApp } from '../../helpers/test-app';
import { testDatabaseKind } from '../../helpers/test-database';

const ROUNDS = 10;

describe.runIf(testDatabaseKind() === 'postgres')('two server instances on one database', () => {
  let first: TestApp;
  let second: TestApp;
  let secondDatabase: OpenDatabase;
  beforeAll(async () => {
    first = await createLifecycleApp({ maxActiveOrders: 100, callLimits: CALL_LIMITS });
    secondDatabase = openDatabase(first.database.config);
    const app = await buildApp(first.config, { db: secondDatabase.db, now: first.clock.now });
    second = { ...first, app, close: () => app.close() };
  });
  afterAll(async () => {
    await second.close();
    await secondDatabase.db.destroy();
    await first.close();
  });

  it('two different hashes for one sell, one per instance: one kept and answered 200, the other 409', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const seller = { id: 410_000_000 + round, first_name: 'Seller' };
      const id = await insertOrder(first.database.db, seller, {
        ...rowOf('sell'),
        status: 'WAITING_CRYPTO',
        created_at: first.clock.now(),
      });
      const hashes = [txHashFor('TRC20'), txHashFor('TRC20')];
      const answers = await Promise.all(
        [first, second].map((t, i) =>
          send(t, 'POST', API_PATHS.txHash(id), seller, { txHash: hashes[i] }),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort(), `round ${round}`).toEqual([200, 409]);
      const refused = answers.find((a) => a.statusCode === 409)?.json<ApiErrorBody>();
      expect(refused?.code).toBe('TX_HASH_ALREADY_SUBMITTED');
      const kept = hashes[answers.findIndex((a) => a.statusCode === 200)];
      expect((await orderRow(first.database.db, id)).tx_hash).toBe(kept);
      expect(await eventsOf(first.database.db, id)).toHaveLength(1);
    }
  });

  it("a receipt racing the operator's confirmation on the other instance is always kept", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const customer = { id: 420_000_000 + round, first_name: 'Payer' };
      const id = await insertOrder(first.database.db, customer, {
        ...rowOf('p2pBuy'),
        status: 'RECEIPT_UPLOADED',
        created_at: first.clock.now(),
      });
      const [receipt, confirmed] = await Promise.all([
        send(
          first,
          'POST',
          API_PATHS.receipt(id),
          customer,
          receiptBody(pdfFile(), 'application/pdf', `page-${round}.pdf`),
        ),
        send(second, 'POST', OPERATOR_PATHS.confirmPayment(id), OPERATOR, {}),
      ]);
      expect(confirmed.statusCode).toBe(200);
      expect(receipt.statusCode, receipt.body).toBe(200);
      const details = (
        await send(second, 'GET', API_PATHS.orderStatus(id), customer)
      ).json<OrderDetails>();
      expect(details.receipts.map((r) => r.fileName)).toEqual([`page-${round}.pdf`]);
    }
  });

  it('a receipt and "I have paid" on different instances: both kept, the order moved once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const customer = { id: 430_000_000 + round, first_name: 'Payer' };
      const id = await insertOrder(first.database.db, customer, {
        ...rowOf('p2pBuy'),
        status: 'REQUISITES_READY',
        created_at: first.clock.now(),
      });
      const answers = await Promise.all([
        send(
          first,
          'POST',
          API_PATHS.receipt(id),
          customer,
          receiptBody(pngFile(), 'image/png', 'a.png'),
        ),
        send(second, 'POST', API_PATHS.paymentConfirm(id), customer, {}),
      ]);
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
      expect((await orderRow(first.database.db, id)).status).toBe('RECEIPT_UPLOADED');
    }
  });

  it('the call limits count across instances: the limit of a minute, not twice it', async () => {
    const customer = { id: 440_000_001, first_name: 'Busy', language_code: 'en' };
    const answers = [];
    for (let i = 0; i < CALL_LIMITS.create + 4; i++) {
      answers.push(
        await send(i % 2 === 0 ? first : second, 'POST', API_PATHS.createOrder, customer, {}),
      );
    }
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(limited).toHaveLength(4);
    expect(limited[0]?.json<ApiErrorBody>().code).toBe('RATE_LIMITED');
  });

  it('two sweepers, one per instance, split the due orders: each cancelled once, neither fails', async () => {
    const now = first.clock.now();
    const ids = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        insertOrder(first.database.db, ALICE, {
          ...rowOf('p2pBuy'),
          status: 'REQUISITES_READY',
          created_at: now - 3_600_000 - i,
          expires_at: now - 1,
        }),
      ),
    );
    const [one, two] = await Promise.all([
      sweepOnce(first.database, now),
      sweepOnce(secondDatabase, now),
    ]);
    const expired = [...one.expired, ...two.expired].filter((id) => ids.includes(id));
    expect(new Set(expired).size).toBe(ids.length);
    expect(expired).toHaveLength(ids.length);
    for (const id of ids.slice(0, 20)) {
      expect(await eventsOf(first.database.db, id)).toHaveLength(1);
    }
  });
});
