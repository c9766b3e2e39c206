/** Bodies of the customer's order actions. */
import * as v from 'valibot';
import { CHAT_TEXT_MAX_CHARS } from '../limits';
import { NETWORK_IDS } from '../networks';
import { txHashField } from './fields';
import { paragraphText } from './text';

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

/**
 * `POST /api/orders/{id}/chat` and `POST /api/operator/orders/{id}/chat` as they go over the
 * wire: a text (trimmed, at most CHAT_TEXT_MAX_CHARS), a file as a receipt's upload sends it
 * (fileName, fileData as a base64 data URL, fileSize), or both. Neither is MESSAGE_EMPTY. The
 * server decodes fileData as the body arrives, as it does a receipt's.
 */
export const ChatMessageBodySchema = v.looseObject({
  text: v.optional(paragraphText(CHAT_TEXT_MAX_CHARS), ''),
  fileName: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(255)), ''),
  fileData: v.optional(v.string()),
  fileSize: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0))),
});
