import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iso } from '../../../backtest/report/report-files.js';

describe('iso', () => {
  it('is Date.toISOString for any time, in or out of order', () => {
    const time = fc.oneof(fc.integer({ min: 0, max: 253_402_300_799_999 }), fc.integer({ min: -8.64e15, max: 8.64e15 }), fc.double({ min: -1e13, max: 1e13, noNaN: true }));
    fc.assert(fc.property(fc.array(time, { maxLength: 20 }), (times) => {
      for (const t of times) expect(iso(t)).toBe(new Date(t).toISOString());
    }), { numRuns: 500 });
  });

  it('follows a day boundary and the last instant of year 9999', () => {
    for (const t of [86_399_999, 86_400_000, 1_704_067_199_999, 1_704_067_200_000, 253_402_300_799_999, 253_402_300_800_000]) {
      expect(iso(t)).toBe(new Date(t).toISOString());
    }
  });
});
