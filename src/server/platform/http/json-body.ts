/**
 * JSON bodies: an empty body sent as JSON (the office confirmation) is an empty object, not an
 * error; malformed JSON is INVALID_JSON; secure-json-parse, which Fastify's own parser uses,
 * refuses prototype poisoning.
 *
 * Bodies are small: every call takes at most JSON_BODY_LIMIT_BYTES, refused with 413 from its
 * Content-Length before a byte is read. The receipt upload alone takes more, with a parser of its
 * own (receipts/receipt-json.ts).
 */
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import { AppError } from '../errors';

/** The most any call but the receipt upload may send: its largest real body is under 2 KB. */
export const JSON_BODY_LIMIT_BYTES = 64 * 1024;

/** JSON text as a body: an empty one is `{}`; INVALID_JSON when it is not JSON. */
export function parseJson(text: string): unknown {
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
