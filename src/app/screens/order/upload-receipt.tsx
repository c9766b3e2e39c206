/**
 * `/order/{orderId}/upload-receipt`: the payment receipt (spec sections 2, 5, 8). Images get a
 * preview and a PDF a placeholder; the file can be removed; only an image or PDF of at most
 * 10 MB is taken. Polling and redirects are the table's; a sent receipt goes on to complete.
 */
import { Button, Placeholder, Text } from '@telegram-apps/telegram-ui';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import {
  RECEIPT_ACCEPT,
  RECEIPT_SIGNATURE_BYTES,
  detectReceiptType,
  receiptProblem,
  type ReceiptType,
} from '../../../shared/receipts';
import { uploadReceipt } from '../../api/orders';
import { OrderNotFoundScreen } from '../../components/order-not-found';
import { OrderSupportButton } from '../../components/order-support-button';
import { Screen } from '../../components/screen';
import { useEnvironment } from '../../environment-context';
import { useOrderAction } from '../../hooks/use-order-action';
import { useOrderScreen } from '../../hooks/use-order-screen';
import { useI18nContext } from '../../i18n/language';
import { hapticError, hapticSuccess, showAlert } from '../../telegram/actions';
import { PrimaryAction } from '../../components/primary-action';

/** A picked file and its real type, read from its first bytes. */
interface PickedReceipt {
  readonly file: File;
  readonly type: ReceiptType;
}

/** Types a browser can show as an image preview (HEIC gets the file's name instead). */
const PREVIEWABLE = new Set(['image/jpeg', 'image/png', 'image/webp']);

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

export function UploadReceipt({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const { inTelegram } = useEnvironment();
  const { input, picked, choose, remove } = useReceiptChoice();
  const { notFound, leave } = useOrderScreen('upload-receipt', orderId);
  const send = useOrderAction({
    name: 'receipt upload',
    call: async (chosen: File) =>
      uploadReceipt(orderId, {
        fileName: chosen.name,
        fileData: await readAsDataUrl(chosen),
        fileSize: chosen.size,
      }),
    onDone: () => {
      hapticSuccess();
      leave('complete', { replace: false });
    },
    headline: 'uploadError',
  });

  if (notFound) return <OrderNotFoundScreen testId="upload-receipt" orderId={orderId} />;
  const sendFile = async () => {
    if (picked === null) {
      await showAlert(LL.errors.noFileSelected(), inTelegram);
      return;
    }
    await send.run(picked.file);
  };

  return (
    <Screen
      testId="upload-receipt"
      header={{ title: LL.uploadReceipt.headerTitle(), back: '/my-orders' }}
    >
      <>
        <input
          ref={input}
          type="file"
          accept={RECEIPT_ACCEPT}
          className="visually-hidden"
          data-testid="receipt-input"
          onChange={(event) => void choose(event.target.files?.[0])}
        />
        {picked === null ? (
          <ReceiptPrompt onChoose={() => input.current?.click()} />
        ) : (
          <ReceiptPreview picked={picked} onRemove={remove} />
        )}
        <div className="screen__actions">
          <PrimaryAction
            text={LL.uploadReceipt.send()}
            loading={send.busy}
            onClick={() => void sendFile()}
            testId="send-receipt"
          />
          <OrderSupportButton orderId={orderId} />
        </div>
      </>
    </Screen>
  );
}

/**
 * The file the customer picked, once it passes the same check as the server's
 * (src/shared/receipts.ts): the type from the file's first bytes, whatever its name or the type
 * the phone reports, and at most 10 MB. A refused or removed file also clears the input, so the
 * same file can be picked again.
 */
function useReceiptChoice(): {
  /** The hidden file input the picker opens from. */
  readonly input: RefObject<HTMLInputElement | null>;
  readonly picked: PickedReceipt | null;
  readonly choose: (chosen: File | undefined) => Promise<void>;
  readonly remove: () => void;
} {
  const { LL } = useI18nContext();
  const { inTelegram } = useEnvironment();
  const input = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<PickedReceipt | null>(null);

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
  };

  const remove = () => {
    setPicked(null);
    if (input.current !== null) input.current.value = '';
  };

  return { input, picked, choose, remove };
}

/** Before a file is picked: what to send, and the button that opens the file picker. */
function ReceiptPrompt({ onChoose }: { readonly onChoose: () => void }) {
  const { LL } = useI18nContext();
  return (
    <Placeholder
      header={LL.uploadReceipt.title()}
      description={LL.uploadReceipt.hint()}
      action={
        <Button size="m" mode="bezeled" onClick={onChoose}>
          {LL.uploadReceipt.choose()}
        </Button>
      }
    >
      <span className="placeholder-icon" aria-hidden="true">
        🧾
      </span>
    </Placeholder>
  );
}

/** The picked file: an image previewed, a PDF (or HEIC) as its placeholder; and remove. */
function ReceiptPreview({
  picked,
  onRemove,
}: {
  readonly picked: PickedReceipt;
  readonly onRemove: () => void;
}) {
  const { LL } = useI18nContext();
  const preview = useMemo(
    () => (PREVIEWABLE.has(picked.type.mime) ? URL.createObjectURL(picked.file) : null),
    [picked],
  );
  useEffect(
    () => () => {
      if (preview !== null) URL.revokeObjectURL(preview);
    },
    [preview],
  );
  const isPdf = picked.type.mime === 'application/pdf';
  return (
    <div className="receipt-preview" data-testid="receipt-preview">
      {isPdf || preview === null ? (
        <div className="receipt-preview__pdf" data-testid="pdf-placeholder">
          <span aria-hidden="true">📄</span>
          <Text>{isPdf ? LL.uploadReceipt.pdfFile() : picked.file.name}</Text>
        </div>
      ) : (
        <img src={preview} alt={picked.file.name} className="receipt-preview__image" />
      )}
      <Text className="receipt-preview__name">{picked.file.name}</Text>
      <Button size="s" mode="plain" onClick={onRemove} data-testid="remove-receipt">
        {LL.uploadReceipt.remove()}
      </Button>
    </div>
  );
}
