/**
 * Payment receipts (design.md, "Receipts"): the base64 data URL, decoded as it arrived
 * (receipt-body.ts), is checked: its real size
 * measured (10 MB at most), its type read from the bytes (JPEG, PNG, WebP, HEIC, PDF) whatever
 * its name or data-URL header claim, and the file stored under RECEIPTS_DIR named by its sha256
 * and its receipt id.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, existsSync, type ReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { RECEIPT_MAX_BYTES } from '../../shared/limits';
import { detectReceiptType, type ReceiptType } from '../../shared/receipts';
import { withoutControlCharacters } from '../../shared/schemas/text';
import type { ServerContext } from '../context';
import { AppError } from '../errors';
import type { ReceivedDataUrl } from './receipt-body';

export interface CheckedReceiptFile {
  readonly type: ReceiptType;
  readonly size: number;
  readonly sha256: string;
  readonly bytes: Uint8Array;
}

/**
 * Checks a receipt's file, decoded as its upload arrived (receipt-body.ts): a sound data URL,
 * its size, its type by its bytes. Nothing is stored.
 */
export function checkReceiptFile(file: ReceivedDataUrl): CheckedReceiptFile {
  if (file.problem !== undefined) throw new AppError(file.problem);
  const { bytes } = file;
  if (bytes.length === 0) throw new AppError('NO_FILE');
  if (bytes.length > RECEIPT_MAX_BYTES) throw new AppError('FILE_TOO_LARGE');
  const type = detectReceiptType(bytes);
  if (type === undefined) throw new AppError('FILE_TYPE');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { bytes, type, size: bytes.length, sha256 };
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
 * Stores a checked receipt file under `dir` as `storageKey`, for good before it returns: written
 * to a temporary name of its own, flushed to the disk, renamed into place (a reader never sees
 * half a file), and the directory flushed so that the rename survives a power cut too.
 */
export async function writeReceiptFile(
  dir: string,
  storageKey: string,
  file: CheckedReceiptFile,
): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const target = path.join(dir, storageKey);
  const temporary = `${target}.${randomUUID()}${PARTIAL_SUFFIX}`;
  const handle = await fs.open(temporary, 'wx');
  try {
    await handle.writeFile(file.bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temporary, target);
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
