/**
 * A query compiled once, for the hot paths: each call runs the same compiled statement with its
 * own values, on SQLite and PostgreSQL alike, and a value the builder does not pass on as a
 * parameter is refused at once rather than silently ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '../../../src/server/platform/db/compiled-once';
import { ALICE, BOB } from '../../helpers/identity';
import { insertOrder } from '../../helpers/orders';
import { createTestDatabase, type TestDatabase } from '../../helpers/test-database';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.destroy();
});

const ownOrder = compiledOnce((db, orderId: string, userId: number) =>
  db
    .selectFrom('orders')
    .select(['id', 'user_id', 'status'])
    .where('id', '=', orderId)
    .where('user_id', '=', userId)
    .where('status', '!=', 'REJECTED'),
);

describe('compiledOnce', () => {
  it("runs with each call's own values, and the query's constants kept", async () => {
    const alices = await insertOrder(database.db, ALICE, { status: 'WAITING_REQUISITES' });
    const bobs = await insertOrder(database.db, BOB, { status: 'COMPLETED' });
    const rejected = await insertOrder(database.db, BOB, { status: 'REJECTED' });
    expect(await ownOrder(database.db, alices, ALICE.id)).toEqual([
      { id: alices, user_id: ALICE.id, status: 'WAITING_REQUISITES' },
    ]);
    expect(await ownOrder(database.db, bobs, BOB.id)).toEqual([
      { id: bobs, user_id: BOB.id, status: 'COMPLETED' },
    ]);
    expect(await ownOrder(database.db, bobs, ALICE.id)).toEqual([]);
    expect(await ownOrder(database.db, rejected, BOB.id)).toEqual([]);
  });

  it('refuses a builder that does not pass a value on as a parameter', async () => {
    // The id only decides the query's shape here (which compiledOnce forbids), never a value.
    const ignoring = compiledOnce((db, orderId: string) =>
      db
        .selectFrom('orders')
        .select('id')
        .where('status', '=', 'COMPLETED')
        .$if(orderId === '', (q) => q),
    );
    await expect(ignoring(database.db, 'any')).rejects.toThrow(/value 0 is not a parameter/);
  });
});
