/**
 * `POST /api/orders/{id}/receipt`: the server
 * decodes the data URL, measures the real size, reads the type from the bytes whatever the name
 * or header claim, stores the file under RECEIPTS_DIR by its sha256 and receipt id, and flags a
 * file reused on another order. Success is only ever answered for a receipt that is kept.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, type OrderActionResponse } from '../../../src/shared/api';
import { RECEIPT_MAX_BYTES } from '../../../src/shared/limits';
import {
  createOrder,
  eventsOf,
  expectError,
  headersFor,
  newCustomer,
  post,
  statusOf,
  type TestUser,
} from '../../helpers/api';
import { BOB } from '../../helpers/identity';
import { insertOrder } from '../../helpers/orders';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
let receiptsDir: string;
beforeAll(async () => {
  receiptsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'receipts-test-'));
  t = await createTestApp({ operatorIds: [BOB.id], receiptsDir });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(receiptsDir, { recursive: true, force: true });
});

/** Real file headers, each followed by random bytes so every file has its own sha256. */
const unique = (head: Buffer, size = 2_048) =>
  Buffer.concat([head, randomBytes(Math.max(0, size - head.length))]);
const FILES = {
  pdf: () => unique(Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<< /Type /Catalog >>\nendobj\n')),
  png: () =>
    unique(
      Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        Buffer.from('0000000dIHDR', 'latin1'),
      ]),
    ),
  jpeg: () => unique(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46])),
  webp: () => unique(Buffer.from('RIFF\x24\x08\x00\x00WEBPVP8 ', 'latin1')),
  heic: () => unique(Buffer.from('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic', 'latin1')),
  exe: () => unique(Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00', 'latin1')),
  elf: () => unique(Buffer.from('\x7fELF\x02\x01\x01\x00', 'latin1')),
  gif: () => unique(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')),
  svg: () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  text: () => Buffer.from('I have paid, honestly.'),
};

const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const upload = (user: TestUser, id: string, body: Record<string, unknown>) =>
  post(t, API_PATHS.receipt(id), body, user);

const uploadFile = (user: TestUser, id: string, fileName: string, mime: string, bytes: Buffer) =>
  upload(user, id, { fileName, fileData: dataUrl(mime, bytes), fileSize: bytes.length });

/** A P2P buy an operator (BOB) gave card requisites: REQUISITES_READY. */
async function readyOrder(user: TestUser): Promise<string> {
  const id = await createOrder(t, user, { total: 10_000 });
  const res = await post(
    t,
    `/api/operator/orders/${id}/requisites`,
    { bankName: 'Т-Банк', cardNumber: '2200700123456781', cardHolder: 'Ivan Petrov' },
    BOB,
  );
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

/** …and the customer said 'I have paid': PAYMENT_PENDING. */
async function paidOrder(user: TestUser): Promise<string> {
  const id = await readyOrder(user);
  const res = await post(t, API_PATHS.paymentConfirm(id), {}, user);
  expect(res.json()).toEqual({ success: true, status: 'PAYMENT_PENDING' });
  return id;
}

const receiptRows = (orderId: string) =>
  t.database.db
    .selectFrom('receipts')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('uploaded_at')
    .execute();

const needsAttention = async (orderId: string) =>
  (
    await t.database.db
      .selectFrom('orders')
      .select('needs_attention')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
  ).needs_attention;

const filesOnDisk = () => fs.readdirSync(receiptsDir).sort();

describe('POST /api/orders/{id}/receipt: what is accepted', () => {
  it('takes a PDF renamed .jpg and sent as image/jpeg, and stores it as application/pdf', async () => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    const pdf = FILES.pdf();
    const res = await uploadFile(alice, id, 'receipt.jpg', 'image/jpeg', pdf);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<OrderActionResponse>()).toEqual({ success: true, status: 'RECEIPT_UPLOADED' });
    const [row] = await receiptRows(id);
    expect(row).toMatchObject({
      file_name: 'receipt.jpg',
      mime_type: 'application/pdf',
      size_bytes: pdf.length,
      sha256: sha256(pdf),
    });
  });

  it.each([
    ['PNG', 'png', 'image/png'],
    ['JPEG', 'jpeg', 'image/jpeg'],
    ['WebP', 'webp', 'image/webp'],
    ['HEIC (ftyp heic)', 'heic', 'image/heic'],
  ] as const)('takes a %s and records its real type', async (_n, kind, mime) => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    const bytes = FILES[kind]();
    const res = await uploadFile(alice, id, `photo.${kind}`, 'application/octet-stream', bytes);
    expect(res.statusCode, res.body).toBe(200);
    expect((await receiptRows(id)).map((r) => r.mime_type)).toEqual([mime]);
    expect((await statusOf(t, alice, id)).status).toBe('RECEIPT_UPLOADED');
  });

  it('takes bare base64 without the data: header', async () => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    const png = FILES.png();
    const res = await upload(alice, id, { fileName: 'a.png', fileData: png.toString('base64') });
    expect(res.statusCode, res.body).toBe(200);
    expect((await receiptRows(id))[0]?.sha256).toBe(sha256(png));
  });

  it('stores the file under RECEIPTS_DIR named by its sha256 and receipt id, byte for byte', async () => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    const png = FILES.png();
    expect((await uploadFile(alice, id, 'scan.png', 'image/png', png)).statusCode).toBe(200);
    const [row] = await receiptRows(id);
    expect(row?.storage_key).toBe(`${sha256(png)}.${row?.id}.png`);
    const stored = path.join(receiptsDir, row?.storage_key ?? '');
    expect(fs.readFileSync(stored).equals(png)).toBe(true);
  });

  it('takes a receipt straight from REQUISITES_READY (the P2P screen goes on even if "I have paid" failed)', async () => {
    const alice = newCustomer('Alice');
    const id = await readyOrder(alice);
    const res = await uploadFile(alice, id, 'r.jpg', 'image/jpeg', FILES.jpeg());
    expect(res.json()).toEqual({ success: true, status: 'RECEIPT_UPLOADED' });
  });

  it('takes exactly 10 MB (the limit is inclusive)', async () => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    const big = FILES.png();
    const exact = Buffer.concat([big, Buffer.alloc(RECEIPT_MAX_BYTES - big.length)]);
    expect(exact.length).toBe(10 * 1024 * 1024);
    const res = await uploadFile(alice, id, 'big.png', 'image/png', exact);
    expect(res.statusCode, res.body).toBe(200);
    expect((await receiptRows(id))[0]?.size_bytes).toBe(RECEIPT_MAX_BYTES);
  });

  it('keeps only the base name of a file name with a path in it', async () => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    const png = FILES.png();
    const res = await uploadFile(alice, id, '../../etc/passwd.png', 'image/png', png);
    expect(res.statusCode).toBe(200);
    const [row] = await receiptRows(id);
    expect(row?.file_name).toBe('passwd.png');
    expect(fs.existsSync(path.join(receiptsDir, row?.storage_key ?? ''))).toBe(true);
    expect(fs.existsSync(path.join(receiptsDir, '..', '..', 'etc', 'passwd.png'))).toBe(false);
  });

  it('lists receipts in the status answer with id, fileName and uploadedAt, in upload order', async () => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    const firstAt = t.clock.current;
    await uploadFile(alice, id, 'page-1.jpg', 'image/jpeg', FILES.jpeg());
    t.clock.advance(60_000);
    await uploadFile(alice, id, 'page-2.pdf', 'application/pdf', FILES.pdf());
    const rows = await receiptRows(id);
    const { receipts } = await statusOf(t, alice, id);
    expect(receipts).toEqual([
      { id: rows[0]?.id, fileName: 'page-1.jpg', uploadedAt: new Date(firstAt).toISOString() },
      {
        id: rows[1]?.id,
        fileName: 'page-2.pdf',
        uploadedAt: new Date(firstAt + 60_000).toISOString(),
      },
    ]);
    expect(receipts[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('POST /api/orders/{id}/receipt: a second receipt and a reused one', () => {
  it('keeps a second receipt on an order already RECEIPT_UPLOADED without a status change', async () => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    expect((await uploadFile(alice, id, '1.png', 'image/png', FILES.png())).statusCode).toBe(200);
    const second = await uploadFile(alice, id, '2.png', 'image/png', FILES.png());
    expect(second.json()).toEqual({ success: true, status: 'RECEIPT_UPLOADED' });
    expect((await receiptRows(id)).map((r) => r.file_name)).toEqual(['1.png', '2.png']);
    expect((await eventsOf(t, id)).map((e) => e.to_status)).toEqual([
      'WAITING_REQUISITES',
      'REQUISITES_READY',
      'PAYMENT_PENDING',
      'RECEIPT_UPLOADED',
    ]);
  });

  it('keeps a receipt sent after the operator confirmed the payment, for operators to see', async () => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    expect((await uploadFile(alice, id, '1.png', 'image/png', FILES.png())).statusCode).toBe(200);
    const confirmed = await post(t, `/api/operator/orders/${id}/confirm-payment`, {}, BOB);
    expect(confirmed.json()).toMatchObject({ status: 'PAYMENT_CONFIRMED' });
    // Later, as a late receipt is: receipts are listed in the order they came.
    t.clock.advance(60_000);
    const late = await uploadFile(alice, id, 'late.pdf', 'application/pdf', FILES.pdf());
    expect(late.json()).toEqual({ success: true, status: 'PAYMENT_CONFIRMED' });
    const rows = await receiptRows(id);
    expect(rows.map((r) => r.file_name)).toEqual(['1.png', 'late.pdf']);
    const view = await t.app.inject({
      method: 'GET',
      url: `/api/operator/orders/${id}`,
      headers: headersFor(BOB),
    });
    expect(
      view.json<{ receipts: { fileName: string }[] }>().receipts.map((r) => r.fileName),
    ).toEqual(['1.png', 'late.pdf']);
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/operator/orders/${id}/receipts/${rows[1]?.id}`,
      headers: headersFor(BOB),
    });
    expect(download.statusCode).toBe(200);
    expect(sha256(download.rawPayload)).toBe(rows[1]?.sha256);
  });

  it('keeps the same file sent twice to one order (a double tap) once, and answers both', async () => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    const png = FILES.png();
    const answers = await Promise.all([
      uploadFile(alice, id, 'scan.png', 'image/png', png),
      uploadFile(alice, id, 'scan.png', 'image/png', png),
    ]);
    expect(answers.map((a) => a.json<OrderActionResponse>())).toEqual([
      { success: true, status: 'RECEIPT_UPLOADED' },
      { success: true, status: 'RECEIPT_UPLOADED' },
    ]);
    const rows = await receiptRows(id);
    expect(rows).toHaveLength(1);
    // Only the kept receipt's file is on disk: the twin's own file was removed.
    expect(filesOnDisk().filter((f) => f.startsWith(sha256(png)))).toEqual([rows[0]?.storage_key]);
  });

  it('stores the same file uploaded at the same moment to many orders, each with its own file', async () => {
    // Rounds: each upload flags every order holding the file; two flagging the same orders at
    // once must wait for each other, never deadlock (PostgreSQL answered one of them 500).
    for (let round = 0; round < 10; round++) {
      await sameFileAtOnce(5);
    }
  });

  async function sameFileAtOnce(orders: number): Promise<void> {
    const alice = newCustomer('Alice');
    const ids = await Promise.all(Array.from({ length: orders }, () => paidOrder(alice)));
    const same = FILES.jpeg();
    const answers = await Promise.all(
      ids.flatMap((id) => [
        uploadFile(alice, id, 'same.jpg', 'image/jpeg', same),
        uploadFile(alice, id, 'same.jpg', 'image/jpeg', same),
      ]),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    for (const id of ids) {
      const rows = await receiptRows(id);
      expect(rows).toHaveLength(1);
      expect(fs.readFileSync(path.join(receiptsDir, rows[0]?.storage_key ?? '')).equals(same)).toBe(
        true,
      );
      expect(await needsAttention(id)).toBe(1);
    }
    expect(filesOnDisk().filter((f) => f.endsWith('.part'))).toEqual([]);
  }

  it('keeps every receipt racing the operator confirming the payment, whichever wins', async () => {
    for (let round = 0; round < 8; round++) {
      const alice = newCustomer('Alice');
      const id = await paidOrder(alice);
      expect((await uploadFile(alice, id, '1.png', 'image/png', FILES.png())).statusCode).toBe(200);
      const [late, confirmed] = await Promise.all([
        uploadFile(alice, id, `2-${round}.pdf`, 'application/pdf', FILES.pdf()),
        post(t, `/api/operator/orders/${id}/confirm-payment`, {}, BOB),
      ]);
      expect(confirmed.statusCode).toBe(200);
      expect(late.statusCode, late.body).toBe(200);
      // Both at the same moment of the test clock: compared as a set.
      expect((await receiptRows(id)).map((r) => r.file_name).sort()).toEqual([
        '1.png',
        `2-${round}.pdf`,
      ]);
    }
  });

  it('flags both orders for operators when the same file is uploaded on two orders', async () => {
    const alice = newCustomer('Alice');
    const carol = newCustomer('Carol');
    const first = await paidOrder(alice);
    const second = await paidOrder(carol);
    const same = FILES.jpeg();
    expect((await uploadFile(alice, first, 'a.jpg', 'image/jpeg', same)).statusCode).toBe(200);
    expect(await needsAttention(first)).toBe(0);
    expect((await uploadFile(carol, second, 'b.jpg', 'image/jpeg', same)).statusCode).toBe(200);
    expect(await needsAttention(first)).toBe(1);
    expect(await needsAttention(second)).toBe(1);
  });

  it('flags both when the reused file comes as a second receipt of an order', async () => {
    const alice = newCustomer('Alice');
    const first = await paidOrder(alice);
    const second = await paidOrder(alice);
    const same = FILES.pdf();
    await uploadFile(alice, first, 'a.pdf', 'application/pdf', same);
    await uploadFile(alice, second, 'own.png', 'image/png', FILES.png());
    expect(await needsAttention(second)).toBe(0);
    const res = await uploadFile(alice, second, 'again.pdf', 'application/pdf', same);
    expect(res.statusCode).toBe(200);
    expect([await needsAttention(first), await needsAttention(second)]).toEqual([1, 1]);
  });

  it('does not flag orders whose receipts differ', async () => {
    const alice = newCustomer('Alice');
    const first = await paidOrder(alice);
    const second = await paidOrder(alice);
    await uploadFile(alice, first, 'a.png', 'image/png', FILES.png());
    await uploadFile(alice, second, 'b.png', 'image/png', FILES.png());
    expect([await needsAttention(first), await needsAttention(second)]).toEqual([0, 0]);
  });
});

describe('POST /api/orders/{id}/receipt: what is refused', () => {
  /** Refusals must leave the order, the receipts table and the directory as they were. */
  async function expectRefused(user: TestUser, id: string, body: Record<string, unknown>) {
    const before = filesOnDisk();
    const res = await upload(user, id, body);
    expect(await receiptRows(id)).toEqual([]);
    expect((await statusOf(t, user, id)).status).toBe('PAYMENT_PENDING');
    expect(filesOnDisk()).toEqual(before);
    return res;
  }

  it.each([
    ['a Windows executable (MZ) renamed .png', 'exe'],
    ['a Linux executable (ELF) renamed .png', 'elf'],
    ['an SVG with a script', 'svg'],
    ['a GIF (an image the picker does not offer either)', 'gif'],
    ['plain text', 'text'],
  ] as const)('refuses %s with 400 FILE_TYPE', async (_n, kind) => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    const bytes = FILES[kind]();
    const res = await expectRefused(alice, id, {
      fileName: 'receipt.png',
      fileData: dataUrl('image/png', bytes),
      fileSize: bytes.length,
    });
    expectError(res, 'FILE_TYPE');
  });

  it('refuses 10 MB + 1 byte with 413 FILE_TOO_LARGE, whatever fileSize claims', async () => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    const png = FILES.png();
    const tooBig = Buffer.concat([png, Buffer.alloc(RECEIPT_MAX_BYTES + 1 - png.length)]);
    const res = await expectRefused(alice, id, {
      fileName: 'big.png',
      fileData: dataUrl('image/png', tooBig),
      fileSize: 1_000,
    });
    expectError(res, 'FILE_TOO_LARGE');
  });

  it('refuses 10 MB and a byte with 413 FILE_TOO_LARGE', async () => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    const res = await expectRefused(alice, id, {
      fileName: 'huge.pdf',
      fileData: dataUrl('application/pdf', Buffer.alloc(RECEIPT_MAX_BYTES + 1, 0x25)),
    });
    expectError(res, 'FILE_TOO_LARGE');
  });

  it('refuses 12 MB (16 MB as base64, over the body limit) with 413 PAYLOAD_TOO_LARGE', async () => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    const res = await expectRefused(alice, id, {
      fileName: 'huge.pdf',
      fileData: dataUrl('application/pdf', Buffer.alloc(12 * 1024 * 1024, 0x25)),
    });
    expectError(res, 'PAYLOAD_TOO_LARGE');
  });

  it.each([
    ['an empty data URL', 'data:image/png;base64,'],
    ['an empty string', ''],
    ['only whitespace', '   '],
  ])('refuses %s with 400 NO_FILE', async (_n, fileData) => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    expectError(await expectRefused(alice, id, { fileName: 'x.png', fileData }), 'NO_FILE');
  });

  it.each([
    ['characters outside base64', 'data:image/png;base64,@@@@####'],
    ['base64 of impossible length', 'data:image/png;base64,QUJDR'],
    ['a data URL that is not base64', 'data:image/png,rawbytes'],
    ['a header that is not a data URL', 'javascript:alert(1);base64,QUJD'],
  ])('refuses %s with 400 VALIDATION_FAILED', async (_n, fileData) => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    expectError(
      await expectRefused(alice, id, { fileName: 'x.png', fileData }),
      'VALIDATION_FAILED',
    );
  });

  it.each([
    ['no fileData', { fileName: 'x.png' }],
    ['fileData as a number', { fileName: 'x.png', fileData: 42 }],
    ['fileData as null', { fileName: 'x.png', fileData: null }],
    ['no fileName', { fileData: 'data:image/png;base64,iVBORw0KGgo=' }],
    ['a negative fileSize', { fileName: 'x.png', fileData: 'iVBORw0KGgo=', fileSize: -1 }],
    ['fileSize as a string', { fileName: 'x.png', fileData: 'iVBORw0KGgo=', fileSize: '10' }],
  ])('refuses a body with %s with 400 VALIDATION_FAILED', async (_n, body) => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    expectError(await expectRefused(alice, id, body), 'VALIDATION_FAILED');
  });

  it("answers another customer's order with 404 ORDER_NOT_FOUND and stores nothing", async () => {
    const alice = newCustomer('Alice');
    const mallory = newCustomer('Mallory');
    const id = await paidOrder(alice);
    const before = filesOnDisk();
    const res = await uploadFile(mallory, id, 'x.png', 'image/png', FILES.png());
    expectError(res, 'ORDER_NOT_FOUND');
    expect(await receiptRows(id)).toEqual([]);
    expect(filesOnDisk()).toEqual(before);
  });

  it('refuses an upload without init data with 401 AUTH_MISSING', async () => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    const png = FILES.png();
    const res = await post(t, API_PATHS.receipt(id), {
      fileName: 'x.png',
      fileData: dataUrl('image/png', png),
    });
    expectError(res, 'AUTH_MISSING');
  });

  it('refuses a receipt before requisites (WAITING_REQUISITES) with 409 and leaves no file behind', async () => {
    const alice = newCustomer('Alice');
    const id = await createOrder(t, alice, { total: 10_000 });
    const before = filesOnDisk();
    const res = await uploadFile(alice, id, 'x.png', 'image/png', FILES.png());
    expect(expectError(res, 'INVALID_STATUS').status).toBe('WAITING_REQUISITES');
    expect(await receiptRows(id)).toEqual([]);
    expect(filesOnDisk()).toEqual(before);
  });

  it.each(['COMPLETED', 'CANCELLED', 'REJECTED'] as const)(
    'refuses a receipt on a %s order with 409 INVALID_STATUS, storing nothing (never 200 for a receipt not kept)',
    async (status) => {
      const alice = newCustomer('Alice');
      const id = await insertOrder(t.database.db, alice, { status });
      const before = filesOnDisk();
      const res = await uploadFile(alice, id, 'late.png', 'image/png', FILES.png());
      expect(expectError(res, 'INVALID_STATUS').status).toBe(status);
      expect(await receiptRows(id)).toEqual([]);
      expect(filesOnDisk()).toEqual(before);
    },
  );

  it('checks the order before the file, whose body is not read: an executable on a COMPLETED order is INVALID_STATUS', async () => {
    const alice = newCustomer('Alice');
    const id = await insertOrder(t.database.db, alice, { status: 'COMPLETED' });
    const res = await uploadFile(alice, id, 'x.png', 'image/png', FILES.exe());
    expect(expectError(res, 'INVALID_STATUS').status).toBe('COMPLETED');
  });

  it('refuses a receipt on a sell (the customer sends crypto, not a receipt) with 409', async () => {
    const alice = newCustomer('Alice');
    const id = await createOrder(t, alice, { type: 'SELL', total: 10_000 });
    const res = await uploadFile(alice, id, 'x.png', 'image/png', FILES.png());
    expect(expectError(res, 'INVALID_STATUS').status).toBe('WAITING_CRYPTO');
  });

  it('refuses a receipt on an office buy (cash is paid at the office) with 409', async () => {
    const alice = newCustomer('Alice');
    const id = await createOrder(
      t,
      alice,
      { paymentMethod: 'OFFICE', currency: 'EUR', total: 6_000 },
      { cityId: 'belgrade' },
    );
    const res = await uploadFile(alice, id, 'x.png', 'image/png', FILES.png());
    expectError(res, 'INVALID_STATUS');
  });

  it('never answers 500 to junk receipt bodies', async () => {
    const alice = newCustomer('Alice');
    const id = await paidOrder(alice);
    const bodies: unknown[] = [
      {},
      [],
      null,
      'string',
      { fileName: { a: 1 }, fileData: [] },
      { fileName: 'x'.repeat(10_000), fileData: 'iVBORw0KGgo=' },
      { fileName: '\u0000\u202e.png', fileData: dataUrl('image/png', FILES.png()) },
      { fileName: 'x.png', fileData: 'data:;base64,' + 'A'.repeat(4_001) },
      { fileName: 'x.png', fileData: 'data:image/png;base64,' + '='.repeat(8) },
      { fileName: 'x.png', fileData: ',' },
      { fileName: 'x.png', fileData: 'data:image/png;base64,AAAA', fileSize: 1e308 },
    ];
    for (const body of bodies) {
      const res = await t.app.inject({
        method: 'POST',
        url: API_PATHS.receipt(id),
        headers: { ...headersFor(alice), 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(res.statusCode, `${res.body} for ${JSON.stringify(body).slice(0, 80)}`).toBeLessThan(
        500,
      );
    }
  });
});
