/**
 * The rates module's calls: a customer's quote at today's rate (`GET /api/rates/calculate`) and the cities with an office that takes a currency, which need no
 * identity. The operators set rates and spreads from the console (operator/operator-routes.ts,
 * over rates.ts).
 */
import type { FastifyPluginCallback } from 'fastify';
import { API_PATHS, type CitiesResponse, type RateResponse } from '../../shared/api';
import { RateQuerySchema } from '../../shared/schemas/queries';
import { ok, type ValibotTypeProvider } from '../platform/http/contract';
import { CitiesResponseSchema, RateResponseSchema } from '../../shared/schemas/responses';
import { CurrencyParamsSchema } from '../../shared/schemas/params';
import { customerCalls } from '../platform/identity/identity-plugin';
import { citiesTaking } from './cities';
import { currentRate } from './rates';

export const rateRoutes: FastifyPluginCallback = (plain, _options, done) => {
  const app = plain.withTypeProvider<ValibotTypeProvider>();
  const tags = ['rates'];
  app.get(
    API_PATHS.cities.pattern,
    { schema: { tags, params: CurrencyParamsSchema, response: ok(CitiesResponseSchema) } },
    async (request, reply): Promise<CitiesResponse> => {
      const cities = await citiesTaking(app, request.params.currencyCode);
      void reply.header('cache-control', 'public, max-age=300');
      return cities;
    },
  );
  void app.register((plainQuotes, _quoteOptions, registered) => {
    const quotes = plainQuotes.withTypeProvider<ValibotTypeProvider>();
    customerCalls(quotes);
    quotes.get(
      API_PATHS.rate,
      { schema: { tags, querystring: RateQuerySchema, response: ok(RateResponseSchema) } },
      async (request): Promise<RateResponse> => {
        const rate = await currentRate(app, request.query);
        return rate;
      },
    );
    registered();
  });
  done();
};
