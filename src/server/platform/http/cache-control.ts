/** For every answer whose route sets no other: a status, a list, a quote changes between calls. */
export const NO_STORE = 'no-store';

/** Names `etag` (one of a list, weak or strong, or `*`): it then gets 304 and no body. */
export function holdsVersion(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim().replace(/^W\//, '');
    return value === '*' || value === etag;
  });
}
