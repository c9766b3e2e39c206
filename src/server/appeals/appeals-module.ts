/**
 * The appeals module (appeals.ts): the customer's appeal of an order and a senior operator's
 * decision of it (appeal-routes.ts). The order's status answer carries its appeal
 * (orders/order-view.ts), the console's queue lists the open ones first (operator/queue.ts), the
 * sweeper leaves an order under appeal to it (orders/sweeper.ts), and the transition lets only its
 * decision end such an order (orders/transition.ts).
 */
import fp from 'fastify-plugin';
import { compressedRoutes } from '../platform/http/compression';
import { customerAppealRoutes, operatorAppealRoutes } from './appeal-routes';

export const appealsModule = fp(
  (app, _options, done) => {
    void app.register(compressedRoutes(customerAppealRoutes));
    void app.register(compressedRoutes(operatorAppealRoutes));
    done();
  },
  { name: 'appeals', dependencies: ['context', 'auth', 'call-limits'] },
);
