/**
 * The one GET every rate source makes, every way it can fail turned into a SourceFault, so that a
 * reader only parses a 2xx body.
 */
import { parseRetryAfter } from '../../platform/http/retry-after';
import { SourceFault } from './source';

export const DEFAULT_SOURCE_TIMEOUT_MS = 5_000;

/** Some public APIs (cbr.ru's filter among them) refuse a request that names no client. */
const USER_AGENT = 'stablecoin-exchange-rates/1.0';

/** A price answer is a few kilobytes; anything past this is not the documented answer. */
const MAX_BODY_BYTES = 1_000_000;

export interface GetOptions {
  readonly signal: AbortSignal;
  readonly timeoutMs?: number | undefined;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The body of a GET. A timeout, ours or the caller's, is `timeout`; another abort of the caller's
 * (the server stopping: not the source's fault) is rethrown as it is.
 */
export async function getBytes(url: string, options: GetOptions): Promise<Uint8Array> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SOURCE_TIMEOUT_MS;
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]);
  try {
    const response = await fetch(url, {
      headers: { accept: '*/*', 'user-agent': USER_AGENT, ...options.headers },
      signal,
      redirect: 'follow',
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw statusFault(response);
    }
    return await readCapped(response);
  } catch (error) {
    if (error instanceof SourceFault) throw error;
    if (options.signal.aborted && !isTimeout(options.signal.reason)) throw options.signal.reason;
    if (signal.aborted) throw new SourceFault('timeout', `no answer within ${timeoutMs} ms`);
    throw new SourceFault('unreachable', `could not reach the source: ${describe(error)}`);
  }
}

/** The body of a GET parsed as UTF-8 JSON; anything else is `malformed`. */
export async function getJson(url: string, options: GetOptions): Promise<unknown> {
  const bytes = await getBytes(url, {
    ...options,
    headers: { accept: 'application/json', ...options.headers },
  });
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
  } catch {
    throw new SourceFault('malformed', 'the answer is not JSON');
  }
}

function statusFault(response: Response): SourceFault {
  const { status } = response;
  if (status === 429 || status === 503) {
    return new SourceFault(
      'rate_limited',
      `HTTP ${status}`,
      parseRetryAfter(response.headers.get('retry-after')),
    );
  }
  return new SourceFault('http_status', `HTTP ${status}`);
}

async function readCapped(response: Response): Promise<Uint8Array> {
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new SourceFault('malformed', `the answer is over ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function isTimeout(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === 'TimeoutError';
}

/** fetch's "fetch failed" says little: the cause (ECONNREFUSED, ENOTFOUND…) says what. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause: unknown = error.cause;
  if (cause instanceof Error) return `${error.message} (${cause.message})`;
  return error.message;
}
