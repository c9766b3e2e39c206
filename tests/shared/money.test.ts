/**
 * Money through one module (src/shared/money.ts): the form computes the crypto amount and the
 * total exactly as the server does, in integers, never with a binary float's error.
 */
import { describe, expect, it } from 'vitest';
import { cryptoForFiat, fiatForCrypto } from '../../src/shared/amounts';
import {
  applyBasisPoints,
  cryptoUnitsForFiat,
  fiatTotalMinor,
  minorToDecimal,
  tokenAmountToDecimal,
  toMinor,
  toUnits,
  unitsToDecimal,
  unitsToTokenAmount,
} from '../../src/shared/money';

describe('money', () => {
  it('the crypto field is fiat ÷ rate rounded to 4 decimals: 3 000 RUB at 95.40 is 31.4465', () => {
    expect(cryptoForFiat(3000, 95.4)).toBe('31.4465');
    expect(cryptoUnitsForFiat(300_000, 95_400_000)).toBe(31_446_500);
  });

  it('the fiat field is crypto × rate rounded to a whole unit, the total the server computes', () => {
    expect(fiatForCrypto(31.4465, 95.4)).toBe('3000');
    expect(fiatForCrypto(100, 95.4)).toBe('9540');
    const amountUnits = toUnits('31.4465') ?? 0;
    expect(toMinor(fiatForCrypto(31.4465, 95.4))).toBe(fiatTotalMinor(amountUnits, 95_400_000));
  });

  it('has no binary-float error: 0.3 coins at 10 is 3, 0.3 at a rate of 0.1 is 3 coins', () => {
    expect(fiatForCrypto(0.3, 10)).toBe('3');
    expect(cryptoForFiat(0.3, 0.1)).toBe('3');
  });

  it('stays exact beyond a double at the largest office total: 100 000 000 KZT at 512.37', () => {
    const units = cryptoUnitsForFiat(10_000_000_000, 512_370_000);
    expect(unitsToDecimal(units)).toBe('195171.4581');
    expect(fiatTotalMinor(units, 512_370_000)).toBe(10_000_000_000);
  });

  it('is empty when it cannot be computed: no rate, a zero rate', () => {
    expect(cryptoForFiat(3000, 0)).toBe('');
    expect(fiatForCrypto(10, 0)).toBe('');
  });

  it('applies a spread in basis points and rounds to the 2 decimals a rate shows', () => {
    expect(applyBasisPoints(90_000_000, 150)).toBe(91_350_000);
    expect(applyBasisPoints(90_000_000, -150)).toBe(88_650_000);
    expect(applyBasisPoints(95_123_456, 0)).toBe(95_120_000);
  });

  it('writes minor units and units as exact decimals without trailing zeros', () => {
    expect(minorToDecimal(350_050)).toBe('3500.5');
    expect(minorToDecimal(300_000)).toBe('3000');
    expect(unitsToDecimal(100)).toBe('0.0001');
    expect(unitsToDecimal(1_500_000)).toBe('1.5');
  });
});

describe("an order amount in a token's base units, by the decimals read from the contract", () => {
  it('31.4465 USDT is 31 446 500 base units at 6 decimals and 31.4465 × 10^18 at 18, exactly', () => {
    expect(unitsToTokenAmount(31_446_500, 6)).toBe(31_446_500n);
    expect(unitsToTokenAmount(31_446_500, 18)).toBe(31_446_500_000_000_000_000n);
  });

  it('a token with fewer decimals than the order rounds up: the deposit still pays the order', () => {
    expect(unitsToTokenAmount(31_446_501, 2)).toBe(3_145n);
    expect(unitsToTokenAmount(31_440_000, 2)).toBe(3_144n);
  });

  it('writes base units back as an exact decimal, every one of 18 decimals kept', () => {
    expect(tokenAmountToDecimal(1n, 18)).toBe('0.000000000000000001');
    expect(tokenAmountToDecimal(500_000n, 6)).toBe('0.5');
    expect(tokenAmountToDecimal(12_000_000n, 6)).toBe('12');
    expect(tokenAmountToDecimal(10n ** 30n + 1n, 18)).toBe('1000000000000.000000000000000001');
  });
});
