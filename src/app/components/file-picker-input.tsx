/**
 * The hidden file input a picker button opens (a receipt, a chat message's file, an appeal's
 * evidence): it takes the types the server takes and hands the chosen file to `useFileChoice`.
 */
import { RECEIPT_ACCEPT } from '../../shared/receipts';
import type { useFileChoice } from '../hooks/use-file-choice';

export function FilePickerInput({
  inputRef,
  choose,
  testId,
}: {
  readonly inputRef: ReturnType<typeof useFileChoice>['input'];
  readonly choose: ReturnType<typeof useFileChoice>['choose'];
  readonly testId: string;
}) {
  return (
    <input
      ref={inputRef}
      type="file"
      accept={RECEIPT_ACCEPT}
      className="visually-hidden"
      // Opened by the button beside it, which names it: hidden from screen readers and Tab so
      // the one control is met once.
      aria-hidden="true"
      tabIndex={-1}
      data-testid={testId}
      onChange={(event) => void choose(event.target.files?.[0])}
    />
  );
}
