/**
 * A file the customer picks for the server (a receipt, a chat message's attachment), checked as
 * the server checks it (src/shared/receipts.ts): the type from the file's first bytes, whatever
 * its name or the type the phone reports, and at most 10 MB. A refused or removed file also
 * clears the input, so the same file can be picked again.
 */
import { useRef, useState, type RefObject } from 'react';
import {
  RECEIPT_SIGNATURE_BYTES,
  detectReceiptType,
  receiptProblem,
  type ReceiptType,
} from '../../shared/receipts';
import { useEnvironment } from '../environment-context';
import { useI18nContext } from '../i18n/language';
import { hapticError, showAlert } from '../telegram/actions';

/** A picked file and its real type, read from its first bytes. */
export interface PickedFile {
  readonly file: File;
  readonly type: ReceiptType;
}

/** Types a browser can show as an image (HEIC gets the file's name instead). */
export const PREVIEWABLE: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp']);

/** A file as the API takes it: a base64 data URL. */
export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/** A picked file as a message or receipt's body sends it. */
export async function fileBody(file: File): Promise<{
  readonly fileName: string;
  readonly fileData: string;
  readonly fileSize: number;
}> {
  return { fileName: file.name, fileData: await readAsDataUrl(file), fileSize: file.size };
}

export function useFileChoice(
  options: {
    /** Told of every change of the picked file (a form that counts it among its fields). */
    readonly onChange?: (picked: PickedFile | null) => void;
  } = {},
): {
  /** The hidden file input the picker opens from. */
  readonly input: RefObject<HTMLInputElement | null>;
  readonly picked: PickedFile | null;
  readonly choose: (chosen: File | undefined) => Promise<void>;
  readonly remove: () => void;
} {
  const { LL } = useI18nContext();
  const { inTelegram } = useEnvironment();
  const input = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<PickedFile | null>(null);

  const choose = async (chosen: File | undefined) => {
    if (chosen === undefined) return;
    const head = new Uint8Array(await chosen.slice(0, RECEIPT_SIGNATURE_BYTES).arrayBuffer());
    const type = detectReceiptType(head);
    const problem = receiptProblem(chosen.size, head);
    if (problem !== null || type === undefined) {
      hapticError();
      if (input.current !== null) input.current.value = '';
      await showAlert(LL.errors[problem ?? 'fileTypeError'](), inTelegram);
      return;
    }
    setPicked({ file: chosen, type });
    options.onChange?.({ file: chosen, type });
  };

  const remove = () => {
    setPicked(null);
    options.onChange?.(null);
    if (input.current !== null) input.current.value = '';
  };

  return { input, picked, choose, remove };
}
