/** The sane band of each pair and the one function every source turns a number into a price with. */
import { describe, expect, it } from 'vitest';
import { SANE_BANDS, sanePrice, saneUnits } from '../../../../src/server/rates/sources/sane-bands';
import { SourceFault } from '../../../../src/server/rates/sources/source';

const AT = Date.UTC(2026, 11, 2);

function faultOf(run: () => unknown): SourceFault {
  try {
    run();
  } catch (error) {
    if (error instanceof SourceFault) return error;
    throw error;
  }
  throw new Error('no fault');
}

describe('sanePrice', () => {
  it('turns a JSON number or a decimal string into millionths with its time and detail', () => {
    expect(sanePrice({ base: 'USDT', quote: 'RUB', value: 81.2, at: AT })).toEqual({
      base: 'USDT',
      quote: 'RUB',
      units: 81_200_000,
      at: AT,
    });
    expect(
      sanePrice({ base: 'KZT', quote: 'RUB', value: ' 0.1540325 ', at: AT, detail: 'per 100' }),
    ).toEqual({ base: 'KZT', quote: 'RUB', units: 154_033, at: AT, detail: 'per 100' });
  });

  it('refuses as absurd zero, a negative, NaN, an infinity and a number too small to count', () => {
    for (const value of [
      0,
      -81.2,
      '-81.2',
      Number.NaN,
      Number.POSITIVE_INFINITY,
      1e-7,
      '0.0000001',
    ]) {
      const fault = faultOf(() => sanePrice({ base: 'USDT', quote: 'RUB', value, at: AT }));
      expect(fault.kind, String(value)).toBe('absurd');
    }
  });

  it('refuses as absurd a price outside its band, the edges being inside', () => {
    expect(faultOf(() => sanePrice({ base: 'USDT', quote: 'RUB', value: 8120, at: AT })).kind).toBe(
      'absurd',
    );
    expect(faultOf(() => sanePrice({ base: 'USD', quote: 'RUB', value: 19.99, at: AT })).kind).toBe(
      'absurd',
    );
    expect(sanePrice({ base: 'USDT', quote: 'RUB', value: 20, at: AT }).units).toBe(20_000_000);
    expect(sanePrice({ base: 'USDT', quote: 'RUB', value: 500, at: AT }).units).toBe(500_000_000);
    expect(sanePrice({ base: 'KZT', quote: 'RUB', value: '0.01', at: AT }).units).toBe(10_000);
  });

  it('refuses as malformed a string that is no number, and a pair no band is kept for', () => {
    expect(
      faultOf(() => sanePrice({ base: 'USDT', quote: 'RUB', value: '81,2', at: AT })).kind,
    ).toBe('malformed');
    expect(
      faultOf(() => sanePrice({ base: 'RUB', quote: 'USD', value: 0.0123, at: AT })).kind,
    ).toBe('malformed');
  });
});

describe('SANE_BANDS', () => {
  it('gives USDC the bands of USDT, both coins a band in every listed currency', () => {
    for (const quote of ['RUB', 'USD', 'EUR', 'AED', 'KZT'] as const) {
      expect(SANE_BANDS[`USDC/${quote}`]).toEqual(SANE_BANDS[`USDT/${quote}`]);
      expect(SANE_BANDS[`USDT/${quote}`]).toBeDefined();
    }
  });

  it('keeps every band positive and ordered', () => {
    for (const [pair, band] of Object.entries(SANE_BANDS)) {
      const [low, high] = band;
      expect(low, pair).toBeGreaterThan(0);
      expect(high, pair).toBeGreaterThan(low);
    }
  });

  it('refuses through saneUnits a count that is not a whole number of millionths', () => {
    expect(
      faultOf(() => saneUnits({ base: 'USD', quote: 'RUB', units: 78.5e6 + 0.5, at: AT })).kind,
    ).toBe('absurd');
  });
});
