/** A customer's saved details: each write answers the whole list, so the app shows what is kept. */
import type { FastifyPluginCallback } from 'fastify';
import { API_PATHS } from '../../shared/api';
import {
  RenameSavedSchema,
  SaveCardSchema,
  SaveOrderCardSchema,
  SaveWalletSchema,
  SavedDetailsResponseSchema,
  SavedItemParamsSchema,
  type SavedDetailsResponse,
} from '../../shared/schemas/saved-details';
import type * as v from 'valibot';
import type { ServerContext } from '../platform/context';
import { created, ok, type ValibotTypeProvider } from '../platform/http/contract';
import { customerCalls } from '../platform/identity/identity-plugin';
import {
  deleteSaved,
  renameSaved,
  saveCard,
  saveOrderCard,
  saveWallet,
  savedDetails,
} from './saved-details';

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
  function saving<S extends v.GenericSchema>(
    path: string,
    schema: S,
    save: (
      ctx: ServerContext,
      userId: number,
      body: v.InferOutput<S>,
    ) => Promise<SavedDetailsResponse>,
  ): void {
    app.post(
      path,
      { schema: { tags, body: schema, response: created(SavedDetailsResponseSchema) }, ...write },
      async (request, reply): Promise<SavedDetailsResponse> => {
        const saved = await save(app, request.caller.telegramId, request.body);
        void reply.status(201);
        return saved;
      },
    );
  }
  saving(API_PATHS.savedWallets, SaveWalletSchema, saveWallet);
  saving(API_PATHS.savedCards, SaveCardSchema, saveCard);
  saving(API_PATHS.savedCardFromOrder, SaveOrderCardSchema, saveOrderCard);
  const item = API_PATHS.savedItem.pattern;
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
