/**
 * The chat module: each order's conversation between its customer and the operators (chat.ts),
 * the customer's calls and the console's (chat-routes.ts). Its files are kept under RECEIPTS_DIR
 * beside the receipts, whose housekeeping keeps them too (receipts/housekeeping.ts). The unread
 * counts the order answers carry are read by orders/unread.ts.
 */
import fp from 'fastify-plugin';
import { compressedRoutes } from '../platform/http/compression';
import type { PollLane } from '../platform/http/poll-lane';
import type { KeptChatState } from './chat';
import { CUSTOMER_CHAT_POLL, customerChatRoutes, operatorChatRoutes } from './chat-routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** The chat states read, each with the order's version it was read at (chat.ts). */
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
