/**
 * Path parameters of the API's calls. An id that is no UUID can name nothing,
 * so it is refused as what it would name is when missing: each refusal's message is the error
 * code the server answers (ORDER_NOT_FOUND for an order's id, NOT_FOUND for a receipt's).
 */
import * as v from 'valibot';
import type { ErrorCode } from '../errors';
import { UUID_PATTERN } from './text';

const uuid = (missing: ErrorCode & ('ORDER_NOT_FOUND' | 'NOT_FOUND')) =>
  v.pipe(v.string(missing), v.regex(UUID_PATTERN, missing), v.toLowerCase());

/** An order's id wherever it is given, in a path or in a body. */
export const orderIdField = uuid('ORDER_NOT_FOUND');

/** `/api/orders/{id}/…` and `/api/operator/orders/{id}/…`. */
export const OrderParamsSchema = v.object({ id: orderIdField });

/** `/api/operator/orders/{id}/receipts/{receiptId}`: the order's id is judged first. */
export const ReceiptParamsSchema = v.object({
  id: uuid('ORDER_NOT_FOUND'),
  receiptId: uuid('NOT_FOUND'),
});

/** `/api/cities/{currencyCode}`: any text; a currency the service does not list is NOT_FOUND. */
export const CurrencyParamsSchema = v.object({ currencyCode: v.string() });

/** `/api/…/orders/{id}/chat/{messageId}/attachment`: a message's id is a whole number. */
export const ChatAttachmentParamsSchema = v.object({
  id: uuid('ORDER_NOT_FOUND'),
  messageId: v.pipe(
    v.string('NOT_FOUND'),
    v.regex(/^[1-9][0-9]{0,14}$/, 'NOT_FOUND'),
    v.transform(Number),
  ),
});
