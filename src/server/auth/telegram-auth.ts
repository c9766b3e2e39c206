/**
 * Telegram identity (design.md, "Identity"): the app sends `Authorization: tma <raw init data>`;
 * the spec's `telegramInitData` body or query field is accepted too. The signature is checked
 * with the bot token (the demo token in demo mode) and init data older than the configured age
 * is refused. The customer is recorded on first sight and their last visit kept current.
 */
import { isExpiredError, parse, sign, validate } from '@telegram-apps/init-data-node';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AUTH_SCHEME } from '../../shared/api';
import type { Database } from '../db/schema';
import { AppError } from '../errors';

export interface Customer {
  readonly telegramId: number;
  readonly firstName: string;
  readonly lastName: string | null;
  readonly username: string | null;
  readonly languageCode: string | null;
  /** The start parameter the app was opened with (`order_<id>` for a deep link). */
  readonly startParam: string | null;
}

/**
 * The token demo mode signs and checks init data with. It is public on purpose: demo mode is
 * only on when no BOT_TOKEN is configured, and then no real Telegram user can reach the server.
 */
export const DEMO_BOT_TOKEN = '1000000001:DEMO-MODE-TOKEN-NOT-A-SECRET-0000000';

/** The customer demo mode signs in as. */
export const DEMO_USER = {
  id: 100_000_001,
  first_name: 'Demo',
  last_name: 'Customer',
  username: 'demo_customer',
  language_code: 'ru',
} as const;

/** Finds the raw init data of a request: the header first, then the spec's field. */
export function extractInitData(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const [scheme, ...rest] = header.trim().split(/\s+/);
    if (scheme?.toLowerCase() === AUTH_SCHEME && rest.length === 1 && rest[0] !== '') {
      return rest[0];
    }
    throw new AppError('AUTH_INVALID');
  }
  const fromBody: unknown =
    typeof request.body === 'object' && request.body !== null
      ? (request.body as Record<string, unknown>)['telegramInitData']
      : undefined;
  const fromQuery: unknown =
    typeof request.query === 'object' && request.query !== null
      ? (request.query as Record<string, unknown>)['telegramInitData']
      : undefined;
  const raw = fromBody ?? fromQuery;
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string') throw new AppError('AUTH_INVALID');
  return raw;
}

/** Checks the signature and age of raw init data and returns the customer it names. */
export function verifyInitData(raw: string, botToken: string, maxAgeSeconds: number): Customer {
  try {
    validate(raw, botToken, { expiresIn: maxAgeSeconds });
  } catch (error) {
    throw new AppError(isExpiredError(error) ? 'AUTH_EXPIRED' : 'AUTH_INVALID');
  }
  try {
    const data = parse(raw);
    const user = data.user;
    if (user === undefined || !Number.isSafeInteger(user.id) || user.id <= 0) {
      throw new AppError('AUTH_INVALID');
    }
    return {
      telegramId: user.id,
      firstName: user.first_name,
      lastName: user.last_name ?? null,
      username: user.username ?? null,
      languageCode: user.language_code ?? null,
      startParam: data.start_param ?? null,
    };
  } catch (error) {
    throw error instanceof AppError ? error : new AppError('AUTH_INVALID');
  }
}

/** Signs init data the way Telegram does: for demo mode and for tests. */
export function signInitData(
  botToken: string,
  user: {
    id: number;
    first_name: string;
    last_name?: string;
    username?: string;
    language_code?: string;
  },
  options: { startParam?: string; authDate?: Date } = {},
): string {
  return sign(
    {
      user,
      ...(options.startParam === undefined ? {} : { start_param: options.startParam }),
      chat_type: 'sender',
      chat_instance: '-1000000000000000001',
    },
    botToken,
    options.authDate ?? new Date(),
  );
}

/** Records the customer on first sight; keeps names and the last visit current afterwards. */
export async function recordCustomer(
  db: Kysely<Database>,
  customer: Customer,
  now: number,
): Promise<void> {
  await db
    .insertInto('users')
    .values({
      telegram_id: customer.telegramId,
      first_name: customer.firstName,
      last_name: customer.lastName,
      username: customer.username,
      language_code: customer.languageCode,
      first_seen_at: now,
      last_seen_at: now,
    })
    .onConflict((oc) =>
      oc.column('telegram_id').doUpdateSet({
        first_name: customer.firstName,
        last_name: customer.lastName,
        username: customer.username,
        language_code: customer.languageCode,
        last_seen_at: now,
      }),
    )
    .execute();
}
