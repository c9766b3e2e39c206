/**
 * Configuration from the environment, validated at start-up (design.md, "Configuration") by one
 * valibot schema of the environment. Every variable has a demo default so that `npm start` works
 * with no configuration at all; a bad value stops the server with one clear line per problem.
 */
import { isIP } from 'node:net';
import path from 'node:path';
import * as v from 'valibot';
import { LANGUAGES, type BankRequisites, type Language } from '../../../shared/api';
import { checkWalletAddress } from '../../../shared/addresses';
import { toUnits } from '../../../shared/money';
import {
  DEFAULT_MAX_ACTIVE_ORDERS,
  DEFAULT_REQUISITES_TIMEOUT_MS,
  OPERATOR_USUAL_ANSWER_MS,
} from '../../../shared/limits';
import { BANK_DETAIL_PATTERNS, type BankDetail } from '../../../shared/schemas/fields';
import { parseChainConfig, withPayoutAddresses, type ChainConfig } from './chain-config';
import {
  ADDRESS_LIMITS,
  CALL_LIMITS,
  type AddressCall,
  type LimitedCall,
} from '../limits/rate-limit';

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
  /**
   * How old init data may be, in seconds, for an operator's action that moves money
   * (src/shared's MONEY_ACTIONS); every other call takes INIT_DATA_MAX_AGE's.
   */
  readonly operatorInitDataMaxAgeSeconds: number;
  /** Calls per minute one customer may make, per kind of writing call. */
  readonly callLimits: Readonly<Record<LimitedCall, number>>;
  /** Calls per minute one client address may make, per kind of call made without an identity. */
  readonly addressLimits: Readonly<Record<AddressCall, number>>;
  /**
   * The proxies whose X-Forwarded-For is believed: addresses, CIDR ranges, or proxy-addr's names
   * `loopback`, `linklocal`, `uniquelocal` (Fastify's `trustProxy`; app.ts says why a list).
   */
  readonly trustProxy: readonly string[];
  /** How many orders in a non-final status one customer may hold at once. */
  readonly maxActiveOrders: number;
  /** How long an order waits for requisites or office instructions before it is cancelled. */
  readonly requisitesTimeoutMs: number;
  /** Where customers send the crypto they sell: one address for Tron, one for the EVM networks. */
  readonly depositAddresses: { readonly trc20: string; readonly evm: string };
  /** The default bank account: bank buys start with these requisites when it is configured. */
  readonly bankAccount: BankRequisites | undefined;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** The built mini-app to serve at `/`; undefined serves the API alone. */
  readonly staticDir: string | undefined;
  /** The chat (a group or a private chat) the bot alerts operators in; none when unset. */
  readonly operatorChatId: number | undefined;
  /** The language of the operators' chat. */
  readonly operatorChatLanguage: Language;
  /** Where Telegram sends the bot's updates; long polling when unset. */
  readonly webhookUrl: string | undefined;
  /** The Bot API server: Telegram's own, a self-hosted one, or a test double. */
  readonly telegramApiRoot: string;
  /** Demo mode's autopilot operator plays the staff side (never with a BOT_TOKEN). */
  readonly demoAutopilot: boolean;
  /**
   * The bearer token a scrape of the metrics must carry; when unset, only loopback and private
   * addresses may scrape them (platform/metrics/metrics-plugin.ts).
   */
  readonly metricsToken: string | undefined;
  /**
   * The chain checks (issue 23): per network, its node, confirmations, official tokens and the
   * address payouts must come from (PAYOUT_ADDRESS_EVM, PAYOUT_ADDRESS_TRC20), or 'manual' when
   * no CHAIN_RPC_<NETWORK> is set (then nothing changes: an operator confirms).
   */
  readonly chain: ChainConfig;
  /** How often the chain checker looks at the deposits it watches (CHAIN_CHECK_INTERVAL_MS). */
  readonly chainCheckIntervalMs: number;
  /**
   * How long a submitted hash the node does not know yet is looked for before operators are
   * told it was not found (CHAIN_LOOKUP_WINDOW_MINUTES).
   */
  readonly chainLookupWindowMs: number;
  /**
   * How long a sell's exact amount stays its own after the sell ended, so that a late transfer
   * of it is still known as that sell's (DEPOSIT_AMOUNT_HOLD_HOURS).
   */
  readonly depositAmountHoldMs: number;
  /**
   * CHAIN_ALLOW_TEST_NETWORKS=1: this server is a test, so with a bot token a node on a test
   * network passes with a warning instead of stopping the start (chain/readers/chain-ids.ts).
   */
  readonly chainAllowTestNetworks: boolean;
  /**
   * Transfers to a deposit address below this many coins' millionths that are no sell's exact
   * amount: counted, kept out of the operators' list (CHAIN_DUST_BELOW).
   */
  readonly chainDustBelowUnits: number;
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

const LOG_LEVELS = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
] as const satisfies readonly AppConfig['logLevel'][];

/** Whether the configured log level writes lines of `level` (LOG_LEVELS runs from the fewest). */
export function logsAt(config: Pick<AppConfig, 'logLevel'>, level: AppConfig['logLevel']): boolean {
  return (
    config.logLevel !== 'silent' && LOG_LEVELS.indexOf(config.logLevel) >= LOG_LEVELS.indexOf(level)
  );
}

/**
 * Where a reverse proxy connects from when it is on this machine or the private network: the
 * loopback, link-local and private (RFC 1918, fc00::/7) ranges.
 */
const DEFAULT_TRUST_PROXY = 'loopback,linklocal,uniquelocal';
const PROXY_RANGE_NAMES: ReadonlySet<string> = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR range (`10.0.0.0/8`, `fd00::/8`), or one of proxy-addr's range names. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** A variable's value: EnvSchema has trimmed it and dropped it when blank. */
const text = v.string();

/** A comma-separated list, each entry checked by `entry`: one message per entry that is wrong. */
const commaList = <T extends v.GenericSchema<string, unknown>>(entry: T) =>
  v.pipe(
    text,
    v.transform((list) =>
      list
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    ),
    v.array(entry),
  );

const wholeNumber = (name: string, fallback: number, min: number, max: number) =>
  v.optional(
    v.pipe(
      text,
      v.check(
        (raw) => /^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max,
        (issue) => `${name} must be a whole number from ${min} to ${max}, got "${issue.input}"`,
      ),
      v.transform(Number),
    ),
    String(fallback),
  );

const bankDetail = (name: string, detail: BankDetail, what: string) =>
  v.optional(v.pipe(text, v.regex(BANK_DETAIL_PATTERNS[detail], `${name} must be ${what}`)));

const walletAddress = (name: string, network: 'TRC20' | 'ERC20') =>
  v.optional(
    v.pipe(
      text,
      v.check(
        (address) => checkWalletAddress(network, address) === null,
        `${name} is not a valid ${network === 'TRC20' ? 'Tron' : 'EVM'} address`,
      ),
    ),
  );

/**
 * Every variable the server reads, each with its own check and so its own message; each one of
 * README.md's configuration table is among them (tests/server/config.test.ts checks).
 */
export const EnvVariablesSchema = v.object({
  PORT: wholeNumber('PORT', 3000, 0, 65535),
  // Unset: only this machine in demo mode (its customers are signed in by the server itself).
  HOST: v.optional(text),
  DATABASE_URL: v.optional(
    v.pipe(
      text,
      v.regex(
        /^postgres(ql)?:\/\//,
        'DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:5432/db)',
      ),
    ),
  ),
  SQLITE_PATH: v.optional(text, 'data/exchange.db'),
  RECEIPTS_DIR: v.optional(text, 'data/receipts'),
  STATIC_DIR: v.optional(text, 'dist'),
  BOT_TOKEN: v.optional(
    v.pipe(
      text,
      v.regex(
        /^\d{5,}:[A-Za-z0-9_-]{30,}$/,
        'BOT_TOKEN does not look like a token from @BotFather (123456789:AA…)',
      ),
    ),
  ),
  BOT_USERNAME: v.optional(
    v.pipe(
      text,
      v.transform((name) => name.replace(/^@/, '')),
      v.regex(
        /^[A-Za-z][A-Za-z0-9_]{3,31}$/,
        (issue) => `BOT_USERNAME must be a Telegram bot username, got "${issue.input}"`,
      ),
    ),
  ),
  // One message per id that is not one.
  OPERATOR_IDS: v.optional(
    commaList(
      v.pipe(
        text,
        v.regex(
          /^\d{1,15}$/,
          (issue) =>
            `OPERATOR_IDS must be Telegram user ids separated by commas, got "${issue.input}"`,
        ),
        v.transform(Number),
      ),
    ),
    '',
  ),
  SUPPORT_URL: v.optional(
    v.pipe(
      text,
      v.regex(
        /^https:\/\/t\.me\/[A-Za-z0-9_+/?=&-]+$/,
        (issue) => `SUPPORT_URL must be a https://t.me/… link, got "${issue.input}"`,
      ),
    ),
    'https://t.me/exchange_support',
  ),
  INIT_DATA_MAX_AGE: wholeNumber('INIT_DATA_MAX_AGE', 86_400, 60, 30 * 86_400),
  OPERATOR_INIT_DATA_MAX_AGE: wholeNumber('OPERATOR_INIT_DATA_MAX_AGE', 3_600, 60, 86_400),
  MAX_ACTIVE_ORDERS: wholeNumber('MAX_ACTIVE_ORDERS', DEFAULT_MAX_ACTIVE_ORDERS, 1, 100),
  REQUISITES_TIMEOUT: wholeNumber(
    'REQUISITES_TIMEOUT',
    DEFAULT_REQUISITES_TIMEOUT_MS / 1000,
    OPERATOR_USUAL_ANSWER_MS / 1000,
    7 * 86_400,
  ),
  DEPOSIT_ADDRESS_TRC20: walletAddress('DEPOSIT_ADDRESS_TRC20', 'TRC20'),
  DEPOSIT_ADDRESS_EVM: walletAddress('DEPOSIT_ADDRESS_EVM', 'ERC20'),
  // The exchange's hot wallets: a buy's payout must come from one (chain/deposit-rules.ts,
  // judgePayout). Unset: any sender's transfer to the customer's wallet is taken.
  PAYOUT_ADDRESS_TRC20: walletAddress('PAYOUT_ADDRESS_TRC20', 'TRC20'),
  PAYOUT_ADDRESS_EVM: walletAddress('PAYOUT_ADDRESS_EVM', 'ERC20'),
  BANK_RECIPIENT_NAME: v.optional(text),
  BANK_ACCOUNT_NUMBER: bankDetail('BANK_ACCOUNT_NUMBER', 'accountNumber', '20 digits'),
  BANK_NAME: v.optional(text),
  BANK_BIK: bankDetail('BANK_BIK', 'bik', '9 digits'),
  BANK_CORRESPONDENT_ACCOUNT: bankDetail(
    'BANK_CORRESPONDENT_ACCOUNT',
    'correspondentAccount',
    '20 digits',
  ),
  BANK_INN: bankDetail('BANK_INN', 'inn', '10 or 12 digits'),
  BANK_ADDRESS: v.optional(text),
  BANK_BENEFICIARY_NAME: v.optional(text),
  BANK_BENEFICIARY_ACCOUNT: v.optional(text),
  OPERATOR_CHAT_ID: v.optional(
    v.pipe(
      text,
      v.regex(
        /^-?\d{1,20}$/,
        (issue) =>
          `OPERATOR_CHAT_ID must be a Telegram chat id (a group's starts with -100), got "${issue.input}"`,
      ),
      v.transform(Number),
    ),
  ),
  OPERATOR_CHAT_LANGUAGE: v.optional(
    v.picklist(
      LANGUAGES,
      (issue) =>
        `OPERATOR_CHAT_LANGUAGE must be one of ${LANGUAGES.join(', ')}, got "${String(issue.input)}"`,
    ),
    'ru',
  ),
  WEBHOOK_URL: v.optional(
    v.pipe(
      text,
      v.regex(
        /^https:\/\/[^\s/?#]+\/[^\s?#]*$/,
        (issue) =>
          `WEBHOOK_URL must be an https:// address with a path (https://exchange.example/telegram/webhook), got "${issue.input}"`,
      ),
    ),
  ),
  TELEGRAM_API_ROOT: v.optional(
    v.pipe(
      text,
      v.regex(
        /^https?:\/\/[^\s]+[^\s/]$/,
        (issue) =>
          `TELEGRAM_API_ROOT must be an http(s):// address without a trailing slash, got "${issue.input}"`,
      ),
    ),
    'https://api.telegram.org',
  ),
  DEMO_AUTOPILOT: v.optional(
    v.picklist(
      ['on', 'off'],
      (issue) => `DEMO_AUTOPILOT must be on or off, got "${String(issue.input)}"`,
    ),
  ),
  METRICS_TOKEN: v.optional(
    v.pipe(
      text,
      v.regex(
        /^[\x21-\x7e]{32,}$/,
        'METRICS_TOKEN must be at least 32 printable characters without spaces (openssl rand -hex 32 makes one)',
      ),
    ),
  ),
  // Seconds would do for people, but tests and the local chain (a block every 2 s) want less.
  CHAIN_CHECK_INTERVAL_MS: wholeNumber('CHAIN_CHECK_INTERVAL_MS', 15_000, 1_000, 600_000),
  CHAIN_ALLOW_TEST_NETWORKS: v.optional(
    v.picklist(
      ['1', '0'],
      (issue) => `CHAIN_ALLOW_TEST_NETWORKS must be 1 or 0, got "${String(issue.input)}"`,
    ),
    '0',
  ),
  CHAIN_LOOKUP_WINDOW_MINUTES: wholeNumber('CHAIN_LOOKUP_WINDOW_MINUTES', 120, 5, 7 * 24 * 60),
  DEPOSIT_AMOUNT_HOLD_HOURS: wholeNumber('DEPOSIT_AMOUNT_HOLD_HOURS', 72, 1, 90 * 24),
  // An address poisoner's transfers are of nothing or a few cents; no sell is under 1 coin.
  CHAIN_DUST_BELOW: v.optional(
    v.pipe(
      text,
      v.check(
        (raw) => /^\d+(\.\d{1,6})?$/.test(raw) && Number(raw) <= 1_000,
        (issue) =>
          `CHAIN_DUST_BELOW must be an amount of coins from 0 to 1000, got "${issue.input}"`,
      ),
      v.transform((raw) => toUnits(raw) ?? 0),
    ),
    '1',
  ),
  LOG_LEVEL: v.optional(
    v.picklist(
      LOG_LEVELS,
      (issue) => `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${String(issue.input)}"`,
    ),
    'info',
  ),
  // One message per entry that is none of these.
  TRUST_PROXY: v.optional(
    commaList(
      v.pipe(
        text,
        v.check(
          isProxyAddress,
          (issue) =>
            `TRUST_PROXY must be addresses or CIDR ranges of your reverse proxies, or loopback, linklocal, uniquelocal, separated by commas, got "${issue.input}"`,
        ),
      ),
    ),
    DEFAULT_TRUST_PROXY,
  ),
});

type EnvVariables = v.InferOutput<typeof EnvVariablesSchema>;

/** The variables of the default bank account, which is all or nothing. */
const BANK_VARIABLES = [
  'BANK_RECIPIENT_NAME',
  'BANK_ACCOUNT_NUMBER',
  'BANK_NAME',
  'BANK_BIK',
  'BANK_CORRESPONDENT_ACCOUNT',
  'BANK_INN',
] as const satisfies readonly (keyof EnvVariables)[];

/** The variables as their checks left them: a bad one keeps its value, so it still counts as set. */
const variablesOf = (value: unknown): Partial<Record<keyof EnvVariables, unknown>> =>
  typeof value === 'object' && value !== null ? value : {};

/**
 * The environment as the server reads it: every value trimmed, a blank one as if unset, each
 * variable checked, then the rules between variables. Those run even when a variable is bad,
 * so that every problem is listed at once.
 */
const EnvSchema = v.pipe(
  v.record(v.string(), v.optional(v.string())),
  v.transform((env) =>
    Object.fromEntries(
      Object.entries(env)
        .map(([name, value]) => [name, value?.trim()] as const)
        .filter(([, value]) => value !== undefined && value !== ''),
    ),
  ),
  EnvVariablesSchema,
  v.rawCheck(({ dataset, addIssue }) => {
    const env = variablesOf(dataset.value);
    if (env.BOT_TOKEN === undefined) return;
    for (const name of ['DEPOSIT_ADDRESS_TRC20', 'DEPOSIT_ADDRESS_EVM'] as const) {
      if (env[name] === undefined) {
        addIssue({
          message: `${name} must be set when BOT_TOKEN is set: customers send real funds to it`,
        });
      }
    }
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    const env = variablesOf(dataset.value);
    if (env.BOT_TOKEN === undefined && env.WEBHOOK_URL !== undefined) {
      addIssue({ message: 'WEBHOOK_URL needs BOT_TOKEN: there is no bot to receive updates for' });
    }
    // The autopilot confirms payments nobody checked: never where money is real.
    if (env.BOT_TOKEN !== undefined && env.DEMO_AUTOPILOT === 'on') {
      addIssue({
        message:
          'DEMO_AUTOPILOT=on plays the operator in demo mode only: it would confirm real payments nobody checked. Unset it, or unset BOT_TOKEN',
      });
    }
  }),
  // A half-configured account would send customers to pay with a field missing.
  v.rawCheck(({ dataset, addIssue }) => {
    const env = variablesOf(dataset.value);
    const missing = BANK_VARIABLES.filter((name) => env[name] === undefined);
    if (missing.length > 0 && missing.length < BANK_VARIABLES.length) {
      addIssue({
        message: `the default bank account is incomplete: set ${missing.join(', ')} as well`,
      });
    }
  }),
);

type Env = Readonly<Record<string, string | undefined>>;

/** Reads and checks every variable; throws ConfigError listing all problems at once. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): AppConfig {
  const result = v.safeParse(EnvSchema, env);
  // The chain checks' variables have their own parser (platform/config/chain-config.ts); its problems are
  // listed with the others, so that one start names every one of them.
  const chain = parseChainConfig(env);
  const problems = [
    ...(result.success ? [] : result.issues.map((issue) => issue.message)),
    ...(chain.ok ? [] : chain.problems),
  ];
  if (!result.success || !chain.ok || problems.length > 0) throw new ConfigError(problems);
  const variables = result.output;
  return {
    port: variables.PORT,
    host: variables.HOST ?? (variables.BOT_TOKEN === undefined ? '127.0.0.1' : '0.0.0.0'),
    database:
      variables.DATABASE_URL === undefined
        ? { kind: 'sqlite', path: path.resolve(cwd, variables.SQLITE_PATH) }
        : { kind: 'postgres', url: variables.DATABASE_URL },
    receiptsDir: path.resolve(cwd, variables.RECEIPTS_DIR),
    botToken: variables.BOT_TOKEN,
    botUsername: variables.BOT_USERNAME,
    operatorIds: variables.OPERATOR_IDS,
    supportUrl: variables.SUPPORT_URL,
    initDataMaxAgeSeconds: variables.INIT_DATA_MAX_AGE,
    operatorInitDataMaxAgeSeconds: variables.OPERATOR_INIT_DATA_MAX_AGE,
    callLimits: CALL_LIMITS,
    addressLimits: ADDRESS_LIMITS,
    trustProxy: variables.TRUST_PROXY,
    maxActiveOrders: variables.MAX_ACTIVE_ORDERS,
    requisitesTimeoutMs: variables.REQUISITES_TIMEOUT * 1000,
    depositAddresses: {
      trc20: variables.DEPOSIT_ADDRESS_TRC20 ?? DEMO_DEPOSIT_ADDRESSES.trc20,
      evm: variables.DEPOSIT_ADDRESS_EVM ?? DEMO_DEPOSIT_ADDRESSES.evm,
    },
    bankAccount: bankAccount(variables),
    logLevel: variables.LOG_LEVEL,
    staticDir: path.resolve(cwd, variables.STATIC_DIR),
    operatorChatId: variables.OPERATOR_CHAT_ID,
    operatorChatLanguage: variables.OPERATOR_CHAT_LANGUAGE,
    webhookUrl: variables.WEBHOOK_URL,
    telegramApiRoot: variables.TELEGRAM_API_ROOT,
    demoAutopilot: variables.BOT_TOKEN === undefined && variables.DEMO_AUTOPILOT !== 'off',
    metricsToken: variables.METRICS_TOKEN,
    chain: withPayoutAddresses(chain.config, {
      evm: variables.PAYOUT_ADDRESS_EVM,
      trc20: variables.PAYOUT_ADDRESS_TRC20,
    }),
    chainCheckIntervalMs: variables.CHAIN_CHECK_INTERVAL_MS,
    chainAllowTestNetworks: variables.CHAIN_ALLOW_TEST_NETWORKS === '1',
    chainLookupWindowMs: variables.CHAIN_LOOKUP_WINDOW_MINUTES * 60_000,
    depositAmountHoldMs: variables.DEPOSIT_AMOUNT_HOLD_HOURS * 3_600_000,
    chainDustBelowUnits: variables.CHAIN_DUST_BELOW,
  };
}

/** The default bank account when all of it is set; the beneficiary falls back to the recipient. */
function bankAccount(variables: EnvVariables): BankRequisites | undefined {
  const {
    BANK_RECIPIENT_NAME: recipientName,
    BANK_ACCOUNT_NUMBER: accountNumber,
    BANK_NAME: bankName,
    BANK_BIK: bik,
    BANK_CORRESPONDENT_ACCOUNT: correspondentAccount,
    BANK_INN: inn,
    BANK_ADDRESS: bankAddress,
  } = variables;
  if (
    recipientName === undefined ||
    accountNumber === undefined ||
    bankName === undefined ||
    bik === undefined ||
    correspondentAccount === undefined ||
    inn === undefined
  ) {
    return undefined;
  }
  return {
    recipientName,
    accountNumber,
    bankName,
    bik,
    correspondentAccount,
    inn,
    ...(bankAddress === undefined ? {} : { bankAddress }),
    beneficiaryName: variables.BANK_BENEFICIARY_NAME ?? recipientName,
    beneficiaryAccount: variables.BANK_BENEFICIARY_ACCOUNT ?? accountNumber,
  };
}
