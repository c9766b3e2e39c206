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
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import { RECEIPT_MAX_BYTES } from '../../shared/limits';
import { AppError } from '../errors';

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

export const jsonBodyPlugin = fp(
  (app, _options, done) => {
    app.addContentTypeParser(
      'application/json',
      // The limit is the route's (RECEIPT_BODY_LIMIT_BYTES) or the server's (JSON_BODY_LIMIT_BYTES).
      { parseAs: 'string' },
      (_request, body, parsed) => {
        const text = typeof body === 'string' ? body : body.toString('utf8');
        if (text.trim() === '') {
          parsed(null, {});
          return;
        }
        try {
          parsed(
            null,
            secureJson.parse(text, { protoAction: 'error', constructorAction: 'error' }),
          );
        } catch {
          parsed(new AppError('INVALID_JSON'), undefined);
        }
      },
    );
    done();
  },
  { name: 'json-body' },
);
