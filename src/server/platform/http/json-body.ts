/**
 * JSON bodies: an empty body is `{}` (the office confirmation), malformed JSON is INVALID_JSON,
 * prototype poisoning refused; past JSON_BODY_LIMIT_BYTES, 413 before a byte is read.
 */
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import { AppError } from '../errors';

/** Any call but the receipt upload: its largest real body is under 2 KB. */
export const JSON_BODY_LIMIT_BYTES = 64 * 1024;

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
