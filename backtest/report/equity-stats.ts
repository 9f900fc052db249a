import type { Decimal } from '../../framework/model/decimal.js';
import { ZERO } from '../../framework/model/decimal.js';
import type { EquityPoint } from './backtest-result.js';

/** Milliseconds in the 365-day year used to annualise ratios. */
export const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * Equity sampled on a fixed grid: `t0 + k * periodMs` for `k = 0 .. floor((tLast - t0) / periodMs)`,
 * each grid value being the last sample at or before that time (equity is a step function between
 * samples). Values stay exact.
 */
export function resampleEquity(points: readonly EquityPoint[], periodMs: number): Decimal[] {
  const first = points[0];
  const last = points[points.length - 1];
  if (first === undefined || last === undefined) return [];
  const out: Decimal[] = [];
  let i = 0;
  for (let t = first.time; t <= last.time; t += periodMs) {
    while (i + 1 < points.length && points[i + 1]!.time <= t) i++;
    out.push(points[i]!.equity);
  }
  return out;
}

/** Simple returns `v[k] / v[k-1] - 1` as floats; a step from a non-positive value is skipped. */
export function periodReturns(values: readonly Decimal[]): number[] {
  const out: number[] = [];
  for (let k = 1; k < values.length; k++) {
    const prev = values[k - 1]!;
    if (prev.lessThanOrEqualTo(ZERO)) continue;
    out.push(values[k]!.dividedBy(prev).minus(1).toNumber());
  }
  return out;
}

/**
 * Annualised Sharpe ratio with a zero risk-free rate:
 * `mean(r) / stdev(r) * sqrt(periodsPerYear)`, stdev the sample one (n - 1).
 * Undefined with fewer than 2 returns or zero deviation.
 */
export function sharpeRatio(returns: readonly number[], periodsPerYear: number): number | undefined {
  if (returns.length < 2) return undefined;
  const mean = average(returns);
  const variance = returns.reduce((s, r) => s + (r - mean) ** 2, 0) / (returns.length - 1);
  if (!(variance > 0)) return undefined;
  return (mean / Math.sqrt(variance)) * Math.sqrt(periodsPerYear);
}

/**
 * Annualised Sortino ratio with a zero target: `mean(r) / dd * sqrt(periodsPerYear)` where the
 * downside deviation `dd = sqrt(sum(min(r, 0)^2) / n)`. Undefined with fewer than 2 returns or no
 * negative return.
 */
export function sortinoRatio(returns: readonly number[], periodsPerYear: number): number | undefined {
  if (returns.length < 2) return undefined;
  const downside = returns.reduce((s, r) => s + Math.min(r, 0) ** 2, 0) / returns.length;
  if (!(downside > 0)) return undefined;
  return (average(returns) / Math.sqrt(downside)) * Math.sqrt(periodsPerYear);
}

/** The worst drawdown of an equity curve. */
export interface Drawdown {
  /** `(peak - trough) / peak` of the deepest drawdown by fraction; 0 when equity never fell. */
  readonly fraction: number;
  /** Largest `peak - equity` amount seen, in quote. */
  readonly amount: Decimal;
  /** Of the deepest drawdown (by fraction): from its peak to the first sample back at the peak, or to the last sample. */
  readonly durationMs: number;
  /** Longest time spent below a previous peak, whichever drawdown it was. */
  readonly longestMs: number;
}

/**
 * Drawdowns over the raw samples (not resampled, so no trough between samples is missed).
 * The running peak is the highest equity so far; a sample below it is under water. Fractions are
 * taken only against a positive peak.
 */
export function maxDrawdown(points: readonly EquityPoint[]): Drawdown {
  let fraction = ZERO;
  let amount = ZERO;
  let durationMs = 0;
  let longestMs = 0;
  let peak: EquityPoint | undefined;
  let episodeDeepest = ZERO;
  let deepestEpisodePeak: number | undefined;
  const close = (end: number): void => {
    if (peak === undefined) return;
    const length = end - peak.time;
    longestMs = Math.max(longestMs, length);
    if (deepestEpisodePeak === peak.time) durationMs = length;
  };
  for (const point of points) {
    if (peak === undefined || point.equity.greaterThanOrEqualTo(peak.equity)) {
      if (peak !== undefined && episodeDeepest.greaterThan(ZERO)) close(point.time);
      peak = point;
      episodeDeepest = ZERO;
      continue;
    }
    const drop = peak.equity.minus(point.equity);
    if (drop.greaterThan(amount)) amount = drop;
    if (drop.greaterThan(episodeDeepest)) episodeDeepest = drop;
    const frac = peak.equity.greaterThan(ZERO) ? drop.dividedBy(peak.equity) : ZERO;
    if (frac.greaterThan(fraction)) {
      fraction = frac;
      deepestEpisodePeak = peak.time;
    }
  }
  const last = points[points.length - 1];
  if (last !== undefined && episodeDeepest.greaterThan(ZERO)) close(last.time);
  return { fraction: fraction.toNumber(), amount, durationMs, longestMs };
}

function average(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}
