/**
 * The typed API client: every call carries `Authorization: tma <init data>` and the customer's
 * language, and every failure becomes an `ApiError` with the server's stable code.
 */
import type { ApiErrorBody } from '../../shared/api';
import { isErrorCode, type ErrorCode } from '../../shared/errors';
import { DEFAULT_LANGUAGE } from '../../shared/api';
import { getStoredLanguage } from '../storage';

let initDataRaw: string | undefined;

/** Set once at start-up from Telegram's (or the demo mock's) launch parameters. */
export function setInitData(raw: string): void {
  initDataRaw = raw;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The server's code; NETWORK when no answer came, TIMEOUT when it came too late. */
    readonly code: ErrorCode | 'NETWORK' | 'TIMEOUT',
    readonly body: Partial<ApiErrorBody> = {},
  ) {
    super(`API error ${status} ${code}`);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  readonly method?: 'GET' | 'POST';
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** Give up after this long (ApiError TIMEOUT). */
  readonly timeoutMs?: number;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-language': getStoredLanguage() ?? DEFAULT_LANGUAGE,
  };
  if (initDataRaw !== undefined) headers['authorization'] = `tma ${initDataRaw}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';

  const signals: AbortSignal[] = [];
  if (options.signal !== undefined) signals.push(options.signal);
  if (options.timeoutMs !== undefined) signals.push(AbortSignal.timeout(options.timeoutMs));

  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      cache: 'no-store',
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      ...(signals.length === 0 ? {} : { signal: AbortSignal.any(signals) }),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      throw new ApiError(0, 'TIMEOUT');
    }
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK');
  }

  if (!response.ok) {
    let body: Partial<ApiErrorBody> = {};
    try {
      body = (await response.json()) as Partial<ApiErrorBody>;
    } catch {
      // Not JSON (a proxy's error page): the status alone says what happened.
    }
    throw new ApiError(response.status, isErrorCode(body.code) ? body.code : 'INTERNAL', body);
  }
  return (await response.json()) as T;
}
