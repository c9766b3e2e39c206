/**
 * JSON answers over COMPRESS_ABOVE_BYTES compressed, per module scope (the app's files are
 * compressed at build time; a hot small route says `compress: false`). Request bodies are never
 * inflated: a small compressed body could grow past every limit after it was checked.
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

export function compressedRoutes(routes: FastifyPluginCallback): FastifyPluginAsync {
  return async (scope) => {
    await scope.register(compressionPlugin);
    await scope.register(routes);
  };
}
