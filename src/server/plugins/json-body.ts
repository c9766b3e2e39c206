/**
 * JSON bodies: an empty body sent as JSON (the spec's office-confirm) is an empty object, not an
 * error; malformed JSON is INVALID_JSON; secure-json-parse, which Fastify's own parser uses,
 * refuses prototype poisoning.
 */
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import { AppError } from '../errors';

/** JSON bodies above this are refused with 413 (a 10 MB receipt is about 13.4 MB as base64). */
export const BODY_LIMIT_BYTES = 15 * 1024 * 1024;

export const jsonBodyPlugin = fp(
  (app, _options, done) => {
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
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
