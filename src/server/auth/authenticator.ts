import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { AppError } from '../errors';
import { type Customer, extractInitData, recordCustomer, verifyInitData } from './telegram-auth';

export interface Authenticator {
  /** The verified customer of a request, recorded in `users`; throws AUTH_* otherwise. */
  customer(request: FastifyRequest): Promise<Customer>;
  /** As `customer`, and only for Telegram users listed in OPERATOR_IDS (FORBIDDEN otherwise). */
  operator(request: FastifyRequest): Promise<Customer>;
}

export function createAuthenticator(options: {
  db: Kysely<Database>;
  botToken: string;
  maxAgeSeconds: number;
  operatorIds: readonly number[];
  now: () => number;
}): Authenticator {
  const customer = async (request: FastifyRequest): Promise<Customer> => {
    const raw = extractInitData(request);
    if (raw === undefined) throw new AppError('AUTH_MISSING');
    const verified = verifyInitData(raw, options.botToken, options.maxAgeSeconds);
    await recordCustomer(options.db, verified, options.now());
    return verified;
  };
  return {
    customer,
    async operator(request) {
      const who = await customer(request);
      if (!options.operatorIds.includes(who.telegramId)) throw new AppError('FORBIDDEN');
      return who;
    },
  };
}
