/**
 * The chat module: each order's conversation between its customer and the operators (chat.ts),
 * the customer's calls and the console's (chat-routes.ts). Its files are kept under RECEIPTS_DIR
 * beside the receipts, whose housekeeping keeps them too (receipts/housekeeping.ts). The unread
 * counts the order answers carry are read by chat/unread.ts.
 */
import fp from 'fastify-plugin';
import { compressedRoutes } from '../platform/http/compression';
import { customerChatRoutes, operatorChatRoutes } from './chat-routes';

export const chatModule = fp(
  (app, _options, done) => {
    void app.register(compressedRoutes(customerChatRoutes));
    void app.register(compressedRoutes(operatorChatRoutes));
    done();
  },
  { name: 'chat', dependencies: ['context', 'auth', 'call-limits'] },
);
