import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, isDemoMode, loadConfig } from '../../src/server/config';

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
    });
    expect(isDemoMode(config)).toBe(false);
    expect(config.botUsername).toBe('exchange_bot');
    expect(config.operatorIds).toEqual([111, 222]);
    expect(config.supportUrl).toBe('https://t.me/help_desk');
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
