/**
 * Identity as hooks, known before a body is read:
 * `authenticate` verifies the caller's Telegram init data from the Authorization header or the
 * query (onRequest) and puts them on `request.caller`; a call that names itself only in its
 * (small) body, its `telegramInitData` field, is verified once that is parsed
 * (`authenticateBody`, preValidation). `operatorOnly` does the same for the Telegram users of
 * OPERATOR_IDS (and, in demo mode, each demo customer, limited to their own orders:
 * `consoleScope`) and answers 403 FORBIDDEN to anyone else; `recentOperator` asks the writes that
 * move money for recent init data. A route file adds them to its whole scope, so none of its
 * routes can forget them.
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
    /**
     * onRequest: the verified customer on `request.caller`, from the header or the query; AUTH_*
     * otherwise. A call with a body and neither waits for `authenticateBody`.
     */
    authenticate: onRequestHookHandler;
    /** preValidation after `authenticate`: the customer of the body's `telegramInitData`. */
    authenticateBody: preValidationHookHandler;
    /**
     * The verified customer a request names in its header or query, as `authenticate` would set
     * them; throws AUTH_* and counts nothing (the poll lane hands a refusal to `authenticate`).
     */
    verifyCaller: (source: CallerSource) => Caller;
    /** For a route that reads a large body: AUTH_MISSING unless the caller is known already. */
    identifiedBeforeBody: (request: FastifyRequest) => Promise<void>;
    /** onRequest: as `authenticate`, from the header or the query, for operators only; FORBIDDEN for anyone else. */
    operatorOnly: (request: FastifyRequest) => Promise<void>;
    /**
     * onRequest after `operatorOnly`, for the writes that move money (src/shared's
     * MONEY_ACTIONS): OPERATOR_REOPEN when the caller's init data is older than
     * OPERATOR_INIT_DATA_MAX_AGE.
     */
    recentOperator: (request: FastifyRequest) => Promise<void>;
    /** Whether a Telegram user is an operator: OPERATOR_IDS, and the demo customer in demo mode. */
    isOperator: (telegramId: number) => boolean;
    /**
     * Whose orders an operator's console holds: every customer's (null) for OPERATOR_IDS; in demo
     * mode, a demo customer who is not listed there sees and acts on their own orders only, so
     * that visitors of a shared demo never see or stall each other's.
     */
    consoleScope: (telegramId: number) => number | null;
    /** Writes the customers seen so far now rather than within RECORD_FLUSH_MS (for tests). */
    recordSeenCustomers: () => Promise<void>;
  }
  interface FastifyRequest {
    /**
     * The verified Telegram user of the call. Set by `authenticate` (or `authenticateBody`) or
     * `operatorOnly`: only routes in a scope that runs them read it.
     */
    caller: Caller;
    /** Whether `caller` is set yet. */
    identified: boolean;
    /** The caller's `consoleScope`, set by `operatorOnly`. */
    consoleScope: number | null;
  }
}

/** Refusals of init data that was sent: a wrong signature or fields, or an old one. */
const COUNTED_REFUSALS: ReadonlySet<ErrorCode> = new Set(['AUTH_INVALID', 'AUTH_EXPIRED']);

/**
 * Who is an operator (OPERATOR_IDS; in demo mode every demo customer plays both sides, on their
 * own orders only: `consoleScope`), the console's hook, and the fresh init data a money action
 * asks for.
 */
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
    // Init data sent and refused is counted against the client's address (rate-limit.ts,
    // ADDRESS_LIMITS): past the minute's limit the refusal is 429 RATE_LIMITED. Only refusals
    // are counted, so verifying stays free of the database; a call with no init data at all is
    // not, for it guesses nothing.
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
    // The customer's hooks run on every call, the status poll's above all: a known caller is
    // identified at once, with no promise; only a refusal waits, to be counted.
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

/**
 * A call with no identity in its header or query but a body, which may carry the
 * `telegramInitData` field: it is verified once the body is parsed (at most 64 KB).
 */
function namesItselfInBody(request: FastifyRequest): boolean {
  if (request.headers.authorization !== undefined) return false;
  const query = request.query as Record<string, unknown> | null;
  if (query?.['telegramInitData'] !== undefined) return false;
  const length = request.headers['content-length'];
  return (
    (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
  );
}

/**
 * A scope of the customer's calls: who calls is known before a body is read (platform/http/json-body.ts),
 * unless the call names itself in its body, its telegramInitData field.
 */
export function customerCalls(scope: FastifyInstance): void {
  scope.addHook('onRequest', scope.authenticate);
  scope.addHook('preValidation', scope.authenticateBody);
}
