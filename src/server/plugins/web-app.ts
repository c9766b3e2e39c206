/**
 * The built mini-app and the answer to every unknown path. Hashed files under /assets/ are cached
 * for a year as immutable, everything else (index.html above all) is revalidated on every load so
 * a deploy reaches customers at once. Client routes (/currencies, /order/…) fall back to
 * index.html; any other unknown path is 404 NOT_FOUND.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorBody } from './errors';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** The app is served when `dir` holds a built one; otherwise the server answers the API alone. */
export const webAppPlugin = fp<{ readonly dir: string | undefined }>(
  async (app, { dir }) => {
    const servesApp = dir !== undefined && fs.existsSync(path.join(dir, 'index.html'));
    if (servesApp) {
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
    }
    app.setNotFoundHandler((request, reply) => {
      if (servesApp && isClientRoute(request)) return sendIndex(reply);
      return reply.status(404).send(errorBody(request, 'NOT_FOUND'));
    });
  },
  { name: 'web-app', dependencies: ['errors'] },
);

function sendIndex(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', REVALIDATE).sendFile('index.html');
}

/** A GET for a page of the app (not an API call, not a file with an extension). */
function isClientRoute(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0] ?? '';
  return !pathname.startsWith('/api/') && pathname !== '/api' && !/\.[a-z0-9]+$/i.test(pathname);
}
