import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAIN_VARIABLE_NAMES } from '../../../src/server/platform/config/chain-config';
import {
  ConfigError,
  DEMO_DEPOSIT_ADDRESSES,
  EnvVariablesSchema,
  isDemoMode,
  loadConfig,
} from '../../../src/server/platform/config/config';
import {
  REFERENCE_PATH,
  configurationReference,
} from '../../../src/server/platform/config/reference';

const BOT_TOKEN = '7000000001:AAHk3rZ9mQx2VbT8nP4sLw6yJcD1eFgH0iK';
const DEPOSITS = {
  DEPOSIT_ADDRESS_TRC20: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  DEPOSIT_ADDRESS_EVM: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
};
const BANK = {
  BANK_RECIPIENT_NAME: 'ООО «Криптообмен»',
  BANK_ACCOUNT_NUMBER: '40702810938000123456',
  BANK_NAME: 'ПАО Сбербанк',
  BANK_BIK: '044525225',
  BANK_CORRESPONDENT_ACCOUNT: '30101810400000000225',
  BANK_INN: '7707083893',
};

/** The problems a configuration is refused with; none when it is taken. */
function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('configuration from the environment', () => {
  it('runs with no configuration at all: port 3000, SQLite in ./data, demo mode', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'sqlite', path: '/srv/app/data/exchange.db' });
    expect(config.receiptsDir).toBe(path.resolve('/srv/app/data/receipts'));
    expect(isDemoMode(config)).toBe(true);
    expect(config.initDataMaxAgeSeconds).toBe(86_400);
    expect(config.operatorInitDataMaxAgeSeconds).toBe(3_600);
  });

  it("an operator's money actions take init data of OPERATOR_INIT_DATA_MAX_AGE seconds at most", () => {
    expect(loadConfig({ OPERATOR_INIT_DATA_MAX_AGE: '600' }).operatorInitDataMaxAgeSeconds).toBe(
      600,
    );
  });

  it('reads METRICS_TOKEN, the bearer token a scrape of the metrics must carry; none by default', () => {
    const token = 'f3b1c2d4e5a6978812345678deadbeefcafe0123456789abcdef0123456789ab';
    expect(loadConfig({ METRICS_TOKEN: token }).metricsToken).toBe(token);
    expect(loadConfig({}).metricsToken).toBeUndefined();
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/exchange' });
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@127.0.0.1:5432/exchange',
    });
  });

  it('reads operators, the bot and the support link', () => {
    const config = loadConfig({
      BOT_TOKEN: '7000000001:AAHk3rZ9mQx2VbT8nP4sLw6yJcD1eFgH0iK',
      BOT_USERNAME: '@exchange_bot',
      OPERATOR_IDS: '111, 222',
      SUPPORT_URL: 'https://t.me/help_desk',
      DEPOSIT_ADDRESS_TRC20: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      DEPOSIT_ADDRESS_EVM: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
    expect(isDemoMode(config)).toBe(false);
    expect(config.botUsername).toBe('exchange_bot');
    expect(config.operatorIds).toEqual([111, 222]);
    expect(config.supportUrl).toBe('https://t.me/help_desk');
    expect(config.depositAddresses).toEqual({
      trc20: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      evm: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
  });

  it('demo mode deposits to burn addresses; a real bot token requires real deposit addresses', () => {
    expect(loadConfig({}).depositAddresses).toEqual(DEMO_DEPOSIT_ADDRESSES);
    expect(() =>
      loadConfig({ BOT_TOKEN: '7000000001:AAHk3rZ9mQx2VbT8nP4sLw6yJcD1eFgH0iK' }),
    ).toThrow(/DEPOSIT_ADDRESS_TRC20 must be set when BOT_TOKEN is set/);
  });

  it('refuses a deposit address with a bad checksum', () => {
    expect(() =>
      loadConfig({ DEPOSIT_ADDRESS_EVM: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' }),
    ).toThrow(/DEPOSIT_ADDRESS_EVM is not a valid EVM address/);
  });

  it('takes the default bank account whole, with the beneficiary falling back to the recipient', () => {
    expect(loadConfig(BANK).bankAccount).toEqual({
      recipientName: 'ООО «Криптообмен»',
      accountNumber: '40702810938000123456',
      bankName: 'ПАО Сбербанк',
      bik: '044525225',
      correspondentAccount: '30101810400000000225',
      inn: '7707083893',
      beneficiaryName: 'ООО «Криптообмен»',
      beneficiaryAccount: '40702810938000123456',
    });
    expect(loadConfig({}).bankAccount).toBeUndefined();
    expect(() => loadConfig({ BANK_NAME: 'ПАО Сбербанк' })).toThrow(
      /incomplete: set BANK_RECIPIENT_NAME/,
    );
  });

  it('names every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        BOT_TOKEN: 'not-a-token',
        OPERATOR_IDS: '12,abc',
        SUPPORT_URL: 'http://example.com',
        INIT_DATA_MAX_AGE: '5',
        OPERATOR_INIT_DATA_MAX_AGE: '0',
        LOG_LEVEL: 'loud',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'BOT_TOKEN',
      'OPERATOR_IDS',
      'SUPPORT_URL',
      'INIT_DATA_MAX_AGE',
      'OPERATOR_INIT_DATA_MAX_AGE',
      'LOG_LEVEL',
    ]) {
      expect(problems).toContain(name);
    }
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a whole number from 0 to 65535, got "eighty"'],
    [{ PORT: '65536' }, 'PORT must be a whole number from 0 to 65535, got "65536"'],
    [
      { DATABASE_URL: 'mysql://x' },
      'DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:5432/db)',
    ],
    [
      { BOT_TOKEN: 'not-a-token', ...DEPOSITS },
      'BOT_TOKEN does not look like a token from @BotFather (123456789:AA…)',
    ],
    [{ BOT_USERNAME: '@x' }, 'BOT_USERNAME must be a Telegram bot username, got "x"'],
    [
      { OPERATOR_IDS: '12, abc' },
      'OPERATOR_IDS must be Telegram user ids separated by commas, got "abc"',
    ],
    [
      { SUPPORT_URL: 'http://example.com' },
      'SUPPORT_URL must be a https://t.me/… link, got "http://example.com"',
    ],
    [
      { INIT_DATA_MAX_AGE: '5' },
      'INIT_DATA_MAX_AGE must be a whole number from 60 to 2592000, got "5"',
    ],
    [
      { OPERATOR_INIT_DATA_MAX_AGE: '86401' },
      'OPERATOR_INIT_DATA_MAX_AGE must be a whole number from 60 to 86400, got "86401"',
    ],
    [{ MAX_ACTIVE_ORDERS: '0' }, 'MAX_ACTIVE_ORDERS must be a whole number from 1 to 100, got "0"'],
    [{ DEPOSIT_ADDRESS_TRC20: 'T123' }, 'DEPOSIT_ADDRESS_TRC20 is not a valid Tron address'],
    [
      { ...BANK, BANK_ACCOUNT_NUMBER: '4070281093800012345' },
      'BANK_ACCOUNT_NUMBER must be 20 digits',
    ],
    [{ ...BANK, BANK_BIK: '04452522' }, 'BANK_BIK must be 9 digits'],
    [
      { ...BANK, BANK_CORRESPONDENT_ACCOUNT: '3010181040000000022x' },
      'BANK_CORRESPONDENT_ACCOUNT must be 20 digits',
    ],
    [{ ...BANK, BANK_INN: '77070838931' }, 'BANK_INN must be 10 or 12 digits'],
    [
      { BANK_NAME: 'ПАО Сбербанк' },
      'the default bank account is incomplete: set BANK_RECIPIENT_NAME, BANK_ACCOUNT_NUMBER, ' +
        'BANK_BIK, BANK_CORRESPONDENT_ACCOUNT, BANK_INN as well',
    ],
    [
      { METRICS_TOKEN: 'short' },
      'METRICS_TOKEN must be at least 32 printable characters without spaces (openssl rand -hex 32 makes one)',
    ],
    [
      { METRICS_TOKEN: 'a token with spaces in it, long enough to count' },
      'METRICS_TOKEN must be at least 32 printable characters without spaces (openssl rand -hex 32 makes one)',
    ],
    [
      { LOG_LEVEL: 'loud' },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    ],
  ])('refuses %o with exactly one line: %s', (env, message) => {
    expect(problemsOf(env)).toEqual([message]);
  });

  it('gives one line per id that is not a Telegram user id', () => {
    expect(problemsOf({ OPERATOR_IDS: 'x, 12, y' })).toEqual([
      'OPERATOR_IDS must be Telegram user ids separated by commas, got "x"',
      'OPERATOR_IDS must be Telegram user ids separated by commas, got "y"',
    ]);
  });

  it('asks for both deposit addresses when BOT_TOKEN is set, even a BOT_TOKEN that is refused', () => {
    const missing = [
      'DEPOSIT_ADDRESS_TRC20 must be set when BOT_TOKEN is set: customers send real funds to it',
      'DEPOSIT_ADDRESS_EVM must be set when BOT_TOKEN is set: customers send real funds to it',
    ];
    expect(problemsOf({ BOT_TOKEN })).toEqual(missing);
    expect(problemsOf({ BOT_TOKEN: 'not-a-token' })).toEqual([
      'BOT_TOKEN does not look like a token from @BotFather (123456789:AA…)',
      ...missing,
    ]);
  });

  it('believes X-Forwarded-For from the loopback and private ranges by default, and from the proxies TRUST_PROXY names', () => {
    expect(loadConfig({}).trustProxy).toEqual(['loopback', 'linklocal', 'uniquelocal']);
    expect(
      loadConfig({ TRUST_PROXY: ' 198.51.100.7, 10.0.0.0/8 ,fd00::/8,loopback' }).trustProxy,
    ).toEqual(['198.51.100.7', '10.0.0.0/8', 'fd00::/8', 'loopback']);
  });

  it('refuses a TRUST_PROXY entry that is no address, range or range name, one line each', () => {
    const problem = (entry: string) =>
      `TRUST_PROXY must be addresses or CIDR ranges of your reverse proxies, or loopback, linklocal, uniquelocal, separated by commas, got "${entry}"`;
    expect(problemsOf({ TRUST_PROXY: 'nginx.local, 10.0.0.0/33, 1, ::1/129, 127.0.0.1' })).toEqual([
      problem('nginx.local'),
      problem('10.0.0.0/33'),
      problem('1'),
      problem('::1/129'),
    ]);
  });

  it('trims every value and treats a blank one as unset', () => {
    const config = loadConfig({ PORT: '  ', HOST: ' 127.0.0.1 ', OPERATOR_IDS: ' 7 ,, 8 ' });
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.operatorIds).toEqual([7, 8]);
  });

  it('docs/configuration.md is what the schemas write now (`npm run docs:config` rewrites it)', async () => {
    const written = fs.readFileSync(REFERENCE_PATH, 'utf8');
    expect(written, 'docs/configuration.md differs from the schemas: run npm run docs:config').toBe(
      await configurationReference(),
    );
  });

  it('the reference names every variable read, by itself or by its family, and nothing else', () => {
    const reference = fs.readFileSync(REFERENCE_PATH, 'utf8');
    const rows = [...reference.matchAll(/^\| `([A-Z0-9_<>]+)`/gm)].map((m) => m[1] ?? '');
    expect(rows.length).toBeGreaterThan(10);
    // A family's placeholders (`<NETWORK>`) stand for a part of a name that has no row of its own.
    const ofFamily = (family: string, name: string) =>
      !rows.includes(name) &&
      new RegExp(`^${family.replace(/<[A-Z]+>/g, '[A-Z0-9]+')}$`).test(name);
    const read = [...Object.keys(EnvVariablesSchema.entries), ...CHAIN_VARIABLE_NAMES];
    const families = rows.filter((row) => row.includes('<'));
    expect(
      read.filter(
        (name) => !rows.includes(name) && !families.some((family) => ofFamily(family, name)),
      ),
    ).toEqual([]);
    expect(
      rows.filter((row) => !read.includes(row) && !read.some((name) => ofFamily(row, name))),
    ).toEqual([]);
    expect(rows).toContain('TOKEN_CONTRACT_<COIN>_<NETWORK>');
    expect(rows).not.toContain('TOKEN_CONTRACT_USDT_BEP20');
  });
});

describe('the chain checks in the configuration', () => {
  it('leaves every network manual with no CHAIN_RPC_<NETWORK>, demo mode included', () => {
    const config = loadConfig({});
    expect(Object.values(config.chain).every((network) => network === 'manual')).toBe(true);
    expect(config.chainCheckIntervalMs).toBe(15_000);
    expect(config.chainLookupWindowMs).toBe(120 * 60_000);
    expect(config.depositAmountHoldMs).toBe(72 * 3_600_000);
    expect(config.chainDustBelowUnits).toBe(1_000_000);
    expect(loadConfig({ CHAIN_DUST_BELOW: '0.5' }).chainDustBelowUnits).toBe(500_000);
    expect(() => loadConfig({ CHAIN_DUST_BELOW: 'a lot' })).toThrow(/CHAIN_DUST_BELOW/);
  });

  it('reads a network with a node, its confirmations and the check timings', () => {
    const config = loadConfig({
      CHAIN_RPC_BEP20: 'http://127.0.0.1:8545',
      CHAIN_CONFIRMATIONS_BEP20: '3',
      CHAIN_CHECK_INTERVAL_MS: '2000',
      CHAIN_LOOKUP_WINDOW_MINUTES: '30',
      DEPOSIT_AMOUNT_HOLD_HOURS: '24',
    });
    expect(config.chain.BEP20).toMatchObject({
      family: 'evm',
      rpcUrl: 'http://127.0.0.1:8545',
      confirmations: 3,
    });
    expect(config.chain.ERC20).toBe('manual');
    expect(config.chainCheckIntervalMs).toBe(2_000);
    expect(config.chainLookupWindowMs).toBe(30 * 60_000);
    expect(config.depositAmountHoldMs).toBe(24 * 3_600_000);
    expect(() => loadConfig({ DEPOSIT_AMOUNT_HOLD_HOURS: '0' })).toThrow(
      /DEPOSIT_AMOUNT_HOLD_HOURS/,
    );
  });

  it("lists the chain variables' problems with the others, all at once", () => {
    try {
      loadConfig({ PORT: 'x', CHAIN_RPC_ERC20: 'ftp://node', CHAIN_CHECK_INTERVAL_MS: '5' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems;
      expect(problems.some((p) => p.startsWith('PORT'))).toBe(true);
      expect(problems.some((p) => p.startsWith('CHAIN_RPC_ERC20'))).toBe(true);
      expect(problems.some((p) => p.startsWith('CHAIN_CHECK_INTERVAL_MS'))).toBe(true);
    }
  });
});

describe('PAYOUT_ADDRESS_EVM and PAYOUT_ADDRESS_TRC20: where payouts must come from', () => {
  const NODES = {
    CHAIN_RPC_ERC20: 'http://127.0.0.1:8545',
    CHAIN_RPC_TRC20: 'http://127.0.0.1:8090',
  };
  const HOT_EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  const HOT_TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

  it('each network read from a node gets its family’s payout address; a manual one none', () => {
    const config = loadConfig({
      ...NODES,
      CHAIN_RPC_BASE: 'http://127.0.0.1:8546',
      PAYOUT_ADDRESS_EVM: HOT_EVM,
      PAYOUT_ADDRESS_TRC20: HOT_TRON,
    });
    expect(config.chain.ERC20).toMatchObject({ payoutAddress: HOT_EVM });
    expect(config.chain.BASE).toMatchObject({ payoutAddress: HOT_EVM });
    expect(config.chain.TRC20).toMatchObject({ payoutAddress: HOT_TRON });
    expect(config.chain.BEP20).toBe('manual');
  });

  it('unset: no network has one, so any sender is taken as before', () => {
    const config = loadConfig(NODES);
    for (const settings of Object.values(config.chain)) {
      if (settings !== 'manual') expect(settings.payoutAddress).toBeUndefined();
    }
  });

  it('are checked like the deposit addresses, one message each', () => {
    const problems = problemsOf({
      PAYOUT_ADDRESS_EVM: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
      PAYOUT_ADDRESS_TRC20: 'T123',
    });
    expect(problems).toContain('PAYOUT_ADDRESS_EVM is not a valid EVM address');
    expect(problems).toContain('PAYOUT_ADDRESS_TRC20 is not a valid Tron address');
  });
});
