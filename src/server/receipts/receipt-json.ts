/**
 * The receipt upload's body: the one large body, read only once the caller is known, so nobody
 * makes the server parse megabytes for nothing.
 */
import type { FastifyRequest } from 'fastify';
import { RECEIPT_MAX_BYTES } from '../../shared/limits';
import { AppError } from '../platform/errors';
import { JSON_BODY_LIMIT_BYTES, parseJson } from '../platform/http/json-body';
import { BodyTooLarge, readReceiptBody } from './receipt-body';
import { PartialReceiptFile } from './receipts';

/** 13.3 MiB of base64 plus its name and the JSON, rounded for a proxy (deploy/nginx: `14m`). */
export const RECEIPT_BODY_LIMIT_BYTES = 14 * 1024 * 1024;
if (RECEIPT_BODY_LIMIT_BYTES < Math.ceil(RECEIPT_MAX_BYTES / 3) * 4 + JSON_BODY_LIMIT_BYTES) {
  throw new Error('RECEIPT_BODY_LIMIT_BYTES must hold a RECEIPT_MAX_BYTES file as base64');
}

/** The receipt route's JSON parser, for its own scope, which discards a file not kept. */
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
