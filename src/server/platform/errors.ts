/** Typed errors with a stable code; one handler answers `{ error, code }` in the caller's words. */
import type { ApiErrorDetails } from '../../shared/api';
import { ERROR_HTTP_STATUS, type ErrorCode } from '../../shared/errors';

export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    /** Extra fields of the answer, typed in src/shared/api.ts. */
    readonly details: ApiErrorDetails = {},
    message: string = code,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = ERROR_HTTP_STATUS[code];
  }
}
