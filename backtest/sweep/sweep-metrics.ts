import { Decimal, toWire } from '../../framework/model/decimal.js';
import type { BacktestMetrics } from '../report/metrics.js';

/** Names of the numeric {@link BacktestMetrics} (numbers or Decimals; undefined when not computable). */
export type NumericMetric = {
  [K in keyof BacktestMetrics]-?: BacktestMetrics[K] extends number | Decimal | undefined ? K : never;
}[keyof BacktestMetrics];

/** The metrics a sweep reports per combination, in CSV column order; any of them can rank. */
export const SWEEP_METRICS = [
  'pnlQuote', 'returnFraction', 'initialEquity', 'finalEquity', 'feesQuote', 'orders', 'fills',
  'makerShareByCount', 'makerShareByNotional', 'tradedNotional', 'roundTrips', 'winningRoundTrips', 'winRate',
  'roundTripPnl', 'returns', 'sharpe', 'sortino', 'maxDrawdown', 'maxDrawdownAmount', 'maxDrawdownDurationMs',
  'longestDrawdownMs', 'exposure', 'averageEquity', 'turnover',
] as const satisfies readonly NumericMetric[];

/** One of {@link SWEEP_METRICS}. */
export type SweepMetric = (typeof SWEEP_METRICS)[number];

/**
 * Metrics as text, the only form that crosses the worker boundary: Decimals exact in plain
 * notation, floats in JavaScript's shortest round-trip form, '' when not computable.
 */
export type PlainMetrics = Readonly<Record<SweepMetric, string>>;

/** Renders the sweep's metrics of one run as {@link PlainMetrics}. */
export function plainMetrics(metrics: BacktestMetrics): PlainMetrics {
  const out = {} as Record<SweepMetric, string>;
  for (const name of SWEEP_METRICS) {
    const value: number | Decimal | undefined = metrics[name];
    out[name] = value === undefined ? '' : typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : toWire(value);
  }
  return out;
}

/** True when `name` is a metric a sweep can rank by. */
export function isSweepMetric(name: string): name is SweepMetric {
  return (SWEEP_METRICS as readonly string[]).includes(name);
}

/** One finished combination. */
export interface SweepRow {
  /** Position of the combination in the expanded grid. */
  readonly index: number;
  readonly params: Readonly<Record<string, string | number | boolean>>;
  /** Replayed events. */
  readonly events: number;
  readonly metrics: PlainMetrics;
}

/**
 * Orders rows best first: by `metric` descending (exact Decimal comparison of the text, so large
 * PnLs never tie through float rounding), rows without a value last, ties by combination index.
 * Returns a new array.
 */
export function rankRows<R extends SweepRow>(rows: readonly R[], metric: SweepMetric): R[] {
  const keyed = rows.map((row) => ({ row, value: row.metrics[metric] === '' ? undefined : new Decimal(row.metrics[metric]) }));
  keyed.sort((a, b) => {
    if (a.value !== undefined && b.value !== undefined) {
      const c = b.value.comparedTo(a.value);
      if (c !== 0) return c;
    } else if (a.value !== b.value) {
      return a.value === undefined ? 1 : -1;
    }
    return a.row.index - b.row.index;
  });
  return keyed.map((k) => k.row);
}
