/**
 * The order chat's calls, the customer's and the console's: reading answers 304 while nothing was
 * written; a write's body (a file as a data URL) is read only once the caller may write there.
 */
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { ChatMessageBodySchema } from '../../shared/schemas/order-actions';
import { ChatAttachmentParamsSchema, OrderParamsSchema } from '../../shared/schemas/params';
import {
  OperatorChatMessageSchema,
  OperatorChatResponseSchema,
} from '../../shared/schemas/operator-responses';
import { ChatMessageSchema, ChatResponseSchema } from '../../shared/schemas/responses';
import { holdsVersion } from '../platform/http/cache-control';
import {
  created,
  described,
  documentedAs,
  ok,
  type ContractInstance,
  type ValibotTypeProvider,
} from '../platform/http/contract';
import { orderIdParam } from '../platform/http/validation';
import { customerCalls } from '../platform/identity/identity-plugin';
import { POLLED } from '../platform/logging/request-log';
import { consoleCalls } from '../orders';
import { readsFileBodies, sendDownload } from '../receipts';
import { ReceivedDataUrl } from '../receipts';
import type { LanePoll } from '../platform/http/poll-lane';
import { checkChatOrder, openAttachment, readChat, writeMessage, type ChatParty } from './chat';
import { toChatMessage, toOperatorChatMessage } from './chat-view';
import { API_PATHS } from '../../shared/api';
import { OPERATOR_PATHS } from '../../shared/operator-api';

const ReceivedMessageSchema = documentedAs(
  v.looseObject({
    ...ChatMessageBodySchema.entries,
    fileData: v.optional(v.instance(ReceivedDataUrl)),
  }),
  ChatMessageBodySchema,
);

function chatAnswers(schema: v.GenericSchema) {
  return {
    ...ok(schema),
    304: { description: 'Not modified: the chat the reader holds (If-None-Match) is current' },
  };
}

const ATTACHMENT_FILE = described(
  "The attachment's file (image/jpeg, image/png, image/webp, image/heic or application/pdf)",
);

interface SideRoutes {
  readonly paths: { readonly chat: string; readonly attachment: string };
  readonly tags: readonly string[];
  readonly party: (request: FastifyRequest) => ChatParty;
  readonly chatSchema: v.GenericSchema;
  readonly messageSchema: v.GenericSchema;
  readonly view: typeof toChatMessage | typeof toOperatorChatMessage;
  /** Identity and limits before the body is read, the order's check after them. */
  readonly beforeBody: readonly ((request: FastifyRequest) => Promise<void>)[];
}

function sideRoutes(app: ContractInstance, side: SideRoutes): void {
  const tags = [...side.tags];
  app.get(
    side.paths.chat,
    {
      schema: { tags, params: OrderParamsSchema, response: chatAnswers(side.chatSchema) },
      ...POLLED,
    },
    async (request, reply): Promise<FastifyReply> => {
      const read = await readChat(app, side.party(request), request.params.id, (etag) =>
        holdsVersion(request.headers['if-none-match'], etag),
      );
      void reply.header('etag', read.etag);
      if (read.messages === null) return reply.status(304).send();
      return reply.send({
        verificationCode: read.verificationCode,
        messages: read.messages.map(side.view),
      });
    },
  );
  app.post(
    side.paths.chat,
    {
      schema: {
        tags,
        params: OrderParamsSchema,
        body: ReceivedMessageSchema,
        response: created(side.messageSchema),
      },
      onRequest: [
        ...side.beforeBody,
        async (request: FastifyRequest) => {
          await checkChatOrder(app, side.party(request), orderIdParam(request.params));
        },
      ],
    },
    async (request, reply): Promise<FastifyReply> => {
      const message = await writeMessage(app, side.party(request), request.params.id, request.body);
      return reply.status(201).send(side.view(message));
    },
  );
  app.get(
    side.paths.attachment,
    { schema: { tags, params: ChatAttachmentParamsSchema, response: ATTACHMENT_FILE } },
    async (request, reply) => {
      const { id, messageId } = request.params;
      return sendDownload(reply, await openAttachment(app, side.party(request), id, messageId));
    },
  );
}

/**
 * The lane answers an unchanged chat's 304 (the other side's messages marked read, as the route
 * does); a chat that moved is left to the route, which reads it once per change.
 */
export const CUSTOMER_CHAT_POLL: LanePoll = {
  route: API_PATHS.chat.pattern,
  answer: async (app, customerId, orderId, ifNoneMatch) => {
    const party: ChatParty = { side: 'customer', telegramId: customerId };
    const read = await readChat(app, party, orderId, (etag) => holdsVersion(ifNoneMatch, etag));
    return read.messages === null
      ? { statusCode: 304, headers: ['etag', read.etag], body: null }
      : undefined;
  },
};

export const customerChatRoutes: FastifyPluginCallback = (plain, _options, done) => {
  const app = plain.withTypeProvider<ValibotTypeProvider>();
  customerCalls(app);
  readsFileBodies(app);
  sideRoutes(app, {
    paths: { chat: API_PATHS.chat.pattern, attachment: API_PATHS.chatAttachment.pattern },
    tags: ['orders'],
    party: (request) => ({ side: 'customer', telegramId: request.caller.telegramId }),
    chatSchema: ChatResponseSchema,
    messageSchema: ChatMessageSchema,
    view: toChatMessage,
    beforeBody: [app.identifiedBeforeBody, app.callLimit('chat')],
  });
  done();
};

export const operatorChatRoutes: FastifyPluginCallback = (plain, _options, done) => {
  const app = plain.withTypeProvider<ValibotTypeProvider>();
  consoleCalls(app);
  readsFileBodies(app);
  sideRoutes(app, {
    paths: {
      chat: OPERATOR_PATHS.chat.pattern,
      attachment: OPERATOR_PATHS.chatAttachment.pattern,
    },
    tags: ['operator'],
    party: (request) => ({ side: 'operator', telegramId: request.caller.telegramId }),
    chatSchema: OperatorChatResponseSchema,
    messageSchema: OperatorChatMessageSchema,
    view: toOperatorChatMessage,
    beforeBody: [],
  });
  done();
};
