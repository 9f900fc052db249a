import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TickLadder } from '../../../../backtest/venue/matching/tick-ladder.js';

describe('TickLadder', () => {
  it('keeps levels sorted with the best last, like a map of non-zero levels', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: -300, max: 300 }), fc.integer({ min: 0, max: 5 })), { maxLength: 400 }), (sets) => {
      const ladder = new TickLadder();
      const naive = new Map<number, number>();
      for (const [key, lots] of sets) {
        ladder.set(key, lots);
        if (lots === 0) naive.delete(key);
        else naive.set(key, lots);
      }
      const expected = [...naive].sort((a, b) => a[0] - b[0]);
      const actual = Array.from({ length: ladder.count }, (_, i) => [ladder.keys[i], ladder.lots[i]]);
      expect(actual).toEqual(expected);
      expect(ladder.bestKey()).toBe(expected.length === 0 ? NaN : expected[expected.length - 1]![0]);
      for (let key = -301; key <= 301; key += 7) expect(ladder.lotsAt(key)).toBe(naive.get(key) ?? 0);
      ladder.clear();
      expect([ladder.count, ladder.bestKey()]).toEqual([0, NaN]);
    }));
  });
});
