import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ThinnedSeries } from '../../../backtest/report/report-series.js';

/** Bucket widths of the chart series in seconds, finest first (each a multiple of the one before). */
const WIDTHS = [1, 5, 15, 30, 60, 300, 900, 1_800, 3_600, 14_400, 43_200, 86_400, 604_800];

/**
 * The thinned rows, worked out from the whole list: the last value of each second; as they are
 * when few enough, else grouped by the finest width leaving at most `max` groups (the coarsest
 * otherwise), each group at its first row's time with its values folded oldest first.
 */
function oracle<V>(rows: readonly (readonly [number, V])[], max: number, merge: (a: V, b: V) => V): [number, V][] {
  const perSecond = new Map<number, V>();
  for (const [t, v] of rows) perSecond.set(t, v);
  const list = [...perSecond];
  if (list.length <= max) return list;
  const groups = (width: number): [number, V][][] => {
    const out: [number, V][][] = [];
    for (const row of list) {
      const last = out[out.length - 1];
      if (last !== undefined && Math.floor(last[0]![0] / width) === Math.floor(row[0] / width)) last.push(row);
      else out.push([row]);
    }
    return out;
  };
  const width = WIDTHS.find((w) => groups(w).length <= max) ?? WIDTHS[WIDTHS.length - 1]!;
  return groups(width).map((g) => [g[0]![0], g.slice(1).reduce((acc, [, v]) => merge(acc, v), g[0]![1])]);
}

/** Ascending seconds (repeats allowed) with values, spread over up to a few weeks. */
const rows = fc.array(fc.tuple(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: -50, max: 50 })), { maxLength: 120 })
  .map((steps) => {
    let t = 1_700_000_000;
    return steps.map(([gap, v]) => [(t += gap % 7 === 0 ? 0 : gap), v] as const);
  });

const keepLast = (_a: number, b: number): number => b;
const keepLowest = (a: number, b: number): number => (b < a ? b : a);

describe('ThinnedSeries', () => {
  it('lists what thinning the whole list gives, for the last and the lowest value of each bucket', () => {
    fc.assert(fc.property(rows, fc.integer({ min: 1, max: 12 }), fc.boolean(), (list, max, lowest) => {
      const merge = lowest ? keepLowest : keepLast;
      const series = new ThinnedSeries<number>(max, merge);
      for (const [t, v] of list) series.add(t, v);
      expect(series.list((v) => v)).toEqual(oracle(list, max, merge));
    }), { numRuns: 300 });
  });

  it('can be listed midway and still grows as if it had not been', () => {
    fc.assert(fc.property(rows, fc.integer({ min: 1, max: 8 }), fc.nat(), (list, max, cut) => {
      const series = new ThinnedSeries<number>(max, keepLowest);
      const at = list.length === 0 ? 0 : cut % list.length;
      list.slice(0, at).forEach(([t, v]) => series.add(t, v));
      expect(series.list((v) => v)).toEqual(oracle(list.slice(0, at), max, keepLowest));
      list.slice(at).forEach(([t, v]) => series.add(t, v));
      expect(series.list((v) => v)).toEqual(oracle(list, max, keepLowest));
    }), { numRuns: 200 });
  });

  it('formats only what it lists', () => {
    const series = new ThinnedSeries<number>(2, keepLast);
    [[0, 1], [1, 2], [2, 3], [10, 4]].forEach(([t, v]) => series.add(t!, v!));
    expect(series.list((v) => `v${v}`)).toEqual([[0, 'v3'], [10, 'v4']]);
  });
});
