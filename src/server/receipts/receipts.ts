/**
 * Payment receipts: the base64 data URL, decoded as it arrived
 * (receipt-body.ts), is checked: its real size
 * measured (10 MB at most), its type read from the bytes (JPEG, PNG, WebP, HEIC, PDF) whatever
 * its name or data-URL header claim, and the file stored under RECEIPTS_DIR named by its sha256
 * and its receipt id.
 */
import { createHash, randomUUID, type Hash } from 'node:crypto';
import { createReadStream, existsSync, type ReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { RECEIPT_MAX_BYTES } from '../../shared/limits';
import { detectReceiptType, type ReceiptType } from '../../shared/receipts';
import { withoutControlCharacters } from '../../shared/schemas/text';
import type { ServerContext } from '../platform/context';
import { AppError } from '../platform/errors';
import type { ReceiptSink, ReceivedDataUrl, WrittenFile } from './receipt-body';

export interface CheckedReceiptFile extends WrittenFile {
  readonly type: ReceiptType;
}

/**
 * Checks a receipt's file, decoded and written as its upload arrived (receipt-body.ts): a sound
 * data URL, its size, its type by its bytes. It stays under its temporary name.
 */
export function checkReceiptFile(received: ReceivedDataUrl): CheckedReceiptFile {
  if (received.problem !== undefined) throw new AppError(received.problem);
  const { file } = received;
  if (file === undefined || file.size === 0) throw new AppError('NO_FILE');
  if (file.size > RECEIPT_MAX_BYTES) throw new AppError('FILE_TOO_LARGE');
  const type = detectReceiptType(file.head);
  if (type === undefined) throw new AppError('FILE_TYPE');
  return { ...file, type };
}

/** Enough of a file's first bytes to tell its type (`detectReceiptType` reads 12). */
const HEAD_BYTES = 16;

/**
 * A receipt's file as its upload is decoded: written under RECEIPTS_DIR with a temporary name of
 * its own (PARTIAL_SUFFIX, which a crash may leave for the clean-up), hashed and measured on the
 * way, and flushed to the disk when whole. `keepReceiptFile` gives it its name.
 */
export class PartialReceiptFile implements ReceiptSink {
  readonly #dir: string;
  readonly #path: string;
  #handle: Promise<fs.FileHandle> | undefined;
  #closed = false;
  readonly #hash: Hash = createHash('sha256');
  #size = 0;
  #head = Buffer.alloc(0);

  constructor(dir: string) {
    this.#dir = dir;
    this.#path = path.join(dir, `${randomUUID()}${PARTIAL_SUFFIX}`);
  }

  #open(): Promise<fs.FileHandle> {
    this.#handle ??= fs.mkdir(this.#dir, { recursive: true }).then(() => fs.open(this.#path, 'wx'));
    return this.#handle;
  }

  async write(bytes: Buffer): Promise<void> {
    const handle = await this.#open();
    if (this.#head.length < HEAD_BYTES) {
      this.#head = Buffer.concat([this.#head, bytes.subarray(0, HEAD_BYTES - this.#head.length)]);
    }
    this.#hash.update(bytes);
    this.#size += bytes.length;
    for (let at = 0; at < bytes.length;) {
      at += (await handle.write(bytes, at)).bytesWritten;
    }
  }

  async finish(): Promise<WrittenFile> {
    const handle = await this.#open();
    await handle.sync();
    await this.#close();
    return {
      path: this.#path,
      size: this.#size,
      sha256: this.#hash.digest('hex'),
      head: this.#head,
    };
  }

  async discard(): Promise<void> {
    await this.#close().catch(() => undefined);
    await fs.rm(this.#path, { force: true });
  }

  async #close(): Promise<void> {
    if (this.#handle === undefined || this.#closed) return;
    this.#closed = true;
    await (await this.#handle).close();
  }
}

/**
 * Where a receipt's file is kept: named by its sha256 and by the receipt, so that every upload
 * has a file of its own. Two uploads of the same bytes at the same moment never write or remove
 * each other's file, and a file no receipt row names is an orphan the clean-up may remove.
 */
export function receiptStorageKey(file: CheckedReceiptFile, receiptId: string): string {
  return `${file.sha256}.${receiptId}.${file.type.extension}`;
}

/** The suffix of a file being written; a crash can leave one behind for the clean-up. */
export const PARTIAL_SUFFIX = '.part';

/**
 * Keeps a checked receipt file under `dir` as `storageKey`, for good before it returns: already
 * flushed to the disk under its temporary name, it is renamed into place (a reader never sees
 * half a file), and the directory flushed so that the rename survives a power cut too.
 */
export async function keepReceiptFile(
  dir: string,
  storageKey: string,
  file: CheckedReceiptFile,
): Promise<void> {
  await fs.rename(file.path, path.join(dir, storageKey));
  const directory = await fs.open(dir, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

/** Removes a receipt file that no row will name (its upload was refused); gone already is fine. */
export async function removeReceiptFile(dir: string, storageKey: string): Promise<void> {
  await fs.rm(path.join(dir, storageKey), { force: true });
}

/** A file name safe to keep and to show: no path, no control characters, at most 120 chars. */
export function cleanFileName(name: string, extension: string): string {
  // Cut first, clean after: a cut through a surrogate pair leaves half of it, which is removed.
  const cut = path
    .basename(name.replace(/\\/g, '/'))
    .replace(/["<>|:*?]/g, '')
    .slice(0, 120);
  const base = withoutControlCharacters(cut).trim();
  return base === '' ? `receipt.${extension}` : base;
}

/** A stored receipt as an operator downloads it. */
export interface ReceiptDownload {
  readonly fileName: string;
  readonly mimeType: string;
  readonly file: ReadStream;
}

/** The file of one receipt of an order; NOT_FOUND when the receipt or its file is missing. */
export async function openReceipt(
  ctx: ServerContext,
  orderId: string,
  receiptId: string,
): Promise<ReceiptDownload> {
  const receipt = await ctx.db
    .selectFrom('receipts')
    .select(['file_name', 'mime_type', 'storage_key'])
    .where('id', '=', receiptId)
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  if (receipt === undefined) throw new AppError('NOT_FOUND');
  const file = path.join(ctx.config.receiptsDir, receipt.storage_key);
  if (!existsSync(file)) throw new AppError('NOT_FOUND');
  return { fileName: receipt.file_name, mimeType: receipt.mime_type, file: createReadStream(file) };
}
