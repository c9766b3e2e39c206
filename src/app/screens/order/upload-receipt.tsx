/**
 * `/order/{orderId}/upload-receipt`: the payment receipt. Images get a
 * preview and a PDF a placeholder; the file can be removed; only an image or PDF of at most
 * 10 MB is taken. Polling and redirects are the table's; a sent receipt goes on to complete.
 */
import { Button, Placeholder, Text } from '@telegram-apps/telegram-ui';
import { useEffect, useMemo } from 'react';
import { FilePickerInput } from '../../components/file-picker-input';
import { uploadReceipt } from '../../api/orders';
import { OrderNotFoundScreen } from '../../features/order/order-not-found';
import { OrderSupportButton } from '../../features/order/order-support-button';
import { Screen } from '../../components/screen';
import { useEnvironment } from '../../environment-context';
import { useOrderAction } from '../../features/order/use-order-action';
import { useOrderScreen } from '../../features/order/use-order-screen';
import { useI18nContext } from '../../i18n/language';
import { hapticSuccess, showAlert } from '../../telegram/actions';
import { PREVIEWABLE, fileBody, useFileChoice, type PickedFile } from '../../hooks/use-file-choice';
import { PrimaryAction } from '../../components/primary-action';

export function UploadReceipt({ orderId }: { readonly orderId: string }) {
  const { LL } = useI18nContext();
  const { inTelegram } = useEnvironment();
  const { input, picked, choose, remove } = useFileChoice();
  const { notFound, leave } = useOrderScreen('upload-receipt', orderId);
  const send = useOrderAction({
    name: 'receipt upload',
    call: async (chosen: File) => uploadReceipt(orderId, await fileBody(chosen)),
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
        <FilePickerInput inputRef={input} choose={choose} testId="receipt-input" />
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
  readonly picked: PickedFile;
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
