/**
 * What a repeated order fills its form with, and which orders are offered for repeating: ended
 * ones a form of today takes. The browser test (tests/e2e/returning-customer.test.ts) drives the
 * forms themselves.
 */
import { describe, expect, it } from 'vitest';
import { isRepeatable, repeatPlan } from '../../src/app/repeat-order';
import type { OrderDetails } from '../../src/shared/api';
import { FIXTURE_WALLET, makeOrder, orderSummary } from '../helpers/order-fixtures';

function repeatable(order: OrderDetails) {
  if (!isRepeatable(order)) throw new Error(`${order.id} is not repeatable`);
  return order;
}

describe('which orders are offered for repeating', () => {
  it('an ended order is (completed, cancelled, rejected); an open one is not', () => {
    for (const status of ['COMPLETED', 'CANCELLED', 'REJECTED'] as const) {
      expect(isRepeatable(orderSummary({ status }))).toBe(true);
    }
    for (const status of ['WAITING_REQUISITES', 'REQUISITES_READY', 'TX_PENDING'] as const) {
      expect(isRepeatable(orderSummary({ status }))).toBe(false);
    }
  });

  it('not one whose network the method no longer offers for its coin (bank USDC on Optimism)', () => {
    expect(
      isRepeatable(
        orderSummary({
          status: 'COMPLETED',
          paymentMethod: 'BANK_ACCOUNT',
          cryptoCurrency: 'USDC',
          network: 'OPTIMISM',
        }),
      ),
    ).toBe(false);
  });

  it('not one in a currency the list no longer has (AMD)', () => {
    expect(isRepeatable(orderSummary({ status: 'COMPLETED', currency: 'AMD' }))).toBe(false);
  });
});

describe('what a repeated order fills its form with', () => {
  it("a bank buy: the bank form, with its fiat amount, coin, network and wallet; today's rate recomputes the crypto", () => {
    const plan = repeatPlan(
      repeatable(
        makeOrder({
          status: 'COMPLETED',
          paymentMethod: 'BANK_ACCOUNT',
          totalRub: 600_000,
          cryptoCurrency: 'USDT',
          network: 'ERC20',
          walletAddress: FIXTURE_WALLET,
        }),
      ),
      [],
    );
    expect(plan).toEqual({
      currency: 'RUB',
      path: '/bank-account',
      state: {
        repeat: 'BUY',
        values: {
          cryptoCurrency: 'USDT',
          network: 'ERC20',
          fiatAmount: '600000',
          walletAddress: FIXTURE_WALLET,
          cityId: '',
        },
      },
    });
  });

  it('an office buy in dollars: the office form of USD, with the city', () => {
    const plan = repeatPlan(
      repeatable(
        makeOrder({
          status: 'CANCELLED',
          paymentMethod: 'OFFICE',
          currency: 'USD',
          totalRub: 5_000,
          cityId: 'dubai',
        }),
      ),
      [],
    );
    expect(plan.currency).toBe('USD');
    expect(plan.path).toBe('/office-exchange');
    expect(plan.state.values).toMatchObject({ fiatAmount: '5000', cityId: 'dubai' });
  });

  it('a sell: the sell form with its crypto amount; the card only when this tab made the sell', () => {
    const sell = repeatable(
      makeOrder({
        id: 'sell-1',
        type: 'SELL',
        status: 'COMPLETED',
        amount: 250,
        cryptoCurrency: 'USDC',
        network: 'POLYGON',
        walletAddress: null,
      }),
    );
    expect(repeatPlan(sell, [])).toEqual({
      currency: 'RUB',
      path: '/p2p/sell',
      state: {
        repeat: 'SELL',
        values: { cryptoCurrency: 'USDC', network: 'POLYGON', cryptoAmount: '250' },
      },
    });
    const card = { cardNumber: '2202200000000001', cardHolder: 'IVAN PETROV', bankName: 'Sber' };
    const saved = { ...card, id: 1, label: 'Sber card', createdAt: '2026-11-01T10:00:00.000Z' };
    const paidTo = { ...sell, payoutCard: { maskedNumber: '•••• 0001', bankName: 'Sber' } };
    expect(repeatPlan(paidTo, [saved]).state.values).toMatchObject(card);
    // Another bank's card with the same last digits is not the order's card.
    expect(repeatPlan(paidTo, [{ ...saved, bankName: 'Alfa' }]).state.values).not.toHaveProperty(
      'cardNumber',
    );
  });
});
