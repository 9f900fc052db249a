import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SampledSeries } from '../../../backtest/replay/sampled-series.js';

describe('SampledSeries', () => {
  it('holds at most maxPoints, each the last value of its bucket at the final width', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.integer()), { maxLength: 300 }), fc.integer({ min: 1, max: 20 }),
      (steps, maxPoints) => {
        const series = new SampledSeries<number>(maxPoints);
        let time = 0;
        const seen: [number, number][] = [];
        for (const [step, value] of steps) {
          time += step;
          series.add(time, value);
          seen.push([time, value]);
        }
        const width = series.widthMs;
        const naive = new Map<number, number>();
        for (const [t, v] of seen) naive.set(t - (t % width), v);
        expect(series.list().map((p) => [p.time, p.value])).toEqual([...naive.entries()]);
        if (width < 604_800_000) expect(naive.size).toBeLessThanOrEqual(maxPoints);
      },
    ));
  });

  it('says when a time starts a new bucket, so a caller reads its source once per bucket', () => {
    const series = new SampledSeries<string>(10, 5_000);
    expect(series.widthMs).toBe(5_000);
    expect(series.startsBucket(12_000)).toBe(true);
    series.add(12_000, 'a');
    expect(series.startsBucket(14_999)).toBe(false);
    expect(series.startsBucket(15_000)).toBe(true);
    series.add(3_000, 'late');
    expect(series.list()).toEqual([{ time: 10_000, value: 'a' }]);
  });
});
