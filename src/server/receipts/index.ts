/** The receipts module's door: what the other modules may use of it. */
export { readsFileBodies, sendDownload } from './file-transfer';
export { ReceivedDataUrl } from './receipt-body';
export { receiptsModule } from './receipts-module';
export {
  type CheckedReceiptFile,
  PartialReceiptFile,
  type ReceiptDownload,
  checkReceiptFile,
  cleanFileName,
  keepReceiptFile,
  openReceipt,
  receiptStorageKey,
  removeReceiptFile,
} from './receipts';
