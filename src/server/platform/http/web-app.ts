/**
 * The built mini-app and the answer to every unknown path. Hashed files under /assets/ are cached
 * for a year as immutable, everything else (index.html above all) is revalidated on every load so
 * a deploy reaches customers at once. Client routes (/currencies, /order/…) fall back to
 * index.html; any other unknown path is 404 NOT_FOUND.
 *
 * Every file goes compressed: the build writes brotli and gzip copies beside each one
 * (vite.config.ts), and @fastify/static's preCompressed mode sends the copy the browser takes,
 * with `Vary: Accept-Encoding` for the caches on the way.
 *
 * index.html carries the app's start-up configuration, so the app renders without
 * first asking `GET /api/app-config`. The configuration is constant while the process runs: the
 * page is read, filled in and compressed once, at start-up, and served from memory with an ETag
 * of its own (what @fastify/static gave the file), so a reload still revalidates with a 304.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { appConfigElement } from '../../../shared/app-config';
import { appConfigOf } from '../config/app-config';
import { holdsVersion } from './cache-control';
import { errorBody } from './errors-plugin';
import { securePage } from './security-headers';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** What the page is sent in, the browser's preference first, brotli over gzip on a tie. */
const ENCODINGS = new Negotiator<'br' | 'gzip'>({ supportedValues: ['br', 'gzip'] });

/** The page as it is and in each encoding, compressed once at start-up, as hard as they go. */
function compressedCopies(html: string): Record<'identity' | 'br' | 'gzip', Buffer> {
  const identity = Buffer.from(html);
  return {
    identity,
    br: brotliCompressSync(identity, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
    }),
    gzip: gzipSync(identity, { level: constants.Z_BEST_COMPRESSION }),
  };
}

/** The app is served when `dir` holds a built one; otherwise the server answers the API alone. */
export const webAppPlugin = fp<{ readonly dir: string | undefined }>(
  async (app, { dir }) => {
    const servesApp = dir !== undefined && fs.existsSync(path.join(dir, 'index.html'));
    let sendIndex: (request: FastifyRequest, reply: FastifyReply) => FastifyReply = () => {
      throw new Error('no index.html to send');
    };
    if (servesApp) {
      const html = withAppConfig(
        fs.readFileSync(path.join(dir, 'index.html'), 'utf8'),
        appConfigElement(appConfigOf(app.config)),
      );
      const etag = `"${createHash('sha256').update(html).digest('base64url')}"`;
      const page = compressedCopies(html);
      sendIndex = (request, reply) => {
        securePage(request, reply);
        void reply
          .header('cache-control', REVALIDATE)
          .header('etag', etag)
          .header('vary', 'accept-encoding');
        if (holdsVersion(request.headers['if-none-match'], etag)) return reply.status(304).send();
        const encoding = ENCODINGS.negotiate(request.headers['accept-encoding'] ?? '');
        if (encoding !== null) void reply.header('content-encoding', encoding);
        return reply
          .type('text/html; charset=utf-8')
          .send(encoding === null ? page.identity : page[encoding]);
      };
      const assetsDir = `${path.join(dir, 'assets')}${path.sep}`;
      await app.register(fastifyStatic, {
        root: dir,
        prefix: '/',
        index: false,
        wildcard: true,
        cacheControl: false,
        preCompressed: true,
        setHeaders(res, filePath) {
          res.setHeader('cache-control', filePath.startsWith(assetsDir) ? IMMUTABLE : REVALIDATE);
          res.setHeader('vary', 'accept-encoding');
        },
      });
      app.get('/', sendIndex);
      // Before the file itself, which carries no configuration.
      app.get('/index.html', sendIndex);
    }
    app.setNotFoundHandler((request, reply) => {
      if (servesApp && isClientRoute(request)) return sendIndex(request, reply);
      return reply.status(404).send(errorBody(request, 'NOT_FOUND'));
    });
  },
  { name: 'web-app', dependencies: ['context', 'errors'] },
);

/**
 * The page with `element` at the end of its head, or of the page when it has no `</head>`: either
 * way it is parsed before the app's module script runs, which waits for the whole document.
 */
function withAppConfig(html: string, element: string): string {
  const headEnd = html.indexOf('</head>');
  return headEnd === -1
    ? `${html}${element}`
    : `${html.slice(0, headEnd)}${element}${html.slice(headEnd)}`;
}

/** A GET for a page of the app (not an API call, not a file with an extension). */
function isClientRoute(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0] ?? '';
  return !pathname.startsWith('/api/') && pathname !== '/api' && !/\.[a-z0-9]+$/i.test(pathname);
}
