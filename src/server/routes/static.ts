/**
 * Serves the built mini-app: hashed files under /assets/ are cached for a year as immutable,
 * everything else (index.html above all) is revalidated on every load so a deploy reaches
 * customers at once. Client routes (/currencies, /order/…) fall back to index.html.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** Registers the static files when `dir` holds a built app; returns whether it does. */
export async function registerStatic(
  app: FastifyInstance,
  dir: string | undefined,
): Promise<boolean> {
  if (dir === undefined || !fs.existsSync(path.join(dir, 'index.html'))) return false;
  const assetsDir = `${path.join(dir, 'assets')}${path.sep}`;
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    index: false,
    wildcard: true,
    cacheControl: false,
    setHeaders(res, filePath) {
      res.setHeader('cache-control', filePath.startsWith(assetsDir) ? IMMUTABLE : REVALIDATE);
    },
  });
  app.get('/', (_request, reply) => sendIndex(reply));
  return true;
}

export function sendIndex(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', REVALIDATE).sendFile('index.html');
}

/** A GET for a page of the app (not an API call, not a file with an extension). */
export function isClientRoute(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0] ?? '';
  return !pathname.startsWith('/api/') && pathname !== '/api' && !/\.[a-z0-9]+$/i.test(pathname);
}
