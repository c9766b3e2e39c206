/**
 * Retry-After, as a rate-limited public API sends it, for every client of one (the chain readers,
 * the rate sources).
 */

/**
 * Parses Retry-After (RFC 9110: delay-seconds or an HTTP date) into milliseconds from `now`;
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
