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
  toMinor,
  toUnits,
  unitsToDecimal,
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
