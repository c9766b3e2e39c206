/**
 * The bot token never reaches a log line or a stored error (whoever reads it could drive the
 * bot): grammY's errors carry `…/bot<TOKEN>/…`, so every writer passes through this one rule.
 */

/** BotFather's shape, with some slack so that a differently sized token is caught. */
const BOT_TOKEN = /\d{5,}(?::|%3A)[A-Za-z0-9_-]{30,}/gi;

export const TOKEN_PLACEHOLDER = '<token>';

export function redactToken(text: string): string {
  return text.replace(BOT_TOKEN, TOKEN_PLACEHOLDER);
}

const MAX_DEPTH = 6;

function isErrorLike(value: unknown): value is Error {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

function redactValue(value: unknown, depth: number, seen: Set<object>): unknown {
  if (typeof value === 'string') return redactToken(value);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value) || depth >= MAX_DEPTH) return '[…]';
  if (isErrorLike(value)) return serialize(value, depth, seen);
  seen.add(value);
  const out: unknown = Array.isArray(value)
    ? value.map((item) => redactValue(item, depth + 1, seen))
    : Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, redactValue(item, depth + 1, seen)]),
      );
  seen.delete(value);
  return out;
}

interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

function serialize(error: Error, depth: number, seen: Set<object>): SerializedError {
  seen.add(error);
  const out: SerializedError = {
    type: error.constructor.name === 'Object' ? error.name : error.constructor.name,
    message: redactToken(error.message),
    stack: redactToken(error.stack ?? ''),
  };
  // The error's own fields (grammY's HttpError keeps the fetch error in `error`), then its cause.
  for (const [key, value] of Object.entries(error)) {
    if (!(key in out)) out[key] = redactValue(value, depth + 1, seen);
  }
  if (error.cause !== undefined) out['cause'] = redactValue(error.cause, depth + 1, seen);
  if (error instanceof AggregateError) {
    out['errors'] = redactValue(error.errors, depth + 1, seen);
  }
  seen.delete(error);
  return out;
}

export function serializeError(error: Error): SerializedError {
  // Typed as Fastify types it; anything can be logged under `err`, though.
  if (!isErrorLike(error)) return serializeLogged(error) as SerializedError;
  return serialize(error, 0, new Set());
}

/** The same for a value logged under any other key (`error`, which may not be an Error). */
export function serializeLogged(value: unknown): unknown {
  return redactValue(value, 0, new Set());
}
