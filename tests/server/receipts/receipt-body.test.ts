/**
 * A receipt upload's body read as it arrives (src/server/receipts/receipt-body.ts): its top-level
 * fileData decoded chunk by chunk, wherever the chunks are cut, into a file written as the chunks
 * come (receipts.ts, PartialReceiptFile), the rest of the JSON kept as text; and refused for what a
 * data URL in a JSON string can be refused for, leaving no file behind.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RECEIPT_MAX_BYTES } from '../../../src/shared/limits';
import {
  BodyTooLarge,
  readReceiptBody,
  type DataUrlProblem,
  type ReceivedDataUrl,
} from '../../../src/server/receipts/receipt-body';
import { PartialReceiptFile } from '../../../src/server/receipts/receipts';

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'receipt-body-'));
const sink = () => new PartialReceiptFile(DIR);
const LIMITS = { bodyLimit: 20 * 2 ** 20, restLimit: 64 * 1024, sink };

/** The files left in the receipts directory. */
const leftBehind = () => fs.readdirSync(DIR);

/** The bytes of a received file, read back from the disk. */
function bytesOf(received: ReceivedDataUrl | undefined): Buffer {
  return received?.file === undefined ? Buffer.alloc(0) : fs.readFileSync(received.file.path);
}

afterEach(() => {
  for (const name of leftBehind()) fs.rmSync(path.join(DIR, name));
});
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

/** The body in chunks of `size` bytes, as a socket might give it. */
async function* chunked(body: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < body.length; at += size) {
    await Promise.resolve();
    yield body.subarray(at, at + size);
  }
}

async function readBody(body: string | Buffer, size = 65_536, limits = LIMITS) {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return readReceiptBody(chunked(bytes, size), limits);
}

/** A file's bytes: a PNG signature, then `length` more that are not all alike. */
function file(length: number): Buffer {
  const bytes = Buffer.alloc(length + 8);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  for (let i = 8; i < bytes.length; i++) bytes[i] = (i * 31) % 256;
  return bytes;
}

const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

describe('readReceiptBody', () => {
  it.each([1, 2, 3, 5, 7, 64, 1_000, 65_536])(
    'decodes fileData cut into chunks of %i bytes, and keeps the rest of the JSON (a Cyrillic name too)',
    async (size) => {
      const bytes = file(size === 1 ? 300 : 5_000);
      const body = JSON.stringify({
        fileName: 'чек "1".png',
        fileData: dataUrl(bytes),
        fileSize: 5,
      });
      const read = await readBody(body, size);
      expect(read.file?.problem).toBeUndefined();
      expect(Buffer.compare(bytesOf(read.file), bytes)).toBe(0);
      expect(JSON.parse(read.rest)).toEqual({ fileName: 'чек "1".png', fileData: '', fileSize: 5 });
    },
  );

  it('takes bare base64, whitespace written or escaped (\\n, \\r, \\t), and an escaped slash', async () => {
    const bytes = file(600);
    const base64 = bytes.toString('base64');
    const lines = base64.replace(/.{76}/g, '$&\r\n').replaceAll('/', '\\/');
    for (const fileData of [base64, `data:image/png;base64,${lines}`]) {
      const body = `{"fileName":"a.png","fileData":"${fileData.replaceAll('\r\n', '\\r\\n')}"}`;
      for (const size of [1, 3, 100]) {
        const read = await readBody(body, size);
        expect(read.file?.problem).toBeUndefined();
        expect(Buffer.compare(bytesOf(read.file), bytes)).toBe(0);
      }
    }
  });

  it.each<[string, string, DataUrlProblem]>([
    ['a character outside base64', 'data:image/png;base64,iVBO*w0K', 'VALIDATION_FAILED'],
    ['a header that is not a data URL', 'image/png;base64,iVBORw0K', 'VALIDATION_FAILED'],
    ['a data URL that is not base64', 'data:image/png,iVBORw0K', 'VALIDATION_FAILED'],
    ['an impossible length', 'data:image/png;base64,iVBORw0KG', 'VALIDATION_FAILED'],
    ['padding in the middle', 'data:image/png;base64,iVBO=w0K', 'VALIDATION_FAILED'],
    ['three padding characters', 'data:image/png;base64,iVBORw===', 'VALIDATION_FAILED'],
    [
      'an escape other than whitespace or a slash',
      'data:image/png;base64,iVBO\\u0052w0K',
      'VALIDATION_FAILED',
    ],
    ['nothing', '', 'NO_FILE'],
    ['a header and nothing', 'data:image/png;base64,', 'NO_FILE'],
  ])('refuses %s', async (_what, fileData, problem) => {
    for (const size of [1, 4, 1_000]) {
      const read = await readBody(`{"fileName":"a.png","fileData":"${fileData}"}`, size);
      expect(read.file?.problem).toBe(problem);
      expect(leftBehind()).toEqual([]);
    }
  });

  it(`refuses a file of more than ${RECEIPT_MAX_BYTES} bytes, and takes one of exactly that`, async () => {
    const exact = file(RECEIPT_MAX_BYTES - 8);
    const ok = await readBody(JSON.stringify({ fileName: 'a.png', fileData: dataUrl(exact) }));
    expect(ok.file?.problem).toBeUndefined();
    expect(ok.file?.file?.size).toBe(RECEIPT_MAX_BYTES);
    expect(bytesOf(ok.file).length).toBe(RECEIPT_MAX_BYTES);
    await ok.file?.discard();
    const over = file(RECEIPT_MAX_BYTES - 7);
    const refused = await readBody(JSON.stringify({ fileName: 'a.png', fileData: dataUrl(over) }));
    expect(refused.file?.problem).toBe('FILE_TOO_LARGE');
    expect(leftBehind()).toEqual([]);
  });

  it('takes only the top-level fileData: not one nested, not the words inside another string', async () => {
    const bytes = file(100);
    const body = JSON.stringify({
      note: '"fileData":"AAAA"',
      nested: { fileData: 'data:image/png;base64,AAAA' },
      list: [{ fileData: 'x' }],
      fileData: dataUrl(bytes),
    });
    const read = await readBody(body, 7);
    expect(Buffer.compare(bytesOf(read.file), bytes)).toBe(0);
    expect(JSON.parse(read.rest)).toMatchObject({
      note: '"fileData":"AAAA"',
      nested: { fileData: 'data:image/png;base64,AAAA' },
      fileData: '',
    });
  });

  it('leaves a fileData that is not a string in the rest, and refuses two', async () => {
    const number = await readBody('{"fileName":"a.png","fileData":42}');
    expect(number.file).toBeUndefined();
    expect(JSON.parse(number.rest)).toEqual({ fileName: 'a.png', fileData: 42 });
    const twice = await readBody('{"fileData":"data:image/png;base64,AAAA","fileData":"AAAA"}');
    expect(twice.file?.problem).toBe('VALIDATION_FAILED');
    expect(leftBehind()).toEqual([]);
  });

  it('refuses a body over its limit, and a rest over the JSON limit', async () => {
    const limits = { bodyLimit: 1_000, restLimit: 100, sink };
    await expect(readBody(`{"fileData":"${'A'.repeat(2_000)}"}`, 64, limits)).rejects.toThrow(
      BodyTooLarge,
    );
    // What was written of the file before the body went over is gone.
    expect(leftBehind()).toEqual([]);
    await expect(readBody(`{"fileName":"${'a'.repeat(200)}"}`, 64, limits)).rejects.toThrow(
      BodyTooLarge,
    );
  });

  it('writes the file as its chunks arrive, not at the end: an upload holds a chunk, not its file', async () => {
    const bytes = file(1_000_000);
    const body = Buffer.from(JSON.stringify({ fileName: 'a.png', fileData: dataUrl(bytes) }));
    const sizesSeen: number[] = [];
    async function* watched(): AsyncGenerator<Buffer> {
      for (let at = 0; at < body.length; at += 65_536) {
        await Promise.resolve();
        const [name] = leftBehind();
        sizesSeen.push(name === undefined ? 0 : fs.statSync(path.join(DIR, name)).size);
        yield body.subarray(at, at + 65_536);
      }
    }
    const read = await readReceiptBody(watched(), LIMITS);
    expect(Buffer.compare(bytesOf(read.file), bytes)).toBe(0);
    // Halfway through the body, about half of the file is on the disk already.
    const half = sizesSeen[Math.floor(sizesSeen.length / 2)] ?? 0;
    expect(half).toBeGreaterThan(bytes.length * 0.4);
    expect(half).toBeLessThan(bytes.length * 0.6);
    expect(read.file?.file).toMatchObject({ size: bytes.length });
    await read.file?.discard();
    expect(leftBehind()).toEqual([]);
  });

  it('leaves no file behind when the body breaks off (the client went away)', async () => {
    const body = Buffer.from(
      JSON.stringify({ fileName: 'a.png', fileData: dataUrl(file(500_000)) }),
    );
    async function* brokenOff(): AsyncGenerator<Buffer> {
      yield body.subarray(0, 300_000);
      await Promise.resolve();
      throw new Error('aborted');
    }
    await expect(readReceiptBody(brokenOff(), LIMITS)).rejects.toThrow('aborted');
    expect(leftBehind()).toEqual([]);
  });
});
