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
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** Give up after this long (ApiError TIMEOUT). */
  readonly timeoutMs?: number;
  /**
   * The ETag of the answer the caller keeps, sent as `If-None-Match`: a `304 Not Modified` then
   * comes back as an answer (with no body), not as an ApiError. Without it a 304 is an error.
   */
  readonly ifNoneMatch?: string | undefined;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options, 'application/json');
  return (await response.json()) as T;
}

/** The answer of a call that succeeded, as it came (a file), or the ApiError of one that failed. */
export async function send(
  path: string,
  options: RequestOptions,
  accept: string,
): Promise<Response> {
  const headers: Record<string, string> = {
    accept,
    'accept-language': getStoredLanguage() ?? DEFAULT_LANGUAGE,
  };
  if (initDataRaw !== undefined) headers['authorization'] = `tma ${initDataRaw}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.ifNoneMatch !== undefined) headers['if-none-match'] = options.ifNoneMatch;

  // One controller for the caller's signal and the timeout: AbortSignal.any and .timeout are
  // missing in the older iOS WebViews Telegram still runs in.
  const controller = new AbortController();
  const timeout = { fired: false };
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort);
  if (options.signal?.aborted === true) controller.abort();
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timeout.fired = true;
          controller.abort();
        }, options.timeoutMs);

  let response: Response;
  try {
    // `no-store` keeps the browser's cache out of it: the browser neither answers from a stored
    // copy nor turns the server's 304 to our own If-None-Match into a 200, so a 304 reaches us.
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      cache: 'no-store',
      signal: controller.signal,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch (error) {
    if (timeout.fired) throw new ApiError(0, 'TIMEOUT');
    if (options.signal?.aborted === true) throw error;
    throw new ApiError(0, 'NETWORK');
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }

  if (response.status === 304 && options.ifNoneMatch !== undefined) return response;
  if (!response.ok) {
    let body: Partial<ApiErrorBody> = {};
    try {
      body = (await response.json()) as Partial<ApiErrorBody>;
    } catch {
      // Not JSON (a proxy's error page): the status alone says what happened.
    }
    throw new ApiError(response.status, isErrorCode(body.code) ? body.code : 'INTERNAL', body);
  }
  return response;
}

/**
 * A GET that a screen polls, made conditional: it remembers the ETag of the last 200 for the id
 * and sends it as `If-None-Match`; on `304 Not Modified` it gives back the very answer it kept
 * (the same object: nothing downstream changes, useFetchState renders nothing), so `toAnswer`,
 * which turns a 200's body into what is kept, runs only when a 200 arrives. A 200 without an
 * ETag is kept without one, and the next call asks without If-None-Match. A 304 to a call that
 * sent none (nothing kept) is an ApiError like any failed call; the next call asks again.
 */
export function versionedPoller<T>(
  pathOf: (id: string) => string,
  /** Takes the 200's JSON body as the call's response type says it is. */
  toAnswer: (body: unknown) => T,
): (id: string, signal?: AbortSignal) => Promise<T> {
  let kept: { readonly id: string; readonly etag: string; readonly answer: T } | undefined;
  return async (id, signal) => {
    const known = kept?.id === id ? kept : undefined;
    const response = await send(
      pathOf(id),
      { ifNoneMatch: known?.etag, ...(signal ? { signal } : {}) },
      'application/json',
    );
    if (known !== undefined && response.status === 304) return known.answer;
    const answer = toAnswer(await response.json());
    const etag = response.headers.get('etag');
    kept = etag === null ? undefined : { id, etag, answer };
    return answer;
  };
}
