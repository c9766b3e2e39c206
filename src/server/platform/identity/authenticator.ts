import type { Kysely } from 'kysely';
import { isLanguage, type Language } from '../../../shared/api';
import { remember } from '../bounded-map';
import type { Database } from '../db/schema';
import { AppError } from '../errors';
import {
  type CallerSource,
  type Customer,
  extractInitData,
  initDataVerifier,
  recordCustomers,
} from './telegram-auth';

/** How often a returning customer's last visit is written at most, give or take a quarter. */
const RECORD_INTERVAL_MS = 60_000;
/** Above the customers active at once (10 000 measured): polling never writes for want of room. */
export const RECORDED_MAX = 50_000;
/** About 400 bytes each; twice the customers active at once keeps every polling app's. */
export const VERIFIED_MAX = 20_000;
export const RECORD_FLUSH_MS = 100;
const RECORD_FLUSH_BATCH = 100;

interface Verified {
  readonly customer: Customer;
  /** What of the customer is recorded, as one string: a change is written at once. */
  readonly namesKey: string;
  /** Past it the init data is checked again (and refused as expired). */
  readonly expiresAt: number;
  readonly authDate: number;
}

export interface Caller extends Customer {
  readonly language: Language | undefined;
  readonly authDate: number;
}

export interface Authenticator {
  /** Throws AUTH_*. Writes nothing: see `flush`. */
  verify(request: CallerSource): Caller;
  /** At most RECORD_FLUSH_BATCH in one statement, off the requests' path: a crowd is spread. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** The app sends its choice alone ("en"); a browser's list ("en-GB,en;q=0.9") is no choice. */
function chosenLanguage(header: string | undefined): Language | undefined {
  const value = header?.trim();
  return isLanguage(value) ? value : undefined;
}

export interface AuthenticatorOptions {
  db: Kysely<Database>;
  botToken: string;
  maxAgeSeconds: number;
  now: () => number;
  remember?: number;
  check?: (raw: string, now: number) => Customer;
  onError?: (error: unknown) => void;
}

/** Verified once (an HMAC and a parse), then known by the whole of it: a changed copy is new. */
function initDataCache(options: AuthenticatorOptions): (raw: string, now: number) => Verified {
  const verified = new Map<string, Verified>();
  const verifyInitData = options.check ?? initDataVerifier(options.botToken, options.maxAgeSeconds);
  return (raw, now) => {
    const known = verified.get(raw);
    if (known !== undefined && now < known.expiresAt) return known;
    const customer = verifyInitData(raw, now);
    const authDate = Number(new URLSearchParams(raw).get('auth_date')) * 1000;
    const names = [customer.firstName, customer.lastName, customer.username, customer.languageCode];
    const fresh: Verified = {
      customer,
      namesKey: names.join('\u0000'),
      expiresAt: authDate + options.maxAgeSeconds * 1000,
      authDate,
    };
    remember(verified, raw, fresh, VERIFIED_MAX);
    return fresh;
  };
}

interface CustomerRecorder extends Pick<Authenticator, 'flush' | 'close'> {
  seen(caller: Caller, namesKey: string, now: number): void;
}

/** On first sight, on a change of names, else about once a minute, spread out after a restart. */
function customerRecorder(options: AuthenticatorOptions): CustomerRecorder {
  const rememberMax = options.remember ?? RECORDED_MAX;
  const recorded = new Map<
    number,
    { namesKey: string; language: Language | undefined; due: number }
  >();
  const waiting = new Map<number, { caller: Caller; at: number }>();

  let flushing: Promise<void> = Promise.resolve();
  const writeWaiting = async (): Promise<void> => {
    const batch = [...waiting].slice(0, RECORD_FLUSH_BATCH);
    if (batch.length === 0) return;
    for (const [id] of batch) waiting.delete(id);
    try {
      await recordCustomers(
        options.db,
        batch.map(([, { caller, at }]) => ({ customer: caller, at, language: caller.language })),
      );
    } catch (error) {
      // Unless seen again since: the newer visit is the one to write.
      for (const [id, entry] of batch) if (!waiting.has(id)) waiting.set(id, entry);
      options.onError?.(error);
    }
  };
  const flush = (): Promise<void> => {
    flushing = flushing.then(writeWaiting);
    return flushing;
  };
  const timer = setInterval(() => void flush(), RECORD_FLUSH_MS);
  timer.unref();

  return {
    seen(caller, namesKey, now) {
      const { language } = caller;
      const last = recorded.get(caller.telegramId);
      if (
        last === undefined ||
        last.namesKey !== namesKey ||
        last.language !== language ||
        now >= last.due
      ) {
        waiting.set(caller.telegramId, { caller, at: now });
        const due = now + RECORD_INTERVAL_MS * (0.75 + Math.random() / 2);
        remember(recorded, caller.telegramId, { namesKey, language, due }, rememberMax);
      }
    },
    flush,
    async close() {
      clearInterval(timer);
      while (waiting.size > 0) {
        const before = waiting.size;
        await flush();
        if (waiting.size >= before) break;
      }
    },
  };
}

export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const verifyRaw = initDataCache(options);
  const recorder = customerRecorder(options);
  return {
    verify(request) {
      const raw = extractInitData(request);
      if (raw === undefined) throw new AppError('AUTH_MISSING');
      const now = options.now();
      const { customer, namesKey, authDate } = verifyRaw(raw, now);
      const language = chosenLanguage(request.headers['accept-language']);
      // Every field by name: a spread into a new object is V8's slow path on Node 20.
      const caller: Caller = {
        telegramId: customer.telegramId,
        firstName: customer.firstName,
        lastName: customer.lastName,
        username: customer.username,
        languageCode: customer.languageCode,
        startParam: customer.startParam,
        language,
        authDate,
      };
      recorder.seen(caller, namesKey, now);
      return caller;
    },
    flush: recorder.flush,
    close: recorder.close,
  };
}
