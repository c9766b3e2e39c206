/** Bodies of the customer's order actions (spec section 7). */
import * as v from 'valibot';
import { NETWORK_IDS } from '../networks';
import { txHashField } from './fields';

/**
 * `POST /api/orders/{id}/receipt` as it goes over the wire: fileName, fileData (base64 data URL),
 * fileSize. The server never holds fileData as a string: its parser decodes it into a file as the
 * body arrives (src/server/receipts/receipt-body.ts) and checks the rest against these entries.
 */
export const ReceiptUploadSchema = v.looseObject({
  fileName: v.pipe(v.string(), v.trim(), v.maxLength(255)),
  fileData: v.string(),
  fileSize: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0))),
});

/** `POST /api/orders/{id}/tx-hash`: the hash of the customer's transfer, and its network. */
export const TxHashSchema = v.looseObject({
  txHash: txHashField,
  network: v.optional(v.picklist(NETWORK_IDS)),
});
