/**
 * The chat module: each order's conversation (chat.ts) and its calls (chat-routes.ts). Its files
 * are kept under RECEIPTS_DIR, whose housekeeping keeps them too (receipts/housekeeping.ts).
 */
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
  // The orders' versions of their status answers say when a chat's state kept is current.
  { name: 'chat', dependencies: ['context', 'auth', 'call-limits', 'orders'] },
);
