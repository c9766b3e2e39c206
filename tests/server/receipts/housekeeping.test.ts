/**
 * Housekeeping: a receipt file no row names (an upload that lost its race, a crash between the
 * file and its row, a temporary file a crash left half written) is removed once it is an hour
 * old; a file a receipt names is never removed, and neither is one young enough that its upload
 * may still be writing its row.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ORPHAN_RECEIPT_AGE_MS,
  removeOrphanReceipts,
} from '../../../src/server/receipts/housekeeping';
import { API_PATHS } from '../../../src/shared/api';
import { ALICE } from '../../helpers/identity';
import { createLifecycleApp, pngFile, receiptBody, rowOf, send } from '../../helpers/lifecycle';
import { insertOrder } from '../../helpers/orders';
import type { TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createLifecycleApp();
});
afterAll(async () => {
  await t.close();
});

const dir = () => t.config.receiptsDir;

/** A file in RECEIPTS_DIR last written `ageMs` ago. */
function fileAged(name: string, ageMs: number): void {
  const file = path.join(dir(), name);
  fs.mkdirSync(dir(), { recursive: true });
  fs.writeFileSync(file, 'bytes');
  const at = new Date(Date.now() - ageMs);
  fs.utimesSync(file, at, at);
}

describe('orphan receipt files', () => {
  it('removes unnamed files and half-written ones over an hour old, and nothing else', async () => {
    const id = await insertOrder(t.database.db, ALICE, {
      ...rowOf('p2pBuy'),
      status: 'PAYMENT_PENDING',
    });
    const kept = await send(
      t,
      'POST',
      API_PATHS.receipt(id),
      ALICE,
      receiptBody(pngFile(), 'image/png', 'scan.png'),
    );
    expect(kept.statusCode).toBe(200);
    const [row] = await t.database.db
      .selectFrom('receipts')
      .select('storage_key')
      .where('order_id', '=', id)
      .execute();
    const named = row?.storage_key ?? '';
    const old = ORPHAN_RECEIPT_AGE_MS + 60_000;
    fs.utimesSync(path.join(dir(), named), new Date(Date.now() - old), new Date(Date.now() - old));
    fileAged('orphan-old.png', old);
    fileAged('orphan-young.png', ORPHAN_RECEIPT_AGE_MS - 60_000);
    fileAged('crashed.png.3c2f.part', old);
    fileAged('writing.png.9a1b.part', 1_000);

    const removed = await removeOrphanReceipts(t.database.db, dir(), Date.now());

    expect(removed.sort()).toEqual(['crashed.png.3c2f.part', 'orphan-old.png']);
    expect(fs.readdirSync(dir()).sort()).toEqual(
      [named, 'orphan-young.png', 'writing.png.9a1b.part'].sort(),
    );
  });

  it('does nothing when RECEIPTS_DIR does not exist yet', async () => {
    expect(await removeOrphanReceipts(t.database.db, path.join(dir(), 'none'), Date.now())).toEqual(
      [],
    );
  });
});
