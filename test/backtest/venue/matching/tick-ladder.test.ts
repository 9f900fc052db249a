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

  it('with a small window that slides up and down, walks and reads agree with a map of the levels', () => {
    // Keys drift by a random walk far beyond the window, so levels move between the window and
    // the sorted part in both directions.
    const step = fc.tuple(fc.integer({ min: -40, max: 40 }), fc.integer({ min: -20, max: 20 }), fc.integer({ min: 0, max: 4 }));
    fc.assert(fc.property(fc.constantFrom(16, 32, 64), fc.array(step, { maxLength: 500 }), (windowSize, steps) => {
      const ladder = new TickLadder(windowSize);
      const naive = new Map<number, number>();
      let center = 0;
      for (const [drift, offset, lots] of steps) {
        center += drift;
        const key = center + offset;
        ladder.set(key, lots);
        if (lots === 0) naive.delete(key);
        else naive.set(key, lots);
      }
      const expected = [...naive].sort((a, b) => a[0] - b[0]);
      expect(Array.from({ length: ladder.count }, (_, i) => [ladder.keys[i], ladder.lots[i]])).toEqual(expected);
      // One walk from the best down visits every level once, in order.
      const walked: number[] = [];
      for (let key = ladder.bestKey(); !Number.isNaN(key); key = ladder.below(key)) walked.push(key);
      expect(walked).toEqual(expected.map(([key]) => key).reverse());
      for (const [key, lots] of expected) expect(ladder.lotsAt(key)).toBe(lots);
      expect(ladder.lotsAt(center + 1000)).toBe(0);
    }));
  });

  it('property: sparse keys far apart (BTC-like), jumps and removals: the window grows and every read agrees with a map', () => {
    // Keys hundreds of ticks apart around a centre that drifts and sometimes jumps many windows.
    const step = fc.tuple(
      fc.oneof({ weight: 8, arbitrary: fc.integer({ min: -300, max: 300 }) }, { weight: 1, arbitrary: fc.integer({ min: -200_000, max: 200_000 }) }),
      fc.integer({ min: -60, max: 60 }),
      fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.integer({ min: 1, max: 9 }) }),
      // Now and then the window is fitted to the levels, as after a snapshot.
      fc.oneof({ weight: 15, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    );
    fc.assert(fc.property(fc.constantFrom([16, 64], [32, 1024], [64, 1 << 14]), fc.array(step, { maxLength: 400 }), ([windowSize, maxWindowSize], steps) => {
      const ladder = new TickLadder(windowSize, maxWindowSize);
      const naive = new Map<number, number>();
      let center = 1_000_000;
      for (const [drift, offset, lots, fit] of steps) {
        center += drift;
        const key = center + offset * 613;
        ladder.set(key, lots);
        if (fit) ladder.fit();
        if (lots === 0) naive.delete(key);
        else naive.set(key, lots);
        const best = Math.max(...naive.keys());
        expect(ladder.bestKey()).toBe(naive.size === 0 ? NaN : best);
      }
      const expected = [...naive].sort((a, b) => a[0] - b[0]);
      expect(ladder.count).toBe(expected.length);
      expect(Array.from({ length: ladder.count }, (_, i) => [ladder.keys[i], ladder.lots[i]])).toEqual(expected);
      const walked: number[] = [];
      for (let key = ladder.bestKey(); !Number.isNaN(key); key = ladder.below(key)) walked.push(key);
      expect(walked).toEqual(expected.map(([key]) => key).reverse());
      // below() from keys that are not levels, above and inside the book.
      for (const [key] of expected.slice(0, 10)) expect(ladder.below(key + 1)).toBe(key);
      for (const [key, lots] of expected) expect(ladder.lotsAt(key)).toBe(lots);
      expect(ladder.windowSize).toBeGreaterThanOrEqual(windowSize);
      expect(ladder.windowSize).toBeLessThanOrEqual(maxWindowSize);
    }), { numRuns: 300 });
  });

  it('grows its window when a snapshot spreads its levels far below it', () => {
    const ladder = new TickLadder(1024);
    // 60 levels 600 ticks apart, best first as a snapshot sends them: 36,000 ticks deep.
    for (let i = 0; i < 60; i++) ladder.set(6_000_000 - i * 600, i + 1);
    // It doubles while fewer levels are in it than below it: 32,768 keys hold 28,672 under the
    // best's place (48 levels), leaving 12 below.
    expect(ladder.windowSize).toBe(32_768);
    expect(ladder.count).toBe(60);
    let levels = 0;
    for (let key = ladder.bestKey(); !Number.isNaN(key); key = ladder.below(key)) levels++;
    expect(levels).toBe(60);
  });

  it('fitted after a snapshot, holds nine levels in ten in its window, and keeps every level', () => {
    const ladder = new TickLadder(1024);
    for (let i = 0; i < 60; i++) ladder.set(6_000_000 - i * 600, i + 1);
    ladder.fit();
    // 54 levels from the best span 53 x 600 = 31,800 keys: more than the 28,672 under the best's
    // place in 32,768 keys, within the 57,344 of 65,536.
    expect(ladder.windowSize).toBe(65_536);
    const walked: number[] = [];
    for (let key = ladder.bestKey(); !Number.isNaN(key); key = ladder.below(key)) walked.push(ladder.lotsAt(key));
    expect(walked).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    // A book that already fits keeps its window.
    const dense = new TickLadder(1024);
    for (let i = 0; i < 100; i++) dense.set(5_000 - i, 1);
    dense.fit();
    expect(dense.windowSize).toBe(1024);
  });
});
