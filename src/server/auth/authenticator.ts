import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { isLanguage, type Language } from '../../shared/api';
import type { Database } from '../db/schema';
import { AppError } from '../errors';
import { type Customer, extractInitData, recordCustomer, verifyInitData } from './telegram-auth';

/** How often a returning customer's last visit is written at most. */
const RECORD_INTERVAL_MS = 60_000;
/**
 * Bounds the memory of who was recorded recently: above the customers active at once (issue 14's
 * 10 000 with an order open), so that polling never writes for want of room.
 */
export const RECORDED_MAX = 50_000;

/** The verified customer of a request, recorded in `users`; throws AUTH_* otherwise. */
export type Authenticator = (request: FastifyRequest) => Promise<Customer>;

/**
 * The language the customer chose in the app: the app sends it alone as `Accept-Language`
 * ("en"), where a browser's own header is a list ("en-GB,en;q=0.9"), which is no choice.
 */
function chosenLanguage(header: string | undefined): Language | undefined {
  const value = header?.trim();
  return isLanguage(value) ? value : undefined;
}

export function createAuthenticator(options: {
  db: Kysely<Database>;
  botToken: string;
  maxAgeSeconds: number;
  now: () => number;
  /** How many customers it remembers recording (RECORDED_MAX); tests make it small. */
  remember?: number;
}): Authenticator {
  const remember = options.remember ?? RECORDED_MAX;
  // A polling app calls every few seconds: the customer is written when first seen, when their
  // names change, and at most once a minute otherwise, not on every call.
  const recorded = new Map<number, { key: string; at: number }>();
  return async (request) => {
    const raw = extractInitData(request);
    if (raw === undefined) throw new AppError('AUTH_MISSING');
    const now = options.now();
    const verified = verifyInitData(raw, options.botToken, options.maxAgeSeconds, now);
    const language = chosenLanguage(request.headers['accept-language']);
    const key = [
      verified.firstName,
      verified.lastName,
      verified.username,
      verified.languageCode,
      language,
    ].join('\u0000');
    const last = recorded.get(verified.telegramId);
    if (last === undefined || last.key !== key || now - last.at >= RECORD_INTERVAL_MS) {
      await recordCustomer(options.db, verified, now, language);
      // Least recently recorded out, one at a time: clearing it all would make every customer
      // write again at once (a Map keeps insertion order; a customer re-recorded moves last).
      recorded.delete(verified.telegramId);
      if (recorded.size >= remember) {
        const oldest = recorded.keys().next();
        if (oldest.done !== true) recorded.delete(oldest.value);
      }
      recorded.set(verified.telegramId, { key, at: now });
    }
    return verified;
  };
}
