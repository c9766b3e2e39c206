/** Cache headers of the API's answers. */
import type { FastifyReply } from 'fastify';

/** The `Cache-Control` of answers that change from one call to the next (a status, a list, a quote). */
export const NO_STORE = 'no-store';

/** Answers that change from one call to the next are never cached. */
export function noStore(reply: FastifyReply): void {
  void reply.header('cache-control', NO_STORE);
}

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
