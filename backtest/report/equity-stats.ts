import type { Decimal } from '../../framework/model/decimal.js';
import { ZERO } from '../../framework/model/decimal.js';
import type { EquityPoint } from './backtest-result.js';
import { periodReturn } from './period-return.js';
import { compareEquity, EquityDrop, isPositiveEquity, ScaledEquityPoint } from './scaled-equity.js';

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
  const tracker = new DrawdownTracker();
  for (const point of points) tracker.add(point);
  return tracker.result();
}

/**
 * {@link maxDrawdown} one sample at a time (in time order), in constant memory. A sample's
 * fraction of its peak is only worked out when it is the deepest of its episode so far: a
 * shallower one under the same peak cannot be the deepest of the run, and divisions are the
 * costly part of a long curve.
 */
export class DrawdownTracker {
  private fraction = ZERO;
  private amount = EquityDrop.NONE;
  private durationMs = 0;
  private longestMs = 0;
  private peak: EquityPoint | undefined;
  private episodeDeepest = EquityDrop.NONE;
  private deepestEpisodePeak: number | undefined;
  private lastTime: number | undefined;

  /** One sample, at or after every earlier one. */
  add(point: EquityPoint): void {
    this.lastTime = point.time;
    const peak = this.peak;
    if (peak === undefined || compareEquity(point, peak) >= 0) {
      if (peak !== undefined && this.episodeDeepest !== EquityDrop.NONE) this.close(point.time);
      this.peak = point;
      this.episodeDeepest = EquityDrop.NONE;
      return;
    }
    const drop = EquityDrop.between(peak, point);
    if (drop.greaterThan(this.amount)) this.amount = drop;
    if (!drop.greaterThan(this.episodeDeepest)) return;
    this.episodeDeepest = drop;
    const frac = isPositiveEquity(peak) ? drop.decimal.dividedBy(peak.equity) : ZERO;
    if (frac.greaterThan(this.fraction)) {
      this.fraction = frac;
      this.deepestEpisodePeak = peak.time;
    }
  }

  /** The drawdown of the samples so far. */
  result(): Drawdown {
    let { durationMs, longestMs } = this;
    if (this.lastTime !== undefined && this.peak !== undefined && this.episodeDeepest !== EquityDrop.NONE) {
      const length = this.lastTime - this.peak.time;
      longestMs = Math.max(longestMs, length);
      if (this.deepestEpisodePeak === this.peak.time) durationMs = length;
    }
    return { fraction: this.fraction.toNumber(), amount: this.amount.decimal, durationMs, longestMs };
  }

  private close(end: number): void {
    const length = end - this.peak!.time;
    this.longestMs = Math.max(this.longestMs, length);
    if (this.deepestEpisodePeak === this.peak!.time) this.durationMs = length;
  }
}

/**
 * `periodReturns(resampleEquity(points, periodMs))` one sample at a time (in time order): a grid
 * time takes its value once a later sample shows nothing else falls at or before it, and
 * {@link finish} settles the grid times up to the last sample. Keeps one float per period (the
 * returns behind Sharpe and Sortino) and nothing per sample.
 */
export class PeriodReturns {
  readonly returns: number[] = [];
  private nextGrid = Number.NaN;
  private current: EquityPoint | undefined;
  private currentText: string | undefined;
  private previous: EquityPoint | undefined;
  private previousText: string | undefined;
  private lastTime = Number.NaN;

  constructor(private readonly periodMs: number) {}

  /**
   * One sample, at or after every earlier one; `equityText`, when the caller has it, is the
   * sample's equity as `toFixed()` writes it (it spares a division, see {@link periodReturn}).
   */
  add(point: EquityPoint, equityText?: string): void {
    if (this.current === undefined) {
      this.nextGrid = point.time;
    } else {
      for (; this.nextGrid < point.time; this.nextGrid += this.periodMs) this.emit(this.current, this.currentText);
    }
    this.current = point;
    this.currentText = equityText;
    this.lastTime = point.time;
  }

  /** Values the grid times up to the last sample; the returns are complete after it. */
  finish(): readonly number[] {
    if (this.current !== undefined) {
      for (; this.nextGrid <= this.lastTime; this.nextGrid += this.periodMs) this.emit(this.current, this.currentText);
    }
    return this.returns;
  }

  private emit(value: EquityPoint, text: string | undefined): void {
    const previous = this.previous;
    const previousText = this.previousText;
    this.previous = value;
    this.previousText = text;
    if (previous === undefined || !isPositiveEquity(previous)) return;
    // Two samples in units of one scale: the texts' rule of periodReturn on the units themselves.
    if (value instanceof ScaledEquityPoint && previous instanceof ScaledEquityPoint && value.scale === previous.scale) {
      const v = value.units;
      const p = previous.units;
      if (Math.abs(v - p) < p) {
        this.returns.push((v - p) / p);
        return;
      }
    }
    this.returns.push(periodReturn(value.equity, previous.equity, text, previousText));
  }
}

function average(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}
