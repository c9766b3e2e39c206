/** Cache headers of the API's answers. */

/**
 * The `Cache-Control` of every answer whose route sets no other (platform/http/request-wide.ts):
 * a status, a list, a quote change from one call to the next.
 */
export const NO_STORE = 'no-store';

/**
 * Whether a request's `If-None-Match` names the version `etag` of what it asks for (one of a
 * list, weak or strong, or `*`): it then gets 304 and no body.
 */
export function holdsVersion(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim().replace(/^W\//, '');
    return value === '*' || value === etag;
  });
}
