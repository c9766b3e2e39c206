/**
 * "The same receipt on two orders" is flagged in the upload's own commit:
 * a receipt reused on another order is never kept without the flag on both orders. Shown by a
 * fault in the flagging itself (the database refuses to flag the first order: a trigger, as a
 * crash between two commits would leave it): the upload is undone whole and answered as failed,
 * its file removed; once the fault is gone, the same upload is kept and both orders are flagged.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../../src/shared/api';
import { createOrder, newCustomer, post, type TestUser } from '../../helpers/api';
import { BOB } from '../../helpers/identity';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
let receiptsDir: string;
beforeAll(async () => {
  receiptsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'receipts-reuse-'));
  t = await createTestApp({ operatorIds: [BOB.id], receiptsDir });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(receiptsDir, { recursive: true, force: true });
});

/** A P2P buy given card requisites by BOB, and paid by the customer: PAYMENT_PENDING. */
async function paidOrder(user: TestUser): Promise<string> {
  const id = await createOrder(t, user, { total: 10_000 });
  const requisites = await post(
    t,
    `/api/operator/orders/${id}/requisites`,
    { bankName: 'Т-Банк', cardNumber: '2200700123456781', cardHolder: 'Ivan Petrov' },
    BOB,
  );
  expect(requisites.statusCode, requisites.body).toBe(200);
  expect((await post(t, API_PATHS.paymentConfirm(id), {}, user)).statusCode).toBe(200);
  return id;
}

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000dIHDR', 'latin1'),
  randomBytes(2_048),
]);
const uploadPng = (user: TestUser, id: string) =>
  post(
    t,
    API_PATHS.receipt(id),
    {
      fileName: 'receipt.png',
      fileData: `data:image/png;base64,${png.toString('base64')}`,
      fileSize: png.length,
    },
    user,
  );

const orderOf = (id: string) =>
  t.database.db
    .selectFrom('orders')
    .select(['status', 'needs_attention'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const receiptsOf = (id: string) =>
  t.database.db.selectFrom('receipts').select('id').where('order_id', '=', id).execute();

/** The database refuses to flag `id` for operators until the returned function is called. */
async function refuseFlagOf(id: string): Promise<() => Promise<void>> {
  const { db, dialect } = t.database;
  if (dialect === 'sqlite') {
    await sql`create trigger refuse_flag before update of needs_attention on orders
      when old.id = ${sql.lit(id)} and new.needs_attention = 1
      begin select raise(abort, 'the test refuses this flag'); end`.execute(db);
    return async () => {
      await sql`drop trigger refuse_flag`.execute(db);
    };
  }
  await sql`create function refuse_flag() returns trigger language plpgsql as $$
    begin raise exception 'the test refuses this flag'; end $$`.execute(db);
  await sql`create trigger refuse_flag before update on orders for each row
    when (old.id = ${sql.lit(id)} and new.needs_attention = 1)
    execute function refuse_flag()`.execute(db);
  return async () => {
    await sql`drop trigger refuse_flag on orders`.execute(db);
    await sql`drop function refuse_flag()`.execute(db);
  };
}

describe('a receipt reused on another order', () => {
  it('is never kept without the flag on both orders: a fault while flagging undoes the upload', async () => {
    const alice = newCustomer('Alice');
    const carol = newCustomer('Carol');
    const first = await paidOrder(alice);
    const second = await paidOrder(carol);
    expect((await uploadPng(alice, first)).statusCode).toBe(200);
    const filesBefore = fs.readdirSync(receiptsDir).sort();

    const restore = await refuseFlagOf(first);
    try {
      const failed = await uploadPng(carol, second);
      expect(failed.statusCode).toBe(500);
    } finally {
      await restore();
    }
    // Nothing of the upload is kept: no receipt, no status change, no file; and no flag either.
    expect(await receiptsOf(second)).toEqual([]);
    expect(await orderOf(second)).toEqual({ status: 'PAYMENT_PENDING', needs_attention: 0 });
    expect(await orderOf(first)).toEqual({ status: 'RECEIPT_UPLOADED', needs_attention: 0 });
    expect(fs.readdirSync(receiptsDir).sort()).toEqual(filesBefore);

    // The same upload once the fault is gone: kept, and both orders flagged with it.
    expect((await uploadPng(carol, second)).statusCode).toBe(200);
    expect(await receiptsOf(second)).toHaveLength(1);
    expect(await orderOf(second)).toEqual({ status: 'RECEIPT_UPLOADED', needs_attention: 1 });
    expect(await orderOf(first)).toEqual({ status: 'RECEIPT_UPLOADED', needs_attention: 1 });
  });
});
