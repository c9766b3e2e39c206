/**
 * `/order/{orderId}/upload-receipt`: the payment receipt (spec sections 2, 5, 8). Images get a
 * preview and a PDF a placeholder; the file can be removed; only an image or PDF of at most
 * 10 MB is taken. Polled every 5 s: rejected alerts and goes to /, completed goes to complete.
 */
import { Button, Placeholder, Text } from '@telegram-apps/telegram-ui';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { OrderDetails } from '../../../shared/api';
import { POLL_INTERVALS_MS, RECEIPT_MAX_BYTES } from '../../../shared/limits';
import { orderScreenPath } from '../../../shared/order-status';
import { uploadReceipt } from '../../api/orders';
import { failureText } from '../../components/failure-text';
import { OrderNotFound } from '../../components/order-not-found';
import { Screen } from '../../components/screen';
import { useEnvironment } from '../../environment-context';
import { useOrder } from '../../hooks/use-order';
import { useI18nContext } from '../../i18n/language';
import { hapticError, hapticSuccess, showAlert } from '../../telegram/actions';

/** What the picker accepts: any image (HEIC from iPhones included) or a PDF. */
export const RECEIPT_ACCEPT = 'image/*,application/pdf,.pdf,.heic,.heif';

export type ReceiptProblem = 'fileTypeError' | 'fileSizeError';

/** Spec section 5: image or PDF only, at most 10 MB. */
export function checkReceiptFile(file: {
  readonly type: string;
  readonly name: string;
  readonly size: number;
}): ReceiptProblem | null {
  const isPdf = file.type === 'application/pdf' || /\.pdf$/i.test(file.name);
  const isImage = file.type.startsWith('image/') || /\.(heic|heif)$/i.test(file.name);
  if (!isPdf && !isImage) return 'fileTypeError';
  if (file.size > RECEIPT_MAX_BYTES) return 'fileSizeError';
  return null;
}

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
  const [, navigate] = useLocation();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [sending, setSending] = useState(false);
  const leaving = useRef(false);

  const onOrder = useCallback(
    (order: OrderDetails) => {
      if (leaving.current) return;
      if (order.status === 'REJECTED') {
        leaving.current = true;
        void showAlert(LL.errors.orderRejected(), inTelegram).then(() =>
          navigate('/', { replace: true }),
        );
      } else if (order.status === 'COMPLETED') {
        leaving.current = true;
        navigate(orderScreenPath(orderId, 'complete'), { replace: true });
      }
    },
    [LL, inTelegram, navigate, orderId],
  );
  const { notFound } = useOrder(orderId, POLL_INTERVALS_MS.uploadReceipt, { onOrder });

  const preview = useMemo(
    () => (file !== null && file.type.startsWith('image/') ? URL.createObjectURL(file) : null),
    [file],
  );
  useEffect(
    () => () => {
      if (preview !== null) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const choose = async (picked: File | undefined) => {
    if (picked === undefined) return;
    const problem = checkReceiptFile(picked);
    if (problem !== null) {
      hapticError();
      if (input.current !== null) input.current.value = '';
      await showAlert(LL.errors[problem](), inTelegram);
      return;
    }
    setFile(picked);
  };

  const remove = () => {
    setFile(null);
    if (input.current !== null) input.current.value = '';
  };

  const send = async () => {
    if (file === null) {
      await showAlert(LL.errors.noFileSelected(), inTelegram);
      return;
    }
    setSending(true);
    try {
      await uploadReceipt(orderId, {
        fileName: file.name,
        fileData: await readAsDataUrl(file),
        fileSize: file.size,
      });
      hapticSuccess();
      leaving.current = true;
      navigate(orderScreenPath(orderId, 'complete'));
    } catch (error) {
      console.warn('receipt upload failed', error);
      hapticError();
      await showAlert(failureText(error, LL, LL.errors.uploadError()), inTelegram);
    } finally {
      setSending(false);
    }
  };

  const isPdf = file !== null && (file.type === 'application/pdf' || /\.pdf$/i.test(file.name));
  return (
    <Screen
      testId="upload-receipt"
      header={{ title: LL.uploadReceipt.title(), back: '/my-orders' }}
    >
      {notFound ? (
        <OrderNotFound />
      ) : (
        <>
          <input
            ref={input}
            type="file"
            accept={RECEIPT_ACCEPT}
            className="visually-hidden"
            data-testid="receipt-input"
            onChange={(event) => void choose(event.target.files?.[0])}
          />
          {file === null ? (
            <Placeholder
              header={LL.uploadReceipt.title()}
              description={LL.uploadReceipt.hint()}
              action={
                <Button size="m" mode="bezeled" onClick={() => input.current?.click()}>
                  {LL.uploadReceipt.choose()}
                </Button>
              }
            >
              <span className="placeholder-icon" aria-hidden="true">
                🧾
              </span>
            </Placeholder>
          ) : (
            <div className="receipt-preview" data-testid="receipt-preview">
              {isPdf || preview === null ? (
                <div className="receipt-preview__pdf" data-testid="pdf-placeholder">
                  <span aria-hidden="true">📄</span>
                  <Text>{isPdf ? LL.uploadReceipt.pdfFile() : file.name}</Text>
                </div>
              ) : (
                <img src={preview} alt={file.name} className="receipt-preview__image" />
              )}
              <Text className="receipt-preview__name">{file.name}</Text>
              <Button size="s" mode="plain" onClick={remove} data-testid="remove-receipt">
                {LL.uploadReceipt.remove()}
              </Button>
            </div>
          )}
          <div className="screen__actions">
            <Button
              size="l"
              stretched
              loading={sending}
              onClick={() => void send()}
              data-testid="send-receipt"
            >
              {LL.uploadReceipt.send()}
            </Button>
          </div>
        </>
      )}
    </Screen>
  );
}
