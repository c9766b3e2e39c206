/**
 * What a status poll reads (issue 14): the versions of the orders polled at the same moment are
 * read in one query (batchedLookup), and an answer kept in memory is given only while its
 * order's version holds, however and wherever the order was changed: by another connection,
 * by a receipt, with the order's rows on SQLite and PostgreSQL alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchedLookup } from '../../src/server/db/batched';
import { openDatabase, type OpenDatabase } from '../../src/server/db/database';
import { StatusAnswers } from '../../src/server/orders/status-answers';
import { ALICE, BOB } from '../helpers/identity';
import { insertOrder } from '../helpers/orders';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

describe('batchedLookup', () => {
  /** A lookup of doubled numbers that records each read's keys. */
  const doubling = () => {
    const reads: number[][] = [];
    const lookup = batchedLookup(async (keys: readonly number[]) => {
      reads.push([...keys]);
      await Promise.resolve();
      return new Map(keys.filter((k) => k >= 0).map((k) => [k, k * 2]));
    });
    return { reads, lookup };
  };

  it('reads every key asked for in the same turn in one read, a key asked twice once', async () => {
    const { reads, lookup } = doubling();
    const answers = await Promise.all([lookup(1), lookup(2), lookup(1), lookup(-1)]);
    expect(answers).toEqual([2, 4, 2, undefined]);
    expect(reads).toEqual([[1, 2, -1]]);
  });

  it('reads keys asked for in later turns apart, each after it was asked for', async () => {
    const { reads, lookup } = doubling();
    expect(await lookup(1)).toBe(2);
    expect(await lookup(3)).toBe(6);
    expect(reads).toEqual([[1], [3]]);
  });

  it("rejects every lookup of a failed read, and the next turn's read starts afresh", async () => {
    let fail = true;
    const lookup = batchedLookup((keys: readonly string[]) =>
      fail ? Promise.reject(new Error('down')) : Promise.resolve(new Map(keys.map((k) => [k, k]))),
    );
    const results = await Promise.allSettled([lookup('a'), lookup('b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await lookup('a')).toBe('a');
  });
});

describe('StatusAnswers', () => {
  let database: TestDatabase;
  let other: OpenDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    // Another connection to the same database: another process, another server instance.
    other = openDatabase(database.config);
  });
  afterAll(async () => {
    await other.db.destroy();
    await database.destroy();
  });

  const answersOf = () => new StatusAnswers(database.db, database.config.kind);

  it("reads each order's owner and version, a missing order as nothing", async () => {
    const answers = answersOf();
    const alices = await insertOrder(database.db, ALICE, { status: 'WAITING_REQUISITES' });
    const bobs = await insertOrder(database.db, BOB, { status: 'WAITING_REQUISITES' });
    const [a, b, none] = await Promise.all([
      answers.versionOf(alices),
      answers.versionOf(bobs),
      answers.versionOf('00000000-0000-4000-8000-000000000000'),
    ]);
    expect(a).toEqual({ id: alices, user_id: ALICE.id, version: 0 });
    expect(b).toEqual({ id: bobs, user_id: BOB.id, version: 0 });
    expect(none).toBeUndefined();
  });

  it('moves the version on at every change, made by any connection, and at every receipt', async () => {
    const answers = answersOf();
    const id = await insertOrder(database.db, ALICE, { status: 'WAITING_REQUISITES' });
    const versions = [(await answers.versionOf(id))?.version];
    await other.db.updateTable('orders').set({ expires_at: 1 }).where('id', '=', id).execute();
    versions.push((await answers.versionOf(id))?.version);
    await other.db
      .insertInto('receipts')
      .values({
        id: '11111111-1111-4111-8111-111111111111',
        order_id: id,
        file_name: 'r.png',
        mime_type: 'image/png',
        size_bytes: 1,
        sha256: 'a'.repeat(64),
        storage_key: 'k',
        uploaded_at: 1,
      })
      .execute();
    versions.push((await answers.versionOf(id))?.version);
    // Written, even to the value it had: still a change.
    await database.db.updateTable('orders').set({ expires_at: 1 }).where('id', '=', id).execute();
    versions.push((await answers.versionOf(id))?.version);
    expect(versions[0]).toBe(0);
    expect(new Set(versions).size).toBe(4);
  });

  it('never moves a version back to one it had: a restored row and its next change stay apart', async () => {
    // A count would give the restored order's next change the version it had before the
    // restore (issue 21, item 12): the versions are random.
    const answers = answersOf();
    const id = await insertOrder(database.db, ALICE, { status: 'WAITING_REQUISITES' });
    const seen = new Set<number | undefined>();
    for (let change = 0; change < 50; change++) {
      await other.db
        .updateTable('orders')
        .set({ expires_at: change })
        .where('id', '=', id)
        .execute();
      seen.add((await answers.versionOf(id))?.version);
    }
    expect(seen.size).toBe(50);
  });

  it('moves on the orders reserved at an office whose customer-visible words change, and only then', async () => {
    const answers = answersOf();
    const office = await database.db
      .selectFrom('offices')
      .select(['id', 'city_id', 'phone'])
      .limit(1)
      .executeTakeFirstOrThrow();
    const id = await insertOrder(database.db, ALICE, {
      status: 'OFFICE_READY',
      payment_method: 'OFFICE',
      office_id: office.id,
    });
    const versionNow = async () => (await answers.versionOf(id))?.version;
    const before = await versionNow();
    // Written as the seed writes at every start: the same words are no change.
    await other.db
      .updateTable('offices')
      .set({ phone: office.phone })
      .where('id', '=', office.id)
      .execute();
    expect(await versionNow()).toBe(before);
    await other.db
      .updateTable('offices')
      .set({ phone: '+7 495 000-00-00' })
      .where('id', '=', office.id)
      .execute();
    const afterOffice = await versionNow();
    expect(afterOffice).not.toBe(before);
    await other.db
      .updateTable('cities')
      .set({ name_en: 'Renamed' })
      .where('id', '=', office.city_id)
      .execute();
    expect(await versionNow()).not.toBe(afterOffice);
  });

  it('gives a kept answer only for the version it was built of', () => {
    const answers = answersOf();
    const first = answers.keep('o', 1, '{"a":1}');
    expect(answers.get('o', 1)).toEqual(first);
    expect(answers.get('o', 2)).toBeUndefined();
    const second = answers.keep('o', 2, '{"a":2}');
    expect(answers.get('o', 1)).toBeUndefined();
    expect(answers.size).toBe(1);
    // The ETag is the answer's digest: another answer, another ETag; the same, the same.
    expect(second.etag).not.toBe(first.etag);
    expect(answers.keep('p', 7, '{"a":1}').etag).toBe(first.etag);
  });
});
