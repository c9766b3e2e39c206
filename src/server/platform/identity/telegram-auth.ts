/**
 * Telegram identity: `Authorization: tma <raw init data>`, or a `telegramInitData` body or query
 * field. Checked with the bot token (the demo token in demo mode); too old init data is refused.
 */
import { hashToken, sign, validate } from '@telegram-apps/init-data-node';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import * as v from 'valibot';
import { AUTH_SCHEME, type Language } from '../../../shared/api';
import { withoutControlCharacters } from '../../../shared/schemas/text';
import type { Database } from '../db/schema';
import { AppError } from '../errors';

export interface Customer {
  readonly telegramId: number;
  readonly firstName: string;
  readonly lastName: string | null;
  readonly username: string | null;
  readonly languageCode: string | null;
  readonly startParam: string | null;
}

/** Public on purpose: demo mode is on only without a BOT_TOKEN, so no Telegram user reaches us. */
export const DEMO_BOT_TOKEN = '1000000001:DEMO-MODE-TOKEN-NOT-A-SECRET-0000000';

export const DEMO_USER = {
  id: 100_000_001,
  first_name: 'Demo',
  last_name: 'Customer',
  username: 'demo_customer',
  language_code: 'ru',
} as const;

/** The scheme in any case, one word after it, spaces around. */
const AUTHORIZATION = new RegExp(`^\\s*${AUTH_SCHEME}\\s+(\\S+)\\s*$`, 'i');

export type CallerSource = Pick<FastifyRequest, 'headers' | 'query' | 'body'>;

/** The raw init data of a request: the header first, then the `telegramInitData` field. */
export function extractInitData(request: CallerSource): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const credentials = AUTHORIZATION.exec(header)?.[1];
    if (credentials === undefined) throw new AppError('AUTH_INVALID');
    return credentials;
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

/** A phone's clock a little ahead of ours. */
const AUTH_DATE_SKEW_SECONDS = 60;

/** Names are free text: a control character is removed, not refused, so nobody is locked out. */
const TelegramUserSchema = v.looseObject({
  id: v.pipe(v.number(), v.safeInteger(), v.minValue(1)),
  first_name: v.pipe(v.string(), v.transform(withoutControlCharacters)),
  last_name: v.optional(v.pipe(v.string(), v.transform(withoutControlCharacters))),
  username: v.optional(v.pipe(v.string(), v.transform(withoutControlCharacters))),
  language_code: v.optional(v.pipe(v.string(), v.transform(withoutControlCharacters))),
});

/**
 * The fields are read here, not with the library's `parse()`, which requires Bot API 8.0's
 * `signature`: older clients send none, and their init data is as valid.
 */
export function initDataVerifier(
  botToken: string,
  maxAgeSeconds: number,
): (raw: string, now: number) => Customer {
  const key = new Uint8Array(hashToken(botToken)).buffer;
  return (raw, now) => {
    try {
      // The age is judged below by the server's clock, not the library's.
      validate(raw, key, { expiresIn: 0, tokenHashed: true });
    } catch {
      throw new AppError('AUTH_INVALID');
    }
    const fields = new URLSearchParams(raw);
    const authDate = Number(fields.get('auth_date'));
    if (!Number.isSafeInteger(authDate) || authDate * 1000 > now + AUTH_DATE_SKEW_SECONDS * 1000) {
      throw new AppError('AUTH_INVALID');
    }
    if (maxAgeSeconds > 0 && (authDate + maxAgeSeconds) * 1000 < now) {
      throw new AppError('AUTH_EXPIRED');
    }
    let userJson: unknown;
    try {
      userJson = JSON.parse(fields.get('user') ?? 'null');
    } catch {
      throw new AppError('AUTH_INVALID');
    }
    const user = v.safeParse(TelegramUserSchema, userJson);
    if (!user.success) throw new AppError('AUTH_INVALID');
    return {
      telegramId: user.output.id,
      firstName: user.output.first_name,
      lastName: user.output.last_name ?? null,
      username: user.output.username ?? null,
      languageCode: user.output.language_code ?? null,
      startParam: fields.get('start_param'),
    };
  };
}

/** For demo mode and tests. */
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

export interface SeenCustomer {
  readonly customer: Omit<Customer, 'startParam'>;
  readonly at: number;
  readonly language: Language | undefined;
}

/** One statement for all: hundreds are written at once after a restart. */
export async function recordCustomers(
  db: Kysely<Database>,
  seen: readonly SeenCustomer[],
): Promise<void> {
  if (seen.length === 0) return;
  await db
    .insertInto('users')
    .values(
      seen.map(({ customer, at, language }) => ({
        telegram_id: customer.telegramId,
        first_name: customer.firstName,
        last_name: customer.lastName,
        username: customer.username,
        language_code: customer.languageCode,
        language: language ?? null,
        first_seen_at: at,
        last_seen_at: at,
      })),
    )
    .onConflict((oc) =>
      oc.column('telegram_id').doUpdateSet((eb) => ({
        first_name: eb.ref('excluded.first_name'),
        last_name: eb.ref('excluded.last_name'),
        username: eb.ref('excluded.username'),
        language_code: eb.ref('excluded.language_code'),
        // A call without a choice keeps the one made before.
        language: eb.fn.coalesce('excluded.language', 'users.language'),
        last_seen_at: eb.ref('excluded.last_seen_at'),
      })),
    )
    .execute();
}

export function recordCustomer(
  db: Kysely<Database>,
  customer: Omit<Customer, 'startParam'>,
  now: number,
  language?: Language,
): Promise<void> {
  return recordCustomers(db, [{ customer, at: now, language }]);
}
