/**
 * The rates module's calls: a customer's quote at today's rate (spec section 7,
 * `GET /api/rates/calculate`) and the cities with an office that takes a currency, which need no
 * identity. The operators set rates and spreads from the console (operator/operator-routes.ts,
 * over rates.ts).
 */
import type { FastifyPluginCallback } from 'fastify';
import { API_PATHS, type CitiesResponse, type RateResponse } from '../../shared/api';
import { RateQuerySchema } from '../../shared/schemas/queries';
import { noStore } from '../platform/http/cache-control';
import { parseWith } from '../platform/http/validation';
import { customerCalls } from '../platform/identity/identity-plugin';
import { citiesTaking } from './cities';
import { currentRate } from './rates';

export const rateRoutes: FastifyPluginCallback = (app, _options, done) => {
  app.get<{ Params: { currencyCode: string } }>(
    '/api/cities/:currencyCode',
    async (request, reply): Promise<CitiesResponse> => {
      const cities = await citiesTaking(app, request.params.currencyCode);
      void reply.header('cache-control', 'public, max-age=300');
      return cities;
    },
  );
  void app.register((quotes, _quoteOptions, registered) => {
    customerCalls(quotes);
    quotes.get(API_PATHS.rate, async (request, reply): Promise<RateResponse> => {
      const rate = await currentRate(app, parseWith(RateQuerySchema, request.query));
      noStore(reply);
      return rate;
    });
    registered();
  });
  done();
};
