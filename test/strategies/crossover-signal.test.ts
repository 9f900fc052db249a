import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../framework/model/decimal.js';
import type { DecimalString } from '../../framework/model/decimal.js';
import { CrossoverSignal, type Cross } from '../../strategies/ma-crossover/crossover-signal.js';

/** The rule written out with decimal.js: SMAs from scratch, crossing on the last non-zero sign. */
function oracleCrossings(closes: readonly string[], fast: number, slow: number): (Cross | undefined)[] {
  let lastSign = 0;
  return closes.map((_, i) => {
    if (i + 1 < slow) return undefined;
    const mean = (n: number): Decimal => closes.slice(i + 1 - n, i + 1).reduce((sum, c) => sum.plus(c), new Decimal(0)).dividedBy(n);
    const sign = mean(fast).comparedTo(mean(slow));
    if (sign === 0) return undefined;
    const previous = lastSign;
    lastSign = sign;
    return previous === 0 || previous === sign ? undefined : sign > 0 ? 'golden' : 'death';
  });
}

describe('CrossoverSignal (SMA)', () => {
  it('crosses exactly where decimal SMAs computed from scratch cross, whatever the closes\' decimals', () => {
    // Few distinct values and mixed decimals: ties are frequent and the window is rescaled mid-run.
    const close = fc.constantFrom('100', '100.0', '100.5', '99.75', '101.125', '100.00001', '0.3', '250');
    fc.assert(fc.property(fc.array(close, { maxLength: 80 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 8 }), (closes, fast, extra) => {
      const slow = fast + extra;
      const signal = new CrossoverSignal('sma', fast, slow);
      const got = closes.map((c) => signal.add(c as DecimalString));
      expect(got).toEqual(oracleCrossings(closes, fast, slow));
    }), { seed: 20261124, numRuns: 300 });
  });

  it('stays exact when the sums leave the safe integers (huge or very fine closes mid-run)', () => {
    const ordinary = fc.constantFrom('100', '100.5', '99.75', '101.125');
    const extreme = fc.constantFrom('900719925474099.3', '4503599627370496', '0.000000000000001', '9007199254740993');
    const close = fc.oneof({ weight: 5, arbitrary: ordinary }, { weight: 1, arbitrary: extreme });
    fc.assert(fc.property(fc.array(close, { maxLength: 60 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 6 }), (closes, fast, extra) => {
      const slow = fast + extra;
      const signal = new CrossoverSignal('sma', fast, slow);
      const got = closes.map((c) => signal.add(c as DecimalString));
      expect(got).toEqual(oracleCrossings(closes, fast, slow));
    }), { seed: 20261124, numRuns: 300 });
  });

  it('charts each average as the float of its exact mean', () => {
    const signal = new CrossoverSignal('sma', 2, 3);
    const lines = ['10.1', '10.25', '10.4'].map((c) => (signal.add(c as DecimalString), signal.lines));
    expect(lines).toEqual([{ fast: null, slow: null, sign: undefined }, { fast: 10.175, slow: null, sign: undefined }, { fast: 10.325, slow: 10.25, sign: 1 }]);
  });
});
