/**
 * A rolling deploy: the new version's migration adds a
 * column while an instance of the old version still serves on the same database. That instance
 * keeps answering every call: on PostgreSQL a prepared statement whose result is every column
 * of a table would fail from then on ("cached plan must not change result type"), so such
 * statements are never prepared (platform/db/database.ts), and the hot ones name their columns.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app';
import { openDatabase, type OpenDatabase } from '../../../src/server/platform/db/database';
import { API_PATHS } from '../../../src/shared/api';
import { ALICE } from '../../helpers/identity';
import {
  BANK_REQUISITES,
  CARD_REQUISITES,
  OFFICE_INSTRUCTIONS,
  OPERATOR,
  OPERATOR_PATHS,
  ORDER_KINDS,
  createLifecycleApp,
  createOrderViaHttp,
  perform,
  pngFile,
  receiptBody,
  send,
  txHashFor,
  type OrderKind,
} from '../../helpers/lifecycle';
import type { TestApp } from '../../helpers/test-app';

/** Every table a migration could widen. */
const TABLES = [
  'users',
  'orders',
  'order_events',
  'receipts',
  'rates',
  'rate_spreads',
  'cities',
  'offices',
  'notifications',
  'notification_failures',
  'call_counts',
  'address_call_counts',
];

let migrating: TestApp;
let serving: TestApp;
let servingDatabase: OpenDatabase;
beforeAll(async () => {
  migrating = await createLifecycleApp();
  // The instance still running the old version: its own pool, as another process has.
  servingDatabase = openDatabase(migrating.database.config);
  const app = await buildApp(migrating.config, {
    db: servingDatabase.db,
    now: migrating.clock.now,
  });
  serving = { ...migrating, app, close: () => app.close() };
});
afterAll(async () => {
  await serving.close();
  await servingDatabase.db.destroy();
  await migrating.close();
});

/** Every call of a customer's and an operator's day on `t`, each expected to succeed. */
async function aDayOfCalls(t: TestApp): Promise<void> {
  const ok = (res: { statusCode: number; body: string }, what: string) =>
    expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(300);
  const steps: Record<OrderKind, (id: string) => readonly [string, () => Promise<unknown>][]> = {
    p2pBuy: (id) => [
      ['requisites', () => perform(t, 'giveRequisites', id, ALICE, CARD_REQUISITES)],
      ['paid', () => perform(t, 'confirmPayment', id, ALICE)],
      ['receipt', () => perform(t, 'uploadReceipt', id, ALICE, receipt())],
      ['confirm', () => perform(t, 'operatorConfirmPayment', id, ALICE)],
      ['complete', () => perform(t, 'complete', id, ALICE, { outgoingTxHash: txHashFor('TRC20') })],
    ],
    bankBuy: (id) => [
      ['requisites', () => perform(t, 'giveRequisites', id, ALICE, BANK_REQUISITES)],
      ['bank requisites', () => send(t, 'GET', API_PATHS.orderRequisites(id), ALICE)],
      ['paid', () => perform(t, 'confirmPayment', id, ALICE)],
      ['receipt', () => perform(t, 'uploadReceipt', id, ALICE, receipt())],
      ['reject', () => perform(t, 'reject', id, ALICE, { reasonCode: 'limits_or_checks' })],
    ],
    officeBuy: (id) => [
      [
        'instructions',
        () =>
          perform(t, 'giveOfficeInstructions', id, ALICE, { instructions: OFFICE_INSTRUCTIONS }),
      ],
      ['received', () => perform(t, 'confirmOfficeReceipt', id, ALICE)],
    ],
    sell: (id) => [
      ['hash', () => perform(t, 'submitTxHash', id, ALICE, { txHash: txHashFor('TRC20') })],
      ['tx confirmed', () => perform(t, 'confirmIncomingTx', id, ALICE)],
      ['complete', () => perform(t, 'complete', id, ALICE)],
    ],
  };
  for (const kind of Object.keys(ORDER_KINDS) as OrderKind[]) {
    const id = await createOrderViaHttp(t, ALICE, kind);
    for (const [what, step] of steps[kind](id)) {
      ok((await step()) as { statusCode: number; body: string }, `${kind} ${what}`);
      ok(await send(t, 'GET', API_PATHS.orderStatus(id), ALICE), `${kind} status after ${what}`);
      ok(await send(t, 'GET', OPERATOR_PATHS.order(id), OPERATOR), `${kind} console after ${what}`);
    }
  }
  const cancelled = await createOrderViaHttp(t, ALICE, 'p2pBuy');
  ok(await perform(t, 'cancel', cancelled, ALICE), 'cancel');
  for (const [what, url, user] of [
    ['history', `${API_PATHS.history}?limit=20&offset=0&status=all`, ALICE],
    ['active', API_PATHS.activeOrders, ALICE],
    ['cities', API_PATHS.cities('USD'), ALICE],
    ['queue', OPERATOR_PATHS.queue, OPERATOR],
    ['search', `${OPERATOR_PATHS.orders}?q=${ALICE.id}`, OPERATOR],
    ['rates', OPERATOR_PATHS.rates, OPERATOR],
  ] as const) {
    ok(await send(t, 'GET', url, user), what);
  }
}

const receipt = () => receiptBody(pngFile(), 'image/png', 'receipt.png');

describe('a migration that adds a column while an instance of the old version serves', () => {
  it('leaves that instance answering every call', async () => {
    await aDayOfCalls(serving);
    for (const table of TABLES) {
      await sql
        .raw(`ALTER TABLE ${table} ADD COLUMN added_by_next_version integer`)
        .execute(migrating.database.db);
    }
    await aDayOfCalls(serving);
  });
});
