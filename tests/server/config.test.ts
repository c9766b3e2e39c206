import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEMO_DEPOSIT_ADDRESSES,
  isDemoMode,
  loadConfig,
} from '../../src/server/config';

describe('configuration from the environment', () => {
  it('runs with no configuration at all: port 3000, SQLite in ./data, demo mode', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'sqlite', path: '/srv/app/data/exchange.db' });
    expect(config.receiptsDir).toBe(path.resolve('/srv/app/data/receipts'));
    expect(isDemoMode(config)).toBe(true);
    expect(config.initDataMaxAgeSeconds).toBe(86_400);
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
    const bank = {
      BANK_RECIPIENT_NAME: 'ООО «Криптообмен»',
      BANK_ACCOUNT_NUMBER: '40702810938000123456',
      BANK_NAME: 'ПАО Сбербанк',
      BANK_BIK: '044525225',
      BANK_CORRESPONDENT_ACCOUNT: '30101810400000000225',
      BANK_INN: '7707083893',
    };
    expect(loadConfig(bank).bankAccount).toEqual({
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
      'LOG_LEVEL',
    ]) {
      expect(problems).toContain(name);
    }
  });
});
