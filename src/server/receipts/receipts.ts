/** Payment receipts: size measured, type read from the bytes (not the name), kept by sha256. */
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

/** It stays under its temporary name. */
export function checkReceiptFile(received: ReceivedDataUrl): CheckedReceiptFile {
  if (received.problem !== undefined) throw new AppError(received.problem);
  const { file } = received;
  if (file === undefined || file.size === 0) throw new AppError('NO_FILE');
  if (file.size > RECEIPT_MAX_BYTES) throw new AppError('FILE_TOO_LARGE');
  const type = detectReceiptType(file.head);
  if (type === undefined) throw new AppError('FILE_TYPE');
  return { ...file, type };
}

/** `detectReceiptType` reads 12. */
const HEAD_BYTES = 16;

/** Written under a temporary name (PARTIAL_SUFFIX), hashed and measured, flushed when whole. */
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

/** By sha256 and receipt: two uploads of the same bytes never write or remove each other's file. */
export function receiptStorageKey(file: CheckedReceiptFile, receiptId: string): string {
  return `${file.sha256}.${receiptId}.${file.type.extension}`;
}

/** A crash can leave one behind for the clean-up. */
export const PARTIAL_SUFFIX = '.part';

/** Renamed into place (no reader sees half a file), the directory flushed against a power cut. */
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

/** Gone already is fine. */
export async function removeReceiptFile(dir: string, storageKey: string): Promise<void> {
  await fs.rm(path.join(dir, storageKey), { force: true });
}

/** No path, no control characters, at most 120 characters. */
export function cleanFileName(name: string, extension: string): string {
  // Cut first, clean after: a cut through a surrogate pair leaves half of it, which is removed.
  const cut = path
    .basename(name.replace(/\\/g, '/'))
    .replace(/["<>|:*?]/g, '')
    .slice(0, 120);
  const base = withoutControlCharacters(cut).trim();
  return base === '' ? `receipt.${extension}` : base;
}

export interface ReceiptDownload {
  readonly fileName: string;
  readonly mimeType: string;
  readonly file: ReadStream;
}

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
