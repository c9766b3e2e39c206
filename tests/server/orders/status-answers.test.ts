/**
 * What a status poll reads: the versions of the orders polled at the same moment are
 * read in one query (batchedLookup), and an answer kept in memory is given only while its
 * order's version holds, however and wherever the order was changed: by another connection,
 * by a receipt, with the order's rows on SQLite and PostgreSQL alike. On SQLite the versions read
 * are kept while the database's change mark and order_changes say their orders did not change:
 * a poll then reads nothing, or only the list of changes.
 */
import type { CompiledQuery, Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchedLookup } from '../../../src/server/platform/db/batched';
import {
  changeMarkOf,
  openDatabase,
  type OpenDatabase,
} from '../../../src/server/platform/db/database';
import { ORDER_CHANGES_KEPT } from '../../../src/server/platform/db/migrations';
import type { Database } from '../../../src/server/platform/db/schema';
import { StatusAnswers } from '../../../src/server/orders/status/status-answers';
import { ALICE, BOB } from '../../helpers/identity';
import { insertOrder } from '../../helpers/orders';
import {
  createTestDatabase,
  testDatabaseKind,
  type TestDatabase,
} from '../../helpers/test-database';

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
    // restore: the versions are random.
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

  describe.runIf(testDatabaseKind() === 'sqlite')(
    'StatusAnswers on SQLite: versions kept while unchanged',
    () => {
      /** StatusAnswers on the test database, with every statement it runs recorded. */
      const recorded = () => {
        const statements: { sql: string; parameters: readonly unknown[] }[] = [];
        const db = database.db;
        const recording = new Proxy(db, {
          get(target, key) {
            if (key === 'executeQuery') {
              return (query: CompiledQuery) => {
                statements.push({ sql: query.sql, parameters: query.parameters });
                return target.executeQuery(query);
              };
            }
            const value: unknown = Reflect.get(target, key, target);
            return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
          },
        });
        return {
          answers: new StatusAnswers(recording, 'sqlite', changeMarkOf(database.db)),
          statements,
        };
      };
      /** The ids whose versions a recorded statement read (none: it read only order_changes). */
      const versionsRead = (
        statements: readonly { sql: string; parameters: readonly unknown[] }[],
      ) =>
        statements
          .filter((s) => s.sql.includes('json_each'))
          .flatMap((s) => JSON.parse(String(s.parameters[0])) as string[])
          .sort();
      const changeOf = (id: string, by: Kysely<Database>) =>
        by.updateTable('orders').set({ expires_at: Date.now() }).where('id', '=', id).execute();

      it('reads nothing while nothing was written, the list of changes after a write, a changed order again', async () => {
        const { answers, statements } = recorded();
        const a = await insertOrder(database.db, ALICE, { status: 'WAITING_REQUISITES' });
        const b = await insertOrder(database.db, BOB, { status: 'WAITING_REQUISITES' });
        const first = await Promise.all([answers.versionOf(a), answers.versionOf(b)]);
        expect(versionsRead(statements)).toEqual([a, b].sort());

        // Nothing written since: nothing read.
        statements.length = 0;
        expect(await Promise.all([answers.versionOf(a), answers.versionOf(b)])).toEqual(first);
        expect(statements).toEqual([]);

        // Something else written: the list of changes read, no version.
        await database.db
          .updateTable('users')
          .set({ first_name: 'Alice' })
          .where('telegram_id', '=', ALICE.id)
          .execute();
        statements.length = 0;
        expect(await Promise.all([answers.versionOf(a), answers.versionOf(b)])).toEqual(first);
        expect(statements.map((s) => s.sql.includes('order_changes'))).toEqual([true]);

        // Changed by another connection (another process): its version only is read again.
        await changeOf(a, other.db);
        statements.length = 0;
        const [changed, unchanged] = await Promise.all([
          answers.versionOf(a),
          answers.versionOf(b),
        ]);
        expect(versionsRead(statements)).toEqual([a]);
        expect(changed?.version).not.toBe(first[0]?.version);
        expect(unchanged).toEqual(first[1]);

        // Changed on its own connection, as the server changes orders: the same.
        await changeOf(b, database.db);
        statements.length = 0;
        const [, changedB] = await Promise.all([answers.versionOf(a), answers.versionOf(b)]);
        expect(versionsRead(statements)).toEqual([b]);
        expect(changedB?.version).not.toBe(first[1]?.version);
      });

      it('reads the changes made in a transaction still open when it was asked, once it ends', async () => {
        const { answers, statements } = recorded();
        const id = await insertOrder(database.db, ALICE, { status: 'WAITING_REQUISITES' });
        const before = await answers.versionOf(id);
        let during: Promise<{ version: number } | undefined> = Promise.resolve(undefined);
        await database.db.transaction().execute(async (trx) => {
          await changeOf(id, trx);
          statements.length = 0;
          during = answers.versionOf(id);
          await new Promise((resolve) => setImmediate(resolve));
        });
        expect((await during)?.version).not.toBe(before?.version);
        expect(versionsRead(statements)).toEqual([id]);
      });

      it('sees a receipt, an office and a removal as changes of their orders', async () => {
        const { answers } = recorded();
        const id = await insertOrder(database.db, ALICE, { status: 'WAITING_REQUISITES' });
        const before = await answers.versionOf(id);
        await other.db
          .insertInto('receipts')
          .values({
            id: '22222222-2222-4222-8222-222222222222',
            order_id: id,
            file_name: 'r.png',
            mime_type: 'image/png',
            size_bytes: 1,
            sha256: 'b'.repeat(64),
            storage_key: 'k2',
            uploaded_at: 1,
          })
          .execute();
        const afterReceipt = await answers.versionOf(id);
        expect(afterReceipt?.version).not.toBe(before?.version);
        await other.db.deleteFrom('receipts').where('order_id', '=', id).execute();
        await other.db.deleteFrom('order_events').where('order_id', '=', id).execute();
        await other.db.deleteFrom('orders').where('id', '=', id).execute();
        expect(await answers.versionOf(id)).toBeUndefined();
      });

      it(`forgets every version when more than ${ORDER_CHANGES_KEPT} changes went by unread`, async () => {
        const { answers, statements } = recorded();
        const a = await insertOrder(database.db, ALICE, { status: 'WAITING_REQUISITES' });
        const b = await insertOrder(database.db, BOB, { status: 'WAITING_REQUISITES' });
        await Promise.all([answers.versionOf(a), answers.versionOf(b)]);
        // Another order changes often enough for the list to drop changes this reader never read.
        const busy = await insertOrder(database.db, ALICE, { status: 'WAITING_REQUISITES' });
        await other.db.transaction().execute(async (trx) => {
          for (let n = 0; n < ORDER_CHANGES_KEPT + 1_000; n++) await changeOf(busy, trx);
        });
        const kept = await other.db
          .selectFrom('order_changes')
          .select((eb) => [eb.fn.countAll<number>().as('rows'), eb.fn.min('seq').as('first')])
          .executeTakeFirstOrThrow();
        expect(kept.rows).toBeGreaterThanOrEqual(ORDER_CHANGES_KEPT);
        expect(kept.rows).toBeLessThanOrEqual(ORDER_CHANGES_KEPT + 1_000);
        expect(kept.first).toBeGreaterThan(1);

        statements.length = 0;
        await Promise.all([answers.versionOf(a), answers.versionOf(b)]);
        expect(versionsRead(statements)).toEqual([a, b].sort());
      });
    },
  );
});
