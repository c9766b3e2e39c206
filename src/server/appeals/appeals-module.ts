/** The appeals module: a customer's appeal of an order and a senior operator's decision. */
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
