/**
 * JSON bodies: an empty body sent as JSON (the spec's office-confirm) is an empty object, not an
 * error; malformed JSON is INVALID_JSON; secure-json-parse, which Fastify's own parser uses,
 * refuses prototype poisoning.
 *
 * Bodies are small (issue 22, item 4): every call takes at most JSON_BODY_LIMIT_BYTES, refused
 * with 413 from its Content-Length before a byte is read. The receipt upload alone takes
 * RECEIPT_BODY_LIMIT_BYTES, and like every call it first learns who calls (the routes' onRequest
 * hooks), so that nobody can make the server read and parse megabytes for nothing.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import { RECEIPT_MAX_BYTES } from '../../../shared/limits';
import { AppError } from '../errors';
import { BodyTooLarge, readReceiptBody } from '../../receipts/receipt-body';
import { PartialReceiptFile } from '../../receipts/receipts';

/** The most any call but the receipt upload may send: its largest real body is under 2 KB. */
export const JSON_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * A receipt of RECEIPT_MAX_BYTES as a base64 data URL (13.3 MiB), with room for its name and the
 * JSON: 14 MiB, a round figure a proxy in front can be given as it is (deploy/nginx: `14m`).
 */
export const RECEIPT_BODY_LIMIT_BYTES = 14 * 1024 * 1024;
if (RECEIPT_BODY_LIMIT_BYTES < Math.ceil(RECEIPT_MAX_BYTES / 3) * 4 + JSON_BODY_LIMIT_BYTES) {
  throw new Error('RECEIPT_BODY_LIMIT_BYTES must hold a RECEIPT_MAX_BYTES file as base64');
}

/** JSON text as a body: an empty one is `{}`; INVALID_JSON when it is not JSON. */
function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return secureJson.parse(text, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw new AppError('INVALID_JSON');
  }
}

export const jsonBodyPlugin = fp(
  (app, _options, done) => {
    app.addContentTypeParser(
      'application/json',
      // The limit is the server's, JSON_BODY_LIMIT_BYTES (the receipt route parses its own).
      { parseAs: 'string' },
      (_request, body, parsed) => {
        try {
          parsed(null, parseJson(typeof body === 'string' ? body : body.toString('utf8')));
        } catch (error) {
          parsed(error as AppError, undefined);
        }
      },
    );
    done();
  },
  { name: 'json-body' },
);

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
