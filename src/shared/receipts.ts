/**
 * What a payment receipt may be (an image or a PDF, at most 10 MB:
 * JPEG, PNG, WebP, HEIC or PDF, read from the bytes). One list for both sides: the
 * app's picker offers exactly these and checks a picked file's first bytes before sending it,
 * and the server reads the type from the bytes whatever the name or header claim.
 */
import { RECEIPT_MAX_BYTES } from './limits';

export interface ReceiptType {
  readonly mime: string;
  /** The extension the file is stored with. */
  readonly extension: string;
  /** Other names a file of this type is picked by (iPhones name HEIC photos `.heif` too). */
  readonly aliases: readonly string[];
}

const JPEG: ReceiptType = { mime: 'image/jpeg', extension: 'jpg', aliases: ['jpeg'] };
const PNG: ReceiptType = { mime: 'image/png', extension: 'png', aliases: [] };
const WEBP: ReceiptType = { mime: 'image/webp', extension: 'webp', aliases: [] };
const HEIC: ReceiptType = { mime: 'image/heic', extension: 'heic', aliases: ['heif'] };
const PDF: ReceiptType = { mime: 'application/pdf', extension: 'pdf', aliases: [] };

/** Every type a receipt may have. */
export const RECEIPT_TYPES: readonly ReceiptType[] = [JPEG, PNG, WEBP, HEIC, PDF];

/** The `accept` of the file picker: these MIME types and extensions, nothing else. */
export const RECEIPT_ACCEPT = [
  ...RECEIPT_TYPES.map((t) => t.mime),
  'image/heif',
  ...RECEIPT_TYPES.flatMap((t) => [t.extension, ...t.aliases].map((e) => `.${e}`)),
].join(',');

/** How many first bytes `detectReceiptType` reads. */
export const RECEIPT_SIGNATURE_BYTES = 16;

const startsWith = (bytes: Uint8Array, signature: readonly number[]): boolean =>
  signature.every((b, i) => bytes[i] === b);
const ascii = (bytes: Uint8Array, from: number, to: number): string =>
  String.fromCharCode(...bytes.subarray(from, to));
const HEIC_BRANDS = ['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'];

/** A file's real type from its first bytes, or undefined for anything but these images or a PDF. */
export function detectReceiptType(bytes: Uint8Array): ReceiptType | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return JPEG;
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return WEBP;
  if (ascii(bytes, 4, 8) === 'ftyp' && HEIC_BRANDS.includes(ascii(bytes, 8, 12))) return HEIC;
  if (ascii(bytes, 0, 5) === '%PDF-') return PDF;
  return undefined;
}

/** Why a picked file cannot be a receipt (keys of the dictionary's `errors`), or null. */
export type ReceiptProblem = 'fileTypeError' | 'fileSizeError';

/** Checks a picked file as the server does: its size first, then its type by its first bytes. */
export function receiptProblem(size: number, head: Uint8Array): ReceiptProblem | null {
  if (size > RECEIPT_MAX_BYTES) return 'fileSizeError';
  if (detectReceiptType(head) === undefined) return 'fileTypeError';
  return null;
}
