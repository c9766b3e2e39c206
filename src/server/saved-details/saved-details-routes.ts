/**
 * A customer's saved details (src/shared/api.ts, `API_PATHS.savedDetails`), every call behind
 * `authenticate` and on the caller's own only. Each write answers the whole list as it now is,
 * so the app shows what the server keeps; writes count against the caller's limit of the minute.
 */
import type { FastifyPluginCallback } from 'fastify';
import { API_PATHS } from '../../shared/api';
import {
  RenameSavedSchema,
  SaveCardSchema,
  SaveWalletSchema,
  SavedDetailsResponseSchema,
  SavedItemParamsSchema,
  type SavedDetailsResponse,
} from '../../shared/schemas/saved-details';
import { created, ok, type ValibotTypeProvider } from '../platform/http/contract';
import { customerCalls } from '../platform/identity/identity-plugin';
import { deleteSaved, renameSaved, saveCard, saveWallet, savedDetails } from './saved-details';

export const savedDetailsRoutes: FastifyPluginCallback = (plain, _options, done) => {
  const app = plain.withTypeProvider<ValibotTypeProvider>();
  customerCalls(app);
  const tags = ['saved details'];
  const answer = ok(SavedDetailsResponseSchema);
  const write = { preValidation: app.callLimit('action') };
  app.get(
    API_PATHS.savedDetails,
    { schema: { tags, response: answer } },
    (request): Promise<SavedDetailsResponse> => savedDetails(app.db, request.caller.telegramId),
  );
  app.post(
    API_PATHS.savedWallets,
    {
      schema: { tags, body: SaveWalletSchema, response: created(SavedDetailsResponseSchema) },
      ...write,
    },
    async (request, reply): Promise<SavedDetailsResponse> => {
      const saved = await saveWallet(app, request.caller.telegramId, request.body);
      void reply.status(201);
      return saved;
    },
  );
  app.post(
    API_PATHS.savedCards,
    {
      schema: { tags, body: SaveCardSchema, response: created(SavedDetailsResponseSchema) },
      ...write,
    },
    async (request, reply): Promise<SavedDetailsResponse> => {
      const saved = await saveCard(app, request.caller.telegramId, request.body);
      void reply.status(201);
      return saved;
    },
  );
  const item = `${API_PATHS.savedDetails}/:kind/:id`;
  app.patch(
    item,
    {
      schema: { tags, params: SavedItemParamsSchema, body: RenameSavedSchema, response: answer },
      ...write,
    },
    (request): Promise<SavedDetailsResponse> =>
      renameSaved(app, request.caller.telegramId, request.params, request.body.label),
  );
  app.delete(
    item,
    { schema: { tags, params: SavedItemParamsSchema, response: answer }, ...write },
    (request): Promise<SavedDetailsResponse> =>
      deleteSaved(app, request.caller.telegramId, request.params),
  );
  done();
};
