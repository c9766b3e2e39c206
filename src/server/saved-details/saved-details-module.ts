/** The saved-details module: a customer's wallets and cards kept for their next orders. */
import fp from 'fastify-plugin';
import { compressedRoutes } from '../platform/http/compression';
import { savedDetailsRoutes } from './saved-details-routes';

export const savedDetailsModule = fp(
  (app, _options, done) => {
    void app.register(compressedRoutes(savedDetailsRoutes));
    done();
  },
  { name: 'saved-details', dependencies: ['context', 'auth', 'call-limits'] },
);
