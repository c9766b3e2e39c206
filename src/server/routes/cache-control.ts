/** Cache headers of the API's answers. */
import type { FastifyReply } from 'fastify';

/** Answers that change from one call to the next (a status, a list, a quote) are never cached. */
export function noStore(reply: FastifyReply): void {
  void reply.header('cache-control', 'no-store');
}
