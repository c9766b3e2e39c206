import { describe, expect, it } from 'vitest';
import { orderIdFromStartParam } from '../../src/shared/api';
import {
  LISTED_CURRENCIES,
  KNOWN_CURRENCIES,
  methodRoute,
  methodsFor,
  methodTakesCurrency,
} from '../../src/shared/currencies';
import * as limits from '../../src/shared/limits';
import { fromMinor, fromUnits, toMinor, toUnits } from '../../src/shared/money';
import { DEFAULT_NETWORK, networksFor } from '../../src/shared/networks';
import { ORDER_SCREENS, ORDER_SCREEN_TABLE } from '../../src/shared/order-screens';

describe('business constants', () => {
  it('P2P 3 000 – 500 000 RUB, bank 500 000 – 1 000 000 RUB', () => {
    expect([limits.P2P_RUB_MIN, limits.P2P_RUB_MAX]).toEqual([3_000, 500_000]);
    expect([limits.BANK_RUB_MIN, limits.BANK_RUB_MAX]).toEqual([500_000, 1_000_000]);
  });

  it('office bounds per currency, 5 000 – 100 000 for any other', () => {
    expect(limits.officeLimits('RUB')).toEqual({ min: 500_000, max: 10_000_000 });
    expect(limits.officeLimits('USD')).toEqual({ min: 5_000, max: 100_000 });
    expect(limits.officeLimits('EUR')).toEqual({ min: 5_000, max: 100_000 });
    expect(limits.officeLimits('AED')).toEqual({ min: 20_000, max: 400_000 });
    expect(limits.officeLimits('KZT')).toEqual({ min: 2_000_000, max: 100_000_000 });
    expect(limits.officeLimits('CNY')).toEqual({ min: 5_000, max: 100_000 });
  });

  it('timers: P2P 30 min (warning 5), bank 2 h (warning 10), office 3 h (warning 10)', () => {
    expect(limits.P2P_PAYMENT_WINDOW_MS).toBe(1800 * 1000);
    expect(limits.P2P_PAYMENT_WARNING_MS).toBe(300 * 1000);
    expect(limits.BANK_PAYMENT_WINDOW_MS).toBe(7200 * 1000);
    expect(limits.BANK_PAYMENT_WARNING_MS).toBe(600 * 1000);
    expect(limits.OFFICE_RATE_FIXED_MS).toBe(3 * 3600 * 1000);
    expect(limits.OFFICE_RESERVATION_WARNING_MS).toBe(600 * 1000);
  });

  it('polling: waiting 2 s (+0.5 s), payment and upload 5 s, complete/sell/bank 3 s, office 2 s, health 10 s with 3 s timeout', () => {
    const polls = Object.fromEntries(
      ORDER_SCREENS.map((screen) => {
        const { pollMs, firstPollMs } = ORDER_SCREEN_TABLE[screen];
        return [screen, firstPollMs === undefined ? pollMs : [firstPollMs, pollMs]];
      }),
    );
    expect(polls).toEqual({
      waiting: [500, 2000],
      payment: 5000,
      'upload-receipt': 5000,
      complete: 3000,
      'sell-waiting': 3000,
      'send-crypto': 3000,
      'bank-requisites': 3000,
      'office-waiting': 2000,
      details: null,
    });
    expect(limits.HEALTH_CHECK_INTERVAL_MS).toBe(10000);
    expect(limits.HEALTH_TIMEOUT_MS).toBe(3000);
  });

  it('rate lookup 1000 first, debounce 800 ms P2P and 500 ms bank', () => {
    expect(limits.INITIAL_RATE_LOOKUP_AMOUNT).toBe(1000);
    expect(limits.P2P_RATE_DEBOUNCE_MS).toBe(800);
    expect(limits.BANK_RATE_DEBOUNCE_MS).toBe(500);
  });

  it('card 16 digits, receipt 10 MB, page 20, copy feedback 2 s, default sell 100', () => {
    expect(limits.CARD_NUMBER_MAX_DIGITS).toBe(16);
    expect(limits.RECEIPT_MAX_BYTES).toBe(10 * 1024 * 1024);
    expect(limits.HISTORY_PAGE_SIZE).toBe(20);
    expect(limits.COPY_FEEDBACK_MS).toBe(2000);
    expect(limits.DEFAULT_SELL_AMOUNT).toBe(100);
    expect([limits.CRYPTO_DECIMALS, limits.RATE_DECIMALS, limits.RUB_DECIMALS]).toEqual([4, 2, 0]);
  });
});

describe('network lists', () => {
  it('P2P USDC: BASE, POLYGON, BEP20, ERC20, TRC20, ARBITRUM', () => {
    expect(networksFor('P2P', 'USDC')).toEqual([
      'BASE',
      'POLYGON',
      'BEP20',
      'ERC20',
      'TRC20',
      'ARBITRUM',
    ]);
  });
  it('P2P USDT: BEP20, TRC20, POLYGON, ERC20, ARBITRUM, OPTIMISM', () => {
    expect(networksFor('P2P', 'USDT')).toEqual([
      'BEP20',
      'TRC20',
      'POLYGON',
      'ERC20',
      'ARBITRUM',
      'OPTIMISM',
    ]);
  });
  it('bank USDT: BEP20, TRC20, POLYGON, ERC20, ARBITRUM, OPTIMISM', () => {
    expect(networksFor('BANK_ACCOUNT', 'USDT')).toEqual([
      'BEP20',
      'TRC20',
      'POLYGON',
      'ERC20',
      'ARBITRUM',
      'OPTIMISM',
    ]);
  });
  it('bank USDC: TRC20, BEP20, POLYGON, ERC20, BASE, ARBITRUM', () => {
    expect(networksFor('BANK_ACCOUNT', 'USDC')).toEqual([
      'TRC20',
      'BEP20',
      'POLYGON',
      'ERC20',
      'BASE',
      'ARBITRUM',
    ]);
  });
  it('defaults: BASE for USDC, BEP20 for USDT, each in its own lists', () => {
    expect(DEFAULT_NETWORK).toEqual({ USDC: 'BASE', USDT: 'BEP20' });
    expect(networksFor('P2P', 'USDC')).toContain('BASE');
    expect(networksFor('BANK_ACCOUNT', 'USDT')).toContain('BEP20');
  });
});

describe('currencies and method screens', () => {
  it('lists RUB, USD, EUR, AED, KZT; the names table also knows AMD, TRY, IRR, CNY', () => {
    expect(LISTED_CURRENCIES).toEqual(['RUB', 'USD', 'EUR', 'AED', 'KZT']);
    expect(KNOWN_CURRENCIES.slice(5)).toEqual(['AMD', 'TRY', 'IRR', 'CNY']);
  });

  it('routes each listed currency to its method screen and any other to /payment-systems', () => {
    expect(LISTED_CURRENCIES.map(methodRoute)).toEqual([
      '/rub-method',
      '/usd-method',
      '/eur-method',
      '/aed-method',
      '/kzt-method',
    ]);
    expect(methodRoute('CNY')).toBe('/payment-systems');
  });

  it('RUB: P2P, bank account and office available; card coming soon', () => {
    expect(methodsFor('RUB')).toEqual([
      { option: 'p2p', route: '/p2p', available: true },
      { option: 'bankAccount', route: '/bank-account', available: true },
      { option: 'card', route: '/card-payment', available: false },
      { option: 'office', route: '/office-exchange', available: true },
    ]);
  });

  it.each(['USD', 'EUR', 'AED', 'KZT'] as const)(
    '%s: office available; card and e-wallet coming soon',
    (code) => {
      expect(methodsFor(code)).toEqual([
        { option: 'office', route: '/office-exchange', available: true },
        { option: 'card', route: '/card-payment', available: false },
        { option: 'eWallet', route: '/e-wallets', available: false },
      ]);
    },
  );
});

describe('deep links', () => {
  it('reads the order id of an order_<id> start parameter and nothing else', () => {
    expect(orderIdFromStartParam('order_3f1c2a7e-8d4b-4c1a-9e2f-0a1b2c3d4e5f')).toBe(
      '3f1c2a7e-8d4b-4c1a-9e2f-0a1b2c3d4e5f',
    );
    expect(orderIdFromStartParam('promo_42')).toBeUndefined();
    expect(orderIdFromStartParam('order_')).toBeUndefined();
    expect(orderIdFromStartParam('order_../../x')).toBeUndefined();
    expect(orderIdFromStartParam(undefined)).toBeUndefined();
  });
});

describe('money as integers', () => {
  it('converts decimals exactly, where binary floats would drift', () => {
    expect(toMinor('0.29')).toBe(29);
    expect(toMinor(1.005)).toBe(101);
    expect(toUnits('123.4567')).toBe(123_456_700);
    expect(toUnits('0.0000005')).toBe(1);
    expect(fromMinor(1_172_839)).toBe(11728.39);
    expect(fromUnits(123_456_700)).toBe(123.4567);
  });

  it('refuses negative, non-numeric and unsafe values', () => {
    expect(toMinor('-1')).toBeUndefined();
    expect(toMinor('1e400')).toBeUndefined();
    expect(toMinor('abc')).toBeUndefined();
    expect(toMinor(Number.NaN)).toBeUndefined();
    expect(toUnits('99999999999999')).toBeUndefined();
  });
});

describe('the currencies each method takes (one list for the method screens and the server)', () => {
  it('a method screen offers an available method only for a currency that method takes', () => {
    const METHOD_OF = { p2p: 'P2P', bankAccount: 'BANK_ACCOUNT', office: 'OFFICE' } as const;
    for (const code of LISTED_CURRENCIES) {
      for (const entry of methodsFor(code).filter((e) => e.available)) {
        const method = METHOD_OF[entry.option as keyof typeof METHOD_OF];
        expect(method, `${code} ${entry.option}`).toBeDefined();
        expect(methodTakesCurrency(method, code), `${code} ${entry.option}`).toBe(true);
      }
    }
    expect(methodTakesCurrency('P2P', 'USD')).toBe(false);
    expect(methodTakesCurrency('OFFICE', 'KZT')).toBe(true);
  });
});
