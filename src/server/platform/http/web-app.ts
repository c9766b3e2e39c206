/**
 * The built mini-app: hashed /assets/ cached a year, everything else revalidated on every load so
 * a deploy reaches customers at once; client routes fall back to index.html. Files go
 * pre-compressed. index.html carries the app's configuration (no `GET /api/app-config` first),
 * filled in and compressed once at start-up, with an ETag of its own so a reload still gets 304.
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

/** The browser's preference first, brotli over gzip on a tie. */
const ENCODINGS = new Negotiator<'br' | 'gzip'>({ supportedValues: ['br', 'gzip'] });

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

/** Either way it is parsed before the app's module script, which waits for the whole document. */
function withAppConfig(html: string, element: string): string {
  const headEnd = html.indexOf('</head>');
  return headEnd === -1
    ? `${html}${element}`
    : `${html.slice(0, headEnd)}${element}${html.slice(headEnd)}`;
}

function isClientRoute(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0] ?? '';
  return !pathname.startsWith('/api/') && pathname !== '/api' && !/\.[a-z0-9]+$/i.test(pathname);
}
