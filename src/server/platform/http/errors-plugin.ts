/** Every error answer is `{ error, code }` in the caller's language; a 500's detail is logged. */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiErrorBody, ApiErrorDetails } from '../../../shared/api';
import type { ErrorCode } from '../../../shared/errors';
import { AppError } from '../errors';
import { errorMessage, negotiateLanguage } from '../i18n';

export function errorBody(
  request: FastifyRequest,
  code: ErrorCode,
  details: ApiErrorDetails = {},
): ApiErrorBody {
  const language = negotiateLanguage(request.headers['accept-language']);
  return { ...details, error: errorMessage(code, language), code };
}

/** Also given to Fastify for the router's own refusals (`frameworkErrors`). */
export function sendError(
  error: FastifyError | AppError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const appError = toAppError(error);
  if (appError.code === 'INTERNAL') {
    request.log.error({ err: error }, 'request failed');
  } else {
    // The code of Fastify's own refusal, never its message: a message may quote the URL.
    const cause = error instanceof AppError ? undefined : error.code;
    request.log.info({ code: appError.code, cause }, 'request refused');
  }
  void reply.status(appError.statusCode).send(errorBody(request, appError.code, appError.details));
}

function toAppError(error: FastifyError | AppError): AppError {
  if (error instanceof AppError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('INVALID_JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_VALIDATION':
      return new AppError('VALIDATION_FAILED');
    case 'FST_ERR_BAD_URL':
      return new AppError('BAD_REQUEST');
    // Nothing the API names (an order id, a currency code) is that long.
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('NOT_FOUND');
  }
  if (error instanceof SyntaxError) return new AppError('INVALID_JSON');
  const status = error.statusCode ?? 500;
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE');
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE');
  if (status >= 400 && status < 500) return new AppError('BAD_REQUEST');
  return new AppError('INTERNAL');
}

export const errorsPlugin = fp(
  (app, _options, done) => {
    app.setErrorHandler(sendError);
    done();
  },
  { name: 'errors' },
);
