/**
 * The chain readers join the server context: one per network read from a node, built once per app
 * by the chain module (chain/chain-module.ts; none: every network is checked by hand). Declared
 * here, as Fastify's decorators are, so that the platform's context knows nothing of the chains
 * and every service handed the context reads them as `ctx.chain`.
 */
import type { ChainReaders } from './readers/chain-reader';

declare module '../platform/context' {
  interface ServerContext {
    readonly chain: ChainReaders;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The chain readers, one per network with a node (chain/readers/chain-readers.ts). */
    readonly chain: ChainReaders;
  }
}
