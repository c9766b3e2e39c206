/**
 * Configuration from the environment, validated at start-up (design.md, "Configuration").
 * Every variable has a demo default so that `npm start` works with no configuration at all;
 * a bad value stops the server with one clear line per problem.
 */
import path from 'node:path';

export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string };

export interface AppConfig {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  readonly receiptsDir: string;
  /** The Telegram bot token; undefined means demo mode. */
  readonly botToken: string | undefined;
  readonly botUsername: string | undefined;
  readonly operatorIds: readonly number[];
  readonly supportUrl: string;
  /** How old init data may be, in seconds. */
  readonly initDataMaxAgeSeconds: number;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** The built mini-app to serve at `/`; undefined serves the API alone. */
  readonly staticDir: string | undefined;
}

/** Demo mode: no bot token, the server signs init data for a demo customer itself. */
export function isDemoMode(config: Pick<AppConfig, 'botToken'>): boolean {
  return config.botToken === undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const BOT_TOKEN_PATTERN = /^\d{5,}:[A-Za-z0-9_-]{30,}$/;
const BOT_USERNAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;

type Env = Readonly<Record<string, string | undefined>>;

/** Reads and checks every variable; throws ConfigError listing all problems at once. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): AppConfig {
  const problems: string[] = [];
  const value = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return n;
  };

  const port = integer('PORT', 3000, 0, 65535);
  const host = value('HOST') ?? '0.0.0.0';

  let database: DatabaseConfig;
  const databaseUrl = value('DATABASE_URL');
  if (databaseUrl !== undefined) {
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
      problems.push(
        'DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:5432/db)',
      );
    }
    database = { kind: 'postgres', url: databaseUrl };
  } else {
    database = {
      kind: 'sqlite',
      path: path.resolve(cwd, value('SQLITE_PATH') ?? 'data/exchange.db'),
    };
  }

  const botToken = value('BOT_TOKEN');
  if (botToken !== undefined && !BOT_TOKEN_PATTERN.test(botToken)) {
    problems.push('BOT_TOKEN does not look like a token from @BotFather (123456789:AA…)');
  }
  const botUsername = value('BOT_USERNAME')?.replace(/^@/, '');
  if (botUsername !== undefined && !BOT_USERNAME_PATTERN.test(botUsername)) {
    problems.push(`BOT_USERNAME must be a Telegram bot username, got "${botUsername}"`);
  }

  const operatorIds: number[] = [];
  for (const part of (value('OPERATOR_IDS') ?? '').split(',')) {
    const id = part.trim();
    if (id === '') continue;
    if (!/^\d{1,15}$/.test(id)) {
      problems.push(`OPERATOR_IDS must be Telegram user ids separated by commas, got "${id}"`);
    } else {
      operatorIds.push(Number(id));
    }
  }

  const supportUrl = value('SUPPORT_URL') ?? 'https://t.me/exchange_support';
  if (!/^https:\/\/t\.me\/[A-Za-z0-9_+/?=&-]+$/.test(supportUrl)) {
    problems.push(`SUPPORT_URL must be a https://t.me/… link, got "${supportUrl}"`);
  }

  const logLevel = value('LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }

  const config: AppConfig = {
    port,
    host,
    database,
    receiptsDir: path.resolve(cwd, value('RECEIPTS_DIR') ?? 'data/receipts'),
    botToken,
    botUsername,
    operatorIds,
    supportUrl,
    initDataMaxAgeSeconds: integer('INIT_DATA_MAX_AGE', 86_400, 60, 30 * 86_400),
    logLevel: (LOG_LEVELS as readonly string[]).includes(logLevel)
      ? (logLevel as AppConfig['logLevel'])
      : 'info',
    staticDir: path.resolve(cwd, value('STATIC_DIR') ?? 'dist'),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
