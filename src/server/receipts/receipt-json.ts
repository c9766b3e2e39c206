/**
 * The receipt upload's body: the one large body, a file as a base64 data URL. Like every call it
 * first learns who calls (the routes' onRequest hooks), so that nobody can make the server read
 * and parse megabytes for nothing; then it is read as it arrives, its file decoded on the way.
 */
import type { FastifyRequest } from 'fastify';
import { RECEIPT_MAX_BYTES } from '../../shared/limits';
import { AppError } from '../platform/errors';
import { JSON_BODY_LIMIT_BYTES, parseJson } from '../platform/http/json-body';
import { BodyTooLarge, readReceiptBody } from './receipt-body';
import { PartialReceiptFile } from './receipts';

/**
 * A receipt of RECEIPT_MAX_BYTES as a base64 data URL (13.3 MiB), with room for its name and the
 * JSON: 14 MiB, a round figure a proxy in front can be given as it is (deploy/nginx: `14m`).
 */
export const RECEIPT_BODY_LIMIT_BYTES = 14 * 1024 * 1024;
if (RECEIPT_BODY_LIMIT_BYTES < Math.ceil(RECEIPT_MAX_BYTES / 3) * 4 + JSON_BODY_LIMIT_BYTES) {
  throw new Error('RECEIPT_BODY_LIMIT_BYTES must hold a RECEIPT_MAX_BYTES file as base64');
}

/**
 * The JSON parser of the receipt route (add it in the route's own scope): the body is read as it
 * arrives, its top-level fileData decoded on the way into a file under RECEIPTS_DIR and given as
 * a ReceivedDataUrl, never a string (receipts/receipt-body.ts), up to RECEIPT_BODY_LIMIT_BYTES,
 * the rest up to JSON_BODY_LIMIT_BYTES. The route's scope discards the file when the upload does
 * not keep it.
 */
export async function parseReceiptJson(
  request: FastifyRequest,
  payload: AsyncIterable<Buffer>,
): Promise<unknown> {
  const announced = Number(request.headers['content-length']);
  if (announced > RECEIPT_BODY_LIMIT_BYTES) throw new AppError('PAYLOAD_TOO_LARGE');
  let read: Awaited<ReturnType<typeof readReceiptBody>>;
  try {
    read = await readReceiptBody(payload, {
      bodyLimit: RECEIPT_BODY_LIMIT_BYTES,
      restLimit: JSON_BODY_LIMIT_BYTES,
      sink: () => new PartialReceiptFile(request.server.config.receiptsDir),
    });
  } catch (error) {
    if (error instanceof BodyTooLarge) throw new AppError('PAYLOAD_TOO_LARGE');
    throw error;
  }
  let body: unknown;
  try {
    body = parseJson(read.rest);
  } catch (error) {
    await read.file?.discard();
    throw error;
  }
  if (read.file !== undefined && typeof body === 'object' && body !== null) {
    (body as Record<string, unknown>)['fileData'] = read.file;
  }
  return body;
}
