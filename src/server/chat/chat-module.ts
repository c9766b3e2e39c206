/** The chat module: each order's conversation; its files are kept as receipts' are. */
import fp from 'fastify-plugin';
import { compressedRoutes } from '../platform/http/compression';
import type { PollLane } from '../platform/http/poll-lane';
import type { KeptChatState } from './chat';
import { CUSTOMER_CHAT_POLL, customerChatRoutes, operatorChatRoutes } from './chat-routes';

declare module 'fastify' {
  interface FastifyInstance {
    readonly chatStates: Map<string, KeptChatState>;
  }
}

export const chatModule = fp<{ readonly lane?: PollLane }>(
  (app, options, done) => {
    app.decorate('chatStates', new Map<string, KeptChatState>());
    // An open chat polled while nothing moves is answered as cheaply as a status poll.
    options.lane?.poll(CUSTOMER_CHAT_POLL);
    void app.register(compressedRoutes(customerChatRoutes));
    void app.register(compressedRoutes(operatorChatRoutes));
    done();
  },
  { name: 'chat', dependencies: ['context', 'auth', 'call-limits', 'orders'] },
);
