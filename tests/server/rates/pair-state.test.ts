/**
 * How a pair's state moves (pair-state.ts): a base within RATE_JUMP_BP of those accepted in the
 * last 10 minutes is taken at once; a jump is held until confirmed, agreed on for
 * RATE_JUMP_AGREE, or undone by the market; a fixed base quotes while in force and ends by itself.
 */
import { describe, expect, it } from 'vitest';
import { baseInForce, decidePair, type PairRow } from '../../../src/server/rates/pair-state';

const RULES = {
  maxAgeMs: 300_000,
  outlierBp: 150,
  minSources: 2,
  jumpBp: 300,
  jumpAgreeMs: 900_000,
};
const NOW = 1_800_000_000_000;
const M = 1_000_000;

function row(over: Partial<PairRow> = {}): PairRow {
  return {
    crypto: 'USDT',
    fiat: 'RUB',
    revision: 3,
    quoting: 1,
    changed_at: NOW - 3_600_000,
    base_units: 80 * M,
    base_at: NOW - 60_000,
    window_from: null,
    charted_at: NOW - 10_000,
    held_units: null,
    held_from_units: null,
    held_since: null,
    fixed_units: null,
    fixed_until: null,
    fixed_by: null,
    ...over,
  };
}

describe('the market base', () => {
  it('a first base is taken as it is, and charted', () => {
    const decision = decidePair(undefined, 80 * M, [], NOW, RULES);
    expect(decision).toMatchObject({ quoting: true, chart: 80 * M, events: [] });
    expect(decision.set).toMatchObject({ base_units: 80 * M, charted_at: NOW });
  });

  it('a move of 2.9 % from every base of the window is taken; 3.1 % from one of them is held', () => {
    expect(decidePair(row(), 82.32 * M, [80 * M], NOW, RULES).quoting).toBe(true);
    const held = decidePair(row(), 82.48 * M, [80 * M, 81 * M], NOW, RULES);
    expect(held.quoting).toBe(false);
    expect(held.events).toEqual([{ kind: 'jump', from: 80 * M, to: 82.48 * M }]);
    expect(held.set).toMatchObject({
      held_units: 82.48 * M,
      held_from_units: 80 * M,
      held_since: NOW,
    });
    expect(held.chart).toBeUndefined();
  });

  it('a held jump waits RATE_JUMP_AGREE, then is taken by the server, the window starting over', () => {
    const holding = row({
      quoting: 0,
      held_units: 84 * M,
      held_from_units: 80 * M,
      held_since: NOW - 899_000,
    });
    expect(decidePair(holding, 84.1 * M, [80 * M], NOW, RULES)).toMatchObject({
      quoting: false,
      events: [],
    });
    const agreed = decidePair(
      { ...holding, held_since: NOW - 900_000 },
      84.1 * M,
      [80 * M],
      NOW,
      RULES,
    );
    expect(agreed.quoting).toBe(true);
    expect(agreed.events).toEqual([{ kind: 'jump_agreed', from: 80 * M, to: 84.1 * M }]);
    expect(agreed.set).toMatchObject({ base_units: 84.1 * M, window_from: NOW, held_units: null });
  });

  it('a held jump the market moves on from starts its wait over; one it comes back from ends', () => {
    const holding = row({
      quoting: 0,
      held_units: 84 * M,
      held_from_units: 80 * M,
      held_since: NOW - 600_000,
    });
    expect(decidePair(holding, 87 * M, [80 * M], NOW, RULES).set).toEqual({
      held_units: 87 * M,
      held_since: NOW,
    });
    // Past the window the base it jumped from still counts.
    const back = decidePair(holding, 80.5 * M, [], NOW, RULES);
    expect(back).toMatchObject({ quoting: true, events: [] });
    expect(back.set).toMatchObject({ held_units: null, base_units: 80.5 * M });
  });

  it('too few sources: nothing quoted, a hold let go, the accepted base kept for their return', () => {
    const holding = row({ held_units: 84 * M, held_from_units: 80 * M, held_since: NOW });
    const decision = decidePair(holding, undefined, [80 * M], NOW, RULES);
    expect(decision.quoting).toBe(false);
    expect(decision.set).toEqual({ held_units: null, held_from_units: null, held_since: null });
  });
});

describe('the base in force', () => {
  it('a quote further than RATE_JUMP_BP from the accepted base is refused before the watch saw it', () => {
    expect(baseInForce(row(), 80.5 * M, NOW, RULES)).toEqual({ units: 80.5 * M });
    expect(baseInForce(row(), 83 * M, NOW, RULES)).toEqual({ unquoted: 'jump_held' });
    expect(baseInForce(row(), undefined, NOW, RULES)).toEqual({ unquoted: 'no_market' });
    expect(baseInForce(undefined, 80 * M, NOW, RULES)).toEqual({ unquoted: 'no_market' });
  });

  it('a fixed base quotes until its expiry, whatever the market; then it ends, told', () => {
    const fixed = row({ fixed_units: 82 * M, fixed_until: NOW + 1, fixed_by: 7 });
    expect(baseInForce(fixed, undefined, NOW, RULES)).toEqual({ units: 82 * M });
    const expired = decidePair({ ...fixed, fixed_until: NOW }, 80 * M, [80 * M], NOW, RULES);
    expect(expired.events).toEqual([{ kind: 'fix_expired', fixed: 82 * M }]);
    expect(expired.set).toMatchObject({ fixed_units: null, fixed_until: null, fixed_by: null });
    expect(expired.quoting).toBe(true);
  });
});
