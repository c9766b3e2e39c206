/**
 * The API's answers compressed when it pays : a JSON answer over COMPRESS_ABOVE_BYTES (a
 * page of history, the console's queue) goes in brotli or gzip, whichever the client takes, at a
 * level quick enough to do per request. Registered in the scope of each module's routes only: the app's files are
 * compressed once, at build time, and sent as they are (platform/http/web-app.ts). A
 * route too small and too hot to be worth the look, like the status poll, says `compress: false`
 * in its config. Request bodies are never inflated: a small compressed body could grow past every
 * body limit after it was checked.
 */
import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyPluginAsync, FastifyPluginCallback } from 'fastify';
import fp from 'fastify-plugin';

/** Below this an answer fits a packet or two anyway: compressing would cost more than it saves. */
export const COMPRESS_ABOVE_BYTES = 1024;

export const compressionPlugin = fp(
  async (app) => {
    await app.register(fastifyCompress, {
      global: true,
      globalDecompression: false,
      threshold: COMPRESS_ABOVE_BYTES,
      encodings: ['br', 'gzip'],
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
      zlibOptions: { level: 6 },
    });
  },
  { name: 'compression' },
);

/** A module's routes, in a scope of their own whose answers are compressed. */
export function compressedRoutes(routes: FastifyPluginCallback): FastifyPluginAsync {
  return async (scope) => {
    await scope.register(compressionPlugin);
    await scope.register(routes);
  };
}
