/** `ctx.chain`, declared here so that the platform's context knows nothing of the chains. */
import type { ChainReaders } from './readers/chain-reader';

declare module '../platform/context' {
  interface ServerContext {
    readonly chain: ChainReaders;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    readonly chain: ChainReaders;
  }
}
