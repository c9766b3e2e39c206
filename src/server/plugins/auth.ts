/**
 * Identity as preHandler hooks (design.md, "Identity"): `authenticate` verifies the caller's
 * Telegram init data and puts them on `request.caller`; `operatorOnly` does the same for the
 * Telegram users of OPERATOR_IDS (and, in demo mode, the demo customer) and answers 403
 * FORBIDDEN to anyone else. A route file adds one
 * of them to its whole scope, so none of its routes can forget it.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createAuthenticator } from '../auth/authenticator';
import { isDemoCustomerId } from '../auth/demo-session';
import { isDemoMode } from '../config';
import { DEMO_BOT_TOKEN, type Customer } from '../auth/telegram-auth';
import { AppError } from '../errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: the verified customer on `request.caller`; AUTH_* otherwise. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preHandler: as `authenticate`, for operators only; FORBIDDEN for anyone else. */
    operatorOnly: (request: FastifyRequest) => Promise<void>;
    /** Whether a Telegram user is an operator: OPERATOR_IDS, and the demo customer in demo mode. */
    isOperator: (telegramId: number) => boolean;
  }
  interface FastifyRequest {
    /**
     * The verified Telegram user of the call. Set by the `authenticate` or `operatorOnly`
     * preHandler: only routes in a scope that runs one read it.
     */
    caller: Customer;
  }
}

export const authPlugin = fp(
  (app, _options, done) => {
    const verifiedCustomer = createAuthenticator({
      db: app.db,
      botToken: app.config.botToken ?? DEMO_BOT_TOKEN,
      maxAgeSeconds: app.config.initDataMaxAgeSeconds,
      now: app.now,
    });
    // In demo mode (no bot token) every demo customer plays both sides (issue 11).
    const operatorIds: ReadonlySet<number> = new Set(app.config.operatorIds);
    const demo = isDemoMode(app.config);
    app.decorate(
      'isOperator',
      (telegramId: number) => operatorIds.has(telegramId) || (demo && isDemoCustomerId(telegramId)),
    );
    app.decorateRequest('caller');
    app.decorate('authenticate', async (request: FastifyRequest) => {
      request.caller = await verifiedCustomer(request);
    });
    app.decorate('operatorOnly', async (request: FastifyRequest) => {
      const caller = await verifiedCustomer(request);
      if (!app.isOperator(caller.telegramId)) throw new AppError('FORBIDDEN');
      request.caller = caller;
    });
    done();
  },
  { name: 'auth', dependencies: ['context'] },
);
