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
import { documented, withRange } from './documented';
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
  /** The operators who decide appeals (SENIOR_OPERATOR_IDS). */
  readonly seniorOperatorIds: readonly number[];
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
  /** Whether the poll lane answers ordinary polls (status, unchanged chat) before Fastify (STATUS_LANE). */
  readonly statusLane: boolean;
  /**
   * The bearer token a scrape of the metrics must carry; when unset, only loopback and private
   * addresses may scrape them (platform/metrics/metrics-plugin.ts).
   */
  readonly metricsToken: string | undefined;
  /**
   * The chain checks: per network, its node, confirmations, official tokens and the
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

/** Telegram user ids separated by commas, none by default: one message per id that is not one. */
const telegramIds = (name: string) =>
  v.optional(
    commaList(
      v.pipe(
        text,
        v.regex(
          /^\d{1,15}$/,
          (issue) => `${name} must be Telegram user ids separated by commas, got "${issue.input}"`,
        ),
        v.transform(Number),
      ),
    ),
    '',
  );

const wholeNumber = (name: string, fallback: number, min: number, max: number) =>
  withRange(
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
    ),
    min,
    max,
  );

/** How each bank detail's format reads, in its refusal and in the reference alike. */
const BANK_DETAIL_FORMATS: Readonly<Record<BankDetail, string>> = {
  accountNumber: '20 digits',
  bik: '9 digits',
  correspondentAccount: '20 digits',
  inn: '10 or 12 digits',
};

/** A bank detail of the default account: refused unless of its format, documented with it. */
const bankDetail = (name: string, detail: BankDetail, description: string) => {
  const format = BANK_DETAIL_FORMATS[detail];
  return documented(
    v.optional(v.pipe(text, v.regex(BANK_DETAIL_PATTERNS[detail], `${name} must be ${format}`))),
    `${description}, ${format}`,
    { group: 'bank' },
  );
};

/** A switch, `on` or `off`; unset, the caller's default. */
const onOrOff = (name: string) =>
  v.optional(
    v.picklist(['on', 'off'], (issue) => `${name} must be on or off, got "${String(issue.input)}"`),
  );

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
 * Every variable the server reads, each with its own check and so its own message, and with what
 * docs/configuration.md says of it (documented.ts: the reference is generated from this schema).
 */
export const EnvVariablesSchema = v.object({
  PORT: documented(wholeNumber('PORT', 3000, 0, 65535), 'the HTTP port', { group: 'server' }),
  // Unset: only this machine in demo mode (its customers are signed in by the server itself).
  HOST: documented(
    v.optional(text),
    'the address to listen on: a demo is for this machine only unless you say otherwise',
    { group: 'server', unset: '`127.0.0.1` in demo mode, else `0.0.0.0`' },
  ),
  DATABASE_URL: documented(
    v.optional(
      v.pipe(
        text,
        v.regex(
          /^postgres(ql)?:\/\//,
          'DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:5432/db)',
        ),
      ),
    ),
    'a `postgres://` URL: PostgreSQL instead of SQLite (see [deployment](deployment.md))',
    { group: 'storage', unset: 'SQLite' },
  ),
  SQLITE_PATH: documented(
    v.optional(text, 'data/exchange.db'),
    'the SQLite file (WAL mode) when `DATABASE_URL` is unset, relative to the working directory',
    { group: 'storage' },
  ),
  RECEIPTS_DIR: documented(
    v.optional(text, 'data/receipts'),
    "where customers' payment receipts are kept: the evidence of payments (several instances need storage they all mount)",
    { group: 'storage' },
  ),
  STATIC_DIR: documented(
    v.optional(text, 'dist'),
    'the built mini-app served at `/` (`npm run build` writes it)',
    { group: 'server' },
  ),
  BOT_TOKEN: documented(
    v.optional(
      v.pipe(
        text,
        v.regex(
          /^\d{5,}:[A-Za-z0-9_-]{30,}$/,
          'BOT_TOKEN does not look like a token from @BotFather (123456789:AA…)',
        ),
      ),
    ),
    "the bot's token from @BotFather: Telegram init data is verified with it, and the bot runs. It never reaches the logs",
    { group: 'telegram', unset: 'demo mode' },
  ),
  BOT_USERNAME: documented(
    v.optional(
      v.pipe(
        text,
        v.transform((name) => name.replace(/^@/, '')),
        v.regex(
          /^[A-Za-z][A-Za-z0-9_]{3,31}$/,
          (issue) => `BOT_USERNAME must be a Telegram bot username, got "${issue.input}"`,
        ),
      ),
    ),
    "the bot's username (with or without `@`), for the `https://t.me/<bot>?startapp=order_<id>` links",
    { group: 'telegram' },
  ),
  // One message per id that is not one.
  OPERATOR_IDS: documented(
    telegramIds('OPERATOR_IDS'),
    'the Telegram user ids of the operators, comma-separated: they see the console and may call `/api/operator/*`',
    { group: 'operators' },
  ),
  SENIOR_OPERATOR_IDS: documented(
    telegramIds('SENIOR_OPERATOR_IDS'),
    'the Telegram user ids of the senior operators, comma-separated, each also in `OPERATOR_IDS`: only they decide appeals, and only their decision ends an order under appeal',
    { group: 'operators' },
  ),
  SUPPORT_URL: documented(
    v.optional(
      v.pipe(
        text,
        v.regex(
          /^https:\/\/t\.me\/[A-Za-z0-9_+/?=&-]+$/,
          (issue) => `SUPPORT_URL must be a https://t.me/… link, got "${issue.input}"`,
        ),
      ),
      'https://t.me/exchange_support',
    ),
    'the support chat the app links to, a `https://t.me/` link (the order number is prefilled)',
    { group: 'telegram' },
  ),
  INIT_DATA_MAX_AGE: documented(
    wholeNumber('INIT_DATA_MAX_AGE', 86_400, 60, 30 * 86_400),
    "how old a customer's Telegram init data may be, in seconds",
    { group: 'operators' },
  ),
  OPERATOR_INIT_DATA_MAX_AGE: documented(
    wholeNumber('OPERATOR_INIT_DATA_MAX_AGE', 3_600, 60, 86_400),
    "how old an operator's init data may be, in seconds, for the console's actions that move money (giving requisites, confirming a payment or a transaction, attaching a deposit, completing, deciding an appeal, setting rates and spreads: `MONEY_ACTIONS` in `src/shared/operator-api.ts`); older, the console asks the operator to reopen it and keeps what they typed",
    { group: 'operators' },
  ),
  MAX_ACTIVE_ORDERS: documented(
    wholeNumber('MAX_ACTIVE_ORDERS', DEFAULT_MAX_ACTIVE_ORDERS, 1, 100),
    'how many orders in a non-final status one customer may hold at once',
    { group: 'orders' },
  ),
  REQUISITES_TIMEOUT: documented(
    wholeNumber(
      'REQUISITES_TIMEOUT',
      DEFAULT_REQUISITES_TIMEOUT_MS / 1000,
      OPERATOR_USUAL_ANSWER_MS / 1000,
      7 * 86_400,
    ),
    `seconds an order waits for requisites or office instructions before it is cancelled (no operator answered); it is flagged for operators after ${OPERATOR_USUAL_ANSWER_MS / 60_000} minutes`,
    { group: 'orders' },
  ),
  DEPOSIT_ADDRESS_TRC20: documented(
    walletAddress('DEPOSIT_ADDRESS_TRC20', 'TRC20'),
    'where sellers send USDT and USDC on Tron; required with `BOT_TOKEN`',
    {
      group: 'deposits',
      unset: `a burn address in demo mode (\`${DEMO_DEPOSIT_ADDRESSES.trc20}\`)`,
    },
  ),
  DEPOSIT_ADDRESS_EVM: documented(
    walletAddress('DEPOSIT_ADDRESS_EVM', 'ERC20'),
    'where sellers send on every EVM network (BEP20, ERC20, POLYGON, ARBITRUM, OPTIMISM, BASE); required with `BOT_TOKEN`',
    { group: 'deposits', unset: `a burn address in demo mode (\`${DEMO_DEPOSIT_ADDRESSES.evm}\`)` },
  ),
  // The exchange's hot wallets: a buy's payout must come from one (chain/deposit-rules.ts,
  // judgePayout). Unset: any sender's transfer to the customer's wallet is taken.
  PAYOUT_ADDRESS_TRC20: documented(
    walletAddress('PAYOUT_ADDRESS_TRC20', 'TRC20'),
    'the exchange\'s Tron wallet buys are paid from: a TRC20 payout checked on the chain must come from it (`TX_WRONG_SENDER`). Unset, a customer who paid themselves could be "paid" by their own transfer',
    { group: 'deposits', unset: "any sender, the customer's own included" },
  ),
  PAYOUT_ADDRESS_EVM: documented(
    walletAddress('PAYOUT_ADDRESS_EVM', 'ERC20'),
    'the same for the EVM networks: a payout checked on the chain there must come from it',
    { group: 'deposits', unset: "any sender, the customer's own included" },
  ),
  BANK_RECIPIENT_NAME: documented(
    v.optional(text),
    'the recipient; it and the five below are set together or not at all, and bank buys then start with these requisites instead of waiting for an operator',
    { group: 'bank' },
  ),
  BANK_ACCOUNT_NUMBER: bankDetail('BANK_ACCOUNT_NUMBER', 'accountNumber', 'the account number'),
  BANK_NAME: documented(v.optional(text), 'the bank', { group: 'bank' }),
  BANK_BIK: bankDetail('BANK_BIK', 'bik', "the bank's BIK"),
  BANK_CORRESPONDENT_ACCOUNT: bankDetail(
    'BANK_CORRESPONDENT_ACCOUNT',
    'correspondentAccount',
    "the bank's correspondent account",
  ),
  BANK_INN: bankDetail('BANK_INN', 'inn', "the recipient's INN"),
  BANK_ADDRESS: documented(v.optional(text), "the bank's address (optional)", { group: 'bank' }),
  BANK_BENEFICIARY_NAME: documented(v.optional(text), 'the beneficiary, when not the recipient', {
    group: 'bank',
    unset: 'the recipient',
  }),
  BANK_BENEFICIARY_ACCOUNT: documented(
    v.optional(text),
    "the beneficiary's account, when not the recipient's",
    { group: 'bank', unset: 'the account number' },
  ),
  OPERATOR_CHAT_ID: documented(
    v.optional(
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
    "the chat the bot alerts operators in (a group's id starts with `-100`; `/chatid` there tells it): new orders, receipts, hashes, flags",
    { group: 'telegram', unset: 'no alerts' },
  ),
  OPERATOR_CHAT_LANGUAGE: documented(
    v.optional(
      v.picklist(
        LANGUAGES,
        (issue) =>
          `OPERATOR_CHAT_LANGUAGE must be one of ${LANGUAGES.join(', ')}, got "${String(issue.input)}"`,
      ),
      'ru',
    ),
    "the language of the operators' chat",
    { group: 'telegram' },
  ),
  WEBHOOK_URL: documented(
    v.optional(
      v.pipe(
        text,
        v.regex(
          /^https:\/\/[^\s/?#]+\/[^\s?#]*$/,
          (issue) =>
            `WEBHOOK_URL must be an https:// address with a path (https://exchange.example/telegram/webhook), got "${issue.input}"`,
        ),
      ),
    ),
    "the public `https://` address Telegram posts the bot's updates to (any path): the server registers it at start-up, answers at its path and refuses calls without Telegram's secret token. Needs `BOT_TOKEN`; several instances need it",
    { group: 'telegram', unset: 'long polling' },
  ),
  TELEGRAM_API_ROOT: documented(
    v.optional(
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
    "the Bot API server: Telegram's own, a self-hosted one, or a test double (no trailing slash)",
    { group: 'telegram' },
  ),
  DEMO_AUTOPILOT: documented(
    onOrOff('DEMO_AUTOPILOT'),
    'the autopilot operator that plays the staff side a few seconds after each customer step; `off` leaves every order to you. `on` is refused with `BOT_TOKEN`: it would confirm real payments nobody checked',
    { group: 'demo', unset: '`on` in demo mode' },
  ),
  STATUS_LANE: documented(
    onOrOff('STATUS_LANE'),
    "the poll lane: the HTTP server answers an ordinary status poll, and an open chat's poll while the chat is unchanged, itself, with Fastify's own answer at a fraction of its cost; `off` sends every request through Fastify (to rule the lane out when something looks wrong)",
    { group: 'server', unset: '`on`' },
  ),
  METRICS_TOKEN: documented(
    v.optional(
      v.pipe(
        text,
        v.regex(
          /^[\x21-\x7e]{32,}$/,
          'METRICS_TOKEN must be at least 32 printable characters without spaces (openssl rand -hex 32 makes one)',
        ),
      ),
    ),
    'the token a scrape of `/api/metrics` must carry as `Authorization: Bearer <token>`, at least 32 characters (`openssl rand -hex 32`); see [metrics](operating.md#metrics)',
    { group: 'observability', unset: 'private addresses only' },
  ),
  // Seconds would do for people, but tests and the local chain (a block every 2 s) want less.
  CHAIN_CHECK_INTERVAL_MS: documented(
    wholeNumber('CHAIN_CHECK_INTERVAL_MS', 15_000, 1_000, 600_000),
    "how often, in milliseconds, the chain checker reads each network's head, scans the deposit address and looks at the deposits due",
    { group: 'chain' },
  ),
  CHAIN_ALLOW_TEST_NETWORKS: documented(
    v.optional(
      v.picklist(
        ['1', '0'],
        (issue) => `CHAIN_ALLOW_TEST_NETWORKS must be 1 or 0, got "${String(issue.input)}"`,
      ),
      '0',
    ),
    '`1` when this server is a test: with `BOT_TOKEN`, a node on a test network (a local chain, a public testnet, a Tron network other than mainnet) passes with a warning instead of stopping the start. Demo mode lets them pass anyway; a node of another chain always stops it',
    { group: 'chain' },
  ),
  CHAIN_LOOKUP_WINDOW_MINUTES: documented(
    wholeNumber('CHAIN_LOOKUP_WINDOW_MINUTES', 120, 5, 7 * 24 * 60),
    'how long, in minutes, a submitted hash the node does not know yet is looked for before operators are told it was not found',
    { group: 'chain' },
  ),
  DEPOSIT_AMOUNT_HOLD_HOURS: documented(
    wholeNumber('DEPOSIT_AMOUNT_HOLD_HOURS', 72, 1, 90 * 24),
    "how long, in hours, a sell's exact amount stays its own after the sell ended: a late transfer of it is still known as that sell's, and no new sell is given it",
    { group: 'deposits' },
  ),
  // An address poisoner's transfers are of nothing or a few cents; no sell is under 1 coin.
  CHAIN_DUST_BELOW: documented(
    v.optional(
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
    "coins (0 to 1000, six decimals at most) under which a transfer to a deposit address that is no sell's exact amount is dust, an address poisoner's: counted (`exchange_chain_dust_transfers`), never listed for operators",
    { group: 'deposits' },
  ),
  LOG_LEVEL: documented(
    v.optional(
      v.picklist(
        LOG_LEVELS,
        (issue) =>
          `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${String(issue.input)}"`,
      ),
      'info',
    ),
    "what is logged: one line per request (a screen's polling at `debug`), JSON lines on standard output (readable lines on a terminal where pino-pretty is installed)",
    { group: 'observability' },
  ),
  // One message per entry that is none of these.
  TRUST_PROXY: documented(
    v.optional(
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
    "the reverse proxies whose `X-Forwarded-For` is believed for the client's address (the logs, the per-address limits, who may read the metrics): addresses or CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`, comma-separated. The proxy must replace the header, not append to it ([`deploy/`](../deploy/README.md)'s nginx site does)",
    { group: 'server' },
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
    seniorOperatorIds: variables.SENIOR_OPERATOR_IDS,
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
    statusLane: variables.STATUS_LANE !== 'off',
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
