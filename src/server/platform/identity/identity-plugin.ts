/**
 * Identity as hooks, known before a body is read: `authenticate` (the customer), `operatorOnly`
 * (403 to anyone else; in demo mode each demo customer over their own orders) and
 * `recentOperator` (fresh init data for the writes that move money). A route file adds them to its
 * whole scope, so none of its routes can forget them.
 */
import type {
  FastifyInstance,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
  preValidationHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { createAuthenticator, type Caller } from './authenticator';
import { isDemoCustomerId } from './demo-session';
import { isDemoMode } from '../config/config';
import { DEMO_BOT_TOKEN, type CallerSource } from './telegram-auth';
import { AppError } from '../errors';
import type { ErrorCode } from '../../../shared/errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** From the header or the query; a call with a body and neither waits for authenticateBody. */
    authenticate: onRequestHookHandler;
    /** preValidation after `authenticate`: the customer of the body's `telegramInitData`. */
    authenticateBody: preValidationHookHandler;
    /** Throws AUTH_* and counts nothing: the poll lane hands a refusal to `authenticate`. */
    verifyCaller: (source: CallerSource) => Caller;
    /** For a route that reads a large body: AUTH_MISSING unless the caller is known already. */
    identifiedBeforeBody: (request: FastifyRequest) => Promise<void>;
    operatorOnly: (request: FastifyRequest) => Promise<void>;
    /** OPERATOR_REOPEN when the init data is older than OPERATOR_INIT_DATA_MAX_AGE. */
    recentOperator: (request: FastifyRequest) => Promise<void>;
    isOperator: (telegramId: number) => boolean;
    /** Null (everyone's) for OPERATOR_IDS; a demo customer's own, so demo visitors never meet. */
    consoleScope: (telegramId: number) => number | null;
    /** Writes the customers seen so far now rather than within RECORD_FLUSH_MS (for tests). */
    recordSeenCustomers: () => Promise<void>;
  }
  interface FastifyRequest {
    /** Read only by routes in a scope that runs `authenticate` or `operatorOnly`. */
    caller: Caller;
    identified: boolean;
    consoleScope: number | null;
  }
}

const COUNTED_REFUSALS: ReadonlySet<ErrorCode> = new Set(['AUTH_INVALID', 'AUTH_EXPIRED']);

function operatorChecks(
  app: FastifyInstance,
  verify: (request: FastifyRequest) => Promise<Caller>,
) {
  const operatorIds: ReadonlySet<number> = new Set(app.config.operatorIds);
  const demo = isDemoMode(app.config);
  app.decorate(
    'isOperator',
    (telegramId: number) => operatorIds.has(telegramId) || (demo && isDemoCustomerId(telegramId)),
  );
  app.decorate('consoleScope', (telegramId: number) =>
    operatorIds.has(telegramId) ? null : telegramId,
  );
  app.decorate('operatorOnly', async (request: FastifyRequest) => {
    const caller = await verify(request);
    if (!app.isOperator(caller.telegramId)) throw new AppError('FORBIDDEN');
    request.caller = caller;
    request.identified = true;
    request.consoleScope = app.consoleScope(caller.telegramId);
  });
  const moneyMaxAgeMs = app.config.operatorInitDataMaxAgeSeconds * 1000;
  app.decorate(
    'recentOperator',
    (request: FastifyRequest) =>
      new Promise<void>((resolve) => {
        if (app.now() - request.caller.authDate > moneyMaxAgeMs) {
          throw new AppError('OPERATOR_REOPEN');
        }
        resolve();
      }),
  );
}

export const authPlugin = fp(
  (app, _options, done) => {
    const authenticator = createAuthenticator({
      db: app.db,
      botToken: app.config.botToken ?? DEMO_BOT_TOKEN,
      maxAgeSeconds: app.config.initDataMaxAgeSeconds,
      now: app.now,
      onError: (error) => app.log.error({ err: error }, 'recording customers failed'),
    });
    app.decorate('recordSeenCustomers', () => authenticator.flush());
    app.decorate('verifyCaller', (source: CallerSource) => authenticator.verify(source));
    // Before the database closes (hooks run in reverse order of registration).
    app.addHook('onClose', () => authenticator.close());
    app.decorateRequest('caller');
    app.decorateRequest('identified', false);
    app.decorateRequest('consoleScope', null);
    // Refused init data counts against the client's address (429 past the limit). Only refusals
    // count, so verifying stays free of the database.
    const countRefusal = app.addressLimit('refusedIdentity');
    const refuse = async (request: FastifyRequest, error: unknown): Promise<never> => {
      if (error instanceof AppError && COUNTED_REFUSALS.has(error.code)) {
        await countRefusal(request);
      }
      throw error;
    };
    const verify = async (request: FastifyRequest): Promise<Caller> => {
      try {
        return authenticator.verify(request);
      } catch (error) {
        return refuse(request, error);
      }
    };
    // Runs on every call, the status poll's above all: a known caller costs no promise.
    const identify = (request: FastifyRequest, done: HookHandlerDoneFunction): void => {
      try {
        request.caller = authenticator.verify(request);
        request.identified = true;
      } catch (error) {
        refuse(request, error).catch(done);
        return;
      }
      done();
    };
    app.decorate('authenticate', function authenticate(request: FastifyRequest, _reply, done) {
      if (namesItselfInBody(request)) done();
      else identify(request, done);
    });
    app.decorate(
      'authenticateBody',
      function authenticateBody(request: FastifyRequest, _reply, done) {
        if (request.identified) done();
        else identify(request, done);
      },
    );
    app.decorate(
      'identifiedBeforeBody',
      (request: FastifyRequest) =>
        new Promise<void>((resolve) => {
          if (!request.identified) throw new AppError('AUTH_MISSING');
          resolve();
        }),
    );
    operatorChecks(app, verify);
    done();
  },
  { name: 'auth', dependencies: ['context', 'call-limits'] },
);

/** Verified once the body is parsed (64 KB at most). */
function namesItselfInBody(request: FastifyRequest): boolean {
  if (request.headers.authorization !== undefined) return false;
  const query = request.query as Record<string, unknown> | null;
  if (query?.['telegramInitData'] !== undefined) return false;
  const length = request.headers['content-length'];
  return (
    (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
  );
}

/** Who calls is known before a body is read, unless the body's telegramInitData names them. */
export function customerCalls(scope: FastifyInstance): void {
  scope.addHook('onRequest', scope.authenticate);
  scope.addHook('preValidation', scope.authenticateBody);
}
