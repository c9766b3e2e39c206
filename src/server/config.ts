/**
 * Configuration from the environment, validated at start-up (design.md, "Configuration").
 * Every variable has a demo default so that `npm start` works with no configuration at all;
 * a bad value stops the server with one clear line per problem.
 */
import path from 'node:path';
import type { BankRequisites } from '../shared/api';
import { checkWalletAddress } from '../shared/addresses';
import { DEFAULT_MAX_ACTIVE_ORDERS } from '../shared/limits';
import { CALL_LIMITS, type LimitedCall } from './rate-limit';

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
  /** Calls per minute one customer may make, per kind of writing call. */
  readonly callLimits: Readonly<Record<LimitedCall, number>>;
  /** How many orders in a non-final status one customer may hold at once. */
  readonly maxActiveOrders: number;
  /** Where customers send the crypto they sell: one address for Tron, one for the EVM networks. */
  readonly depositAddresses: { readonly trc20: string; readonly evm: string };
  /** The default bank account: bank buys start with these requisites when it is configured. */
  readonly bankAccount: BankRequisites | undefined;
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

/**
 * Demo deposit addresses: the Tron and Ethereum "burn" addresses, valid but owned by nobody, so a
 * demo can never receive real funds. With a real BOT_TOKEN, real addresses must be configured.
 */
export const DEMO_DEPOSIT_ADDRESSES = {
  trc20: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
  evm: '0x000000000000000000000000000000000000dEaD',
} as const;

const BANK_VARIABLES = {
  recipientName: 'BANK_RECIPIENT_NAME',
  accountNumber: 'BANK_ACCOUNT_NUMBER',
  bankName: 'BANK_NAME',
  bik: 'BANK_BIK',
  correspondentAccount: 'BANK_CORRESPONDENT_ACCOUNT',
  inn: 'BANK_INN',
} as const;

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

  const depositAddress = (name: string, network: 'TRC20' | 'ERC20', demo: string): string => {
    const address = value(name);
    if (address === undefined) {
      if (botToken !== undefined) {
        problems.push(`${name} must be set when BOT_TOKEN is set: customers send real funds to it`);
      }
      return demo;
    }
    if (checkWalletAddress(network, address) !== null) {
      problems.push(`${name} is not a valid ${network === 'TRC20' ? 'Tron' : 'EVM'} address`);
    }
    return address;
  };
  const depositAddresses = {
    trc20: depositAddress('DEPOSIT_ADDRESS_TRC20', 'TRC20', DEMO_DEPOSIT_ADDRESSES.trc20),
    evm: depositAddress('DEPOSIT_ADDRESS_EVM', 'ERC20', DEMO_DEPOSIT_ADDRESSES.evm),
  };

  // The default bank account is all or nothing: a half-configured account would send customers
  // to pay with a field missing.
  const bankValues = Object.fromEntries(
    Object.entries(BANK_VARIABLES).map(([field, name]) => [field, value(name)]),
  ) as Record<keyof typeof BANK_VARIABLES, string | undefined>;
  const setBank = Object.values(bankValues).filter((v) => v !== undefined).length;
  let bankAccount: BankRequisites | undefined;
  if (setBank > 0 && setBank < Object.keys(BANK_VARIABLES).length) {
    const missing = Object.entries(BANK_VARIABLES)
      .filter(([field]) => bankValues[field as keyof typeof BANK_VARIABLES] === undefined)
      .map(([, name]) => name);
    problems.push(`the default bank account is incomplete: set ${missing.join(', ')} as well`);
  } else if (setBank > 0) {
    const bank = bankValues as Record<keyof typeof BANK_VARIABLES, string>;
    if (!/^\d{20}$/.test(bank.accountNumber))
      problems.push('BANK_ACCOUNT_NUMBER must be 20 digits');
    if (!/^\d{9}$/.test(bank.bik)) problems.push('BANK_BIK must be 9 digits');
    if (!/^\d{20}$/.test(bank.correspondentAccount)) {
      problems.push('BANK_CORRESPONDENT_ACCOUNT must be 20 digits');
    }
    if (!/^(\d{10}|\d{12})$/.test(bank.inn)) problems.push('BANK_INN must be 10 or 12 digits');
    const bankAddress = value('BANK_ADDRESS');
    bankAccount = {
      ...bank,
      ...(bankAddress === undefined ? {} : { bankAddress }),
      beneficiaryName: value('BANK_BENEFICIARY_NAME') ?? bank.recipientName,
      beneficiaryAccount: value('BANK_BENEFICIARY_ACCOUNT') ?? bank.accountNumber,
    };
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
    callLimits: CALL_LIMITS,
    maxActiveOrders: integer('MAX_ACTIVE_ORDERS', DEFAULT_MAX_ACTIVE_ORDERS, 1, 100),
    depositAddresses,
    bankAccount,
    logLevel: (LOG_LEVELS as readonly string[]).includes(logLevel)
      ? (logLevel as AppConfig['logLevel'])
      : 'info',
    staticDir: path.resolve(cwd, value('STATIC_DIR') ?? 'dist'),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
