import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DrawdownTracker, PeriodReturns } from '../../../backtest/report/equity-stats.js';
import type { EquityPoint } from '../../../backtest/report/backtest-result.js';
import { Decimal, ZERO } from '../../../framework/model/decimal.js';
import { ScaledEquityPoint } from '../../../backtest/report/scaled-equity.js';

/** Equity samples in time order (equal times allowed), amounts with up to 4 decimals, some zero or negative. */
const curve = fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: -2_000, max: 2_000_000 })), { maxLength: 80 })
  .map((steps) => {
    let t = 0;
    return steps.map(([gap, units]): EquityPoint => ({ time: (t += gap * 250), equity: new Decimal(units).dividedBy(10_000), positions: {} }));
  });

/**
 * The same kind of curve with samples in integer units, as a spot backtest samples it: mostly at
 * one scale, some at another (a balance with more decimals), some plain Decimal samples.
 */
const scaledCurve = fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: -2_000, max: 2_000_000 }), fc.constantFrom(4, 4, 4, 6, -1)), { maxLength: 80 })
  .map((steps) => {
    let t = 0;
    return steps.map(([gap, units, scale]): EquityPoint => {
      t += gap * 250;
      if (scale < 0) return { time: t, equity: new Decimal(units).dividedBy(10_000), positions: {} };
      return new ScaledEquityPoint(t, units * 10 ** (scale - 4), scale, {});
    });
  });

/** The drawdown worked out the plain way: every under-water sample's fraction of its peak compared. */
function drawdownOracle(points: readonly EquityPoint[]): { fraction: number; amount: string; durationMs: number; longestMs: number } {
  let fraction = ZERO;
  let amount = ZERO;
  let durationMs = 0;
  let longestMs = 0;
  let peak: EquityPoint | undefined;
  let under = false;
  let deepestPeakTime: number | undefined;
  const end = (time: number): void => {
    longestMs = Math.max(longestMs, time - peak!.time);
    if (deepestPeakTime === peak!.time) durationMs = time - peak!.time;
  };
  for (const p of points) {
    if (peak === undefined || p.equity.greaterThanOrEqualTo(peak.equity)) {
      if (under) end(p.time);
      peak = p;
      under = false;
      continue;
    }
    under = true;
    const drop = peak.equity.minus(p.equity);
    if (drop.greaterThan(amount)) amount = drop;
    const frac = peak.equity.greaterThan(ZERO) ? drop.dividedBy(peak.equity) : ZERO;
    if (frac.greaterThan(fraction)) {
      fraction = frac;
      deepestPeakTime = peak.time;
    }
  }
  if (under) end(points[points.length - 1]!.time);
  return { fraction: fraction.toNumber(), amount: amount.toFixed(), durationMs, longestMs };
}

/** Returns of the equity read on a grid from the first sample every `period`, the plain way. */
function returnsOracle(points: readonly EquityPoint[], period: number): number[] {
  if (points.length === 0) return [];
  const grid: Decimal[] = [];
  for (let t = points[0]!.time; t <= points[points.length - 1]!.time; t += period) {
    grid.push(points.filter((p) => p.time <= t).at(-1)!.equity);
  }
  const out: number[] = [];
  for (let k = 1; k < grid.length; k++) {
    if (grid[k - 1]!.lessThanOrEqualTo(ZERO)) continue;
    out.push(grid[k]!.dividedBy(grid[k - 1]!).minus(1).toNumber());
  }
  return out;
}

describe('running equity statistics', () => {
  it('DrawdownTracker finds the drawdown of comparing every sample', () => {
    fc.assert(fc.property(curve, (points) => {
      const tracker = new DrawdownTracker();
      for (const p of points) tracker.add(p);
      const got = tracker.result();
      expect({ ...got, amount: got.amount.toFixed() }).toEqual(drawdownOracle(points));
    }), { numRuns: 500 });
  });

  it('PeriodReturns gives the returns of the resampled curve', () => {
    fc.assert(fc.property(curve, fc.integer({ min: 1, max: 900 }), (points, period) => {
      const returns = new PeriodReturns(period);
      for (const p of points) returns.add(p);
      expect(returns.finish()).toEqual(returnsOracle(points, period));
    }), { numRuns: 500 });
  });

  it('gives the same drawdown and returns for samples in integer units, of one scale or several', () => {
    fc.assert(fc.property(scaledCurve, fc.integer({ min: 1, max: 900 }), (points, period) => {
      const tracker = new DrawdownTracker();
      const returns = new PeriodReturns(period);
      for (const p of points) {
        tracker.add(p);
        returns.add(p);
      }
      const got = tracker.result();
      expect({ ...got, amount: got.amount.toFixed() }).toEqual(drawdownOracle(points));
      expect(returns.finish()).toEqual(returnsOracle(points, period));
    }), { numRuns: 500 });
  });
});
