/**
 * The rates module: the base rates and spreads (rates.ts: read, quoted, set by operators), the
 * cities and offices customers choose from (cities.ts), and their calls (rates-routes.ts).
 */
import fp from 'fastify-plugin';
import { compressedRoutes } from '../platform/http/compression';
import { rateRoutes } from './rates-routes';

export const ratesModule = fp(
  (app, _options, done) => {
    void app.register(compressedRoutes(rateRoutes));
    done();
  },
  { name: 'rates', dependencies: ['context', 'auth'] },
);
